# linux.mk - Linux's own user_events clients, built unmodified from Debian's linux-source-6.1
# (fetched at test time by tools/fetch-linux-source.sh into a cache outside the repository;
# $(BUILD)/user/linux/src links to it). Included by the top-level Makefile after user/user.mk.
#
#   $(BUILD)/user/linux/linux_example        samples/user_events/example.c against tracekern's own
#                                       C library, with 6.1's user_events header
#                                       (user/include/abi-6.1, see its comment)
#   $(BUILD)/user/linux/linux_example_glibc  the same file, `gcc -m32 -static` against glibc
#   $(BUILD)/user/linux/ftrace_test          tools/testing/selftests/user_events/ftrace_test.c and
#   $(BUILD)/user/linux/dyn_test             dyn_test.c, as their Makefile builds them (-Wall,
#                                       KHDR_INCLUDES, -lrt -lpthread -lm), static glibc
#   make linux-clients                  all four
#
# Every program here is an i386 program for the GUEST (as the glibc_abi builds below): the
# host only compiles and links them (gcc-multilib's libc6-dev-i386), and they reach the
# guest as QEMU boot modules (tests/linux/linux_clients.sh, tests/shell/glibc_abi.script).
# Nothing executes them on the host, which may not be able to run i386 programs at all
# (tests/run_all.sh lists the few build/ programs the host does run and checks each is a
# host binary). Nothing here is part of `all`: only the test that runs them fetches the
# sources.

LINUX_SRC := $(BUILD)/user/linux/src
LINUX_CLIENTS := $(addprefix $(BUILD)/user/linux/,linux_example linux_example_glibc ftrace_test dyn_test)
# Linux's selftests take the kernel's exported headers from KHDR_INCLUDES; 6.1's
# user_events.h is the one header they need that Debian's linux-libc-dev lacks.
KHDR_INCLUDES := -isystem $(LINUX_SRC)/include
LINUX_GLIBC_CFLAGS := -m32 -static -Wl,-no-as-needed -Wall
# The sample against tracekern's library: the user programs' flags, but warnings as the
# sample's own Makefile has them (-Wall, not errors: 6.1's example.c casts a pointer to
# __u64, which gcc warns about for 32-bit code), and 6.1's header first.
LINUX_SAMPLE_CFLAGS := $(filter-out -Werror -Wextra -Iuser/include,$(USER_CFLAGS)) \
	-Iuser/include/abi-6.1 -Iuser/include

.PHONY: linux-clients
linux-clients: $(LINUX_CLIENTS)

$(LINUX_SRC):
	@mkdir -p $(@D)
	@src=$$(tools/fetch-linux-source.sh) && ln -sfn "$$src" $@

$(BUILD)/user/linux/linux_example: $(LINUX_SRC) $(USER_CRT0) $(USER_LIBC) user/user.ld tests/linux/linux.mk
	$(CC) $(LINUX_SAMPLE_CFLAGS) -c $(LINUX_SRC)/samples/user_events/example.c -o $@.o
	$(LD) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $@.o $(USER_LIBC) $(USER_LIBGCC)

$(BUILD)/user/linux/linux_example_glibc: $(LINUX_SRC) tests/linux/linux.mk
	$(CC) $(LINUX_GLIBC_CFLAGS) $(KHDR_INCLUDES) -o $@ $(LINUX_SRC)/samples/user_events/example.c

$(BUILD)/user/linux/ftrace_test $(BUILD)/user/linux/dyn_test: $(BUILD)/user/linux/%: $(LINUX_SRC) tests/linux/linux.mk
	$(CC) $(LINUX_GLIBC_CFLAGS) $(KHDR_INCLUDES) -o $@ \
		$(LINUX_SRC)/tools/testing/selftests/user_events/$*.c -lrt -lpthread -lm

# Our own static glibc program (tests/linux/glibc_abi.c): what glibc asks of the kernel,
# built as every i386 toolchain links (0x08048000) and as static-pie. Needs no Linux source.
GLIBC_ABI := $(BUILD)/user/linux/glibc_abi $(BUILD)/user/linux/glibc_abi_pie

$(BUILD)/user/linux/glibc_abi: tests/linux/glibc_abi.c tests/linux/linux.mk
	@mkdir -p $(@D)
	$(CC) -m32 -static -O2 -Wall -Wextra -Werror -o $@ $<

$(BUILD)/user/linux/glibc_abi_pie: tests/linux/glibc_abi.c tests/linux/linux.mk
	@mkdir -p $(@D)
	$(CC) -m32 -static-pie -fPIE -O2 -Wall -Wextra -Werror -DGLIBC_ABI_PIE -o $@ $<
