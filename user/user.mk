# user.mk - user programs and the small C library they link against (ring 3).
#
# Included by the top-level Makefile (which defines BUILD, CC, HOST_CC and LD). Produces one static
# ELF per program, $(BUILD)/user/NAME from user/programs/NAME.c, linked at USER_BASE by
# user/user.ld with crt0 and the library in $(BUILD)/user/libc.a.
#
#   USER_PROGRAMS  the programs' names
#   USER_ELFS      their ELF files: what the kernel image or the ISO needs built
#   $(BUILD)/user/format_test   a native host program testing printf; run it (exit 0 = pass)

USER_PROGRAMS := hello ue_example ue_enable ue_errors ue_bench ue_inherit fault spin sleeper ipc_ping ipc_pong ipc_test ipc_regs_test sysfuzz pipe_test fpu memhog \
	hostile_files irq_rate hostile_flood hostile_cpu ipc_hog format_check hostile_console \
	proc_bench hostile_mem
# Files and the terminal (issue 16)
# A user-space driver on sysfs's resourceN, traced by mmiotrace (issue 23)
USER_PROGRAMS += bar_test bar_bench

USER_PROGRAMS += fs_test hostile_fd tty_test
# Processes (issue 16)
USER_PROGRAMS += proc_test hostile_process
# The Linux ABI's miscellaneous calls and Linux's own clients (issue 16)
USER_PROGRAMS += linux_calls hostile_clients libc_linux
# /bin/NAME reads as the program's image (issue 16)
USER_PROGRAMS += exe_bytes
# Linux's binary ring-buffer interfaces (issue 17)
USER_PROGRAMS += raw_test
# The binary capture on COM2 under attack (issue 17, stream)
USER_PROGRAMS += hostile_stream
USER_PROGRAMS += filter_writer hostile_filter # issue 18, event filters
USER_PROGRAMS += kprobe_target # issue 18, kprobes
USER_PROGRAMS += hostile_events itimer # issue 18, the timer/ mmio/ ipc/ pci/ events
USER_PROGRAMS += trigger_writer hostile_triggers # issue 18, triggers
USER_PROGRAMS += pid_filter hostile_pids # issue 18, set_event_pid and the other options
USER_PROGRAMS += uprobe_target hostile_uprobes # issue 18, uprobes
USER_PROGRAMS += hostile_instances # issue 18, instances/
USER_PROGRAMS += dma_ports_test # issue 23, mlock, pagemap, ioperm and iopl
USER_PROGRAMS += port_driver # issue 23, a program's port I/O under mmiotrace
USER_PROGRAMS += uio_test # issue 23, uio_pci_generic
USER_PROGRAMS += edu_driver # issue 23, the worked example: edu through sysfs, uio, resource0, pagemap
USER_PROGRAMS += device_holder # issue 23, a driver killed holding a mapping, a uio file and ports
USER_PROGRAMS += sched_scale # issue 24, the scheduler's scale curves (tests/bench/scale_sched_bench.c)
USER_ELFS := $(addprefix $(BUILD)/user/,$(USER_PROGRAMS))

USER_CFLAGS := -m32 -march=i686 -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdinc -mgeneral-regs-only \
	-isystem $(shell $(CC) -m32 -print-file-name=include) -Iuser/include -I. \
	-fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer \
	-fno-asynchronous-unwind-tables -Wall -Wextra -Werror -MMD -MP
USER_LDFLAGS := -m elf_i386 -T user/user.ld -nostdlib -z noexecstack --build-id=none
USER_LIBGCC := $(shell $(CC) -m32 -print-libgcc-file-name)

USER_LIB_OBJS := $(patsubst user/lib/%.c,$(BUILD)/user/lib/%.o,$(wildcard user/lib/*.c))
USER_CRT0 := $(BUILD)/user/lib/crt0.o
USER_LIBC := $(BUILD)/user/libc.a
USER_PROGRAM_OBJS := $(patsubst %,$(BUILD)/user/programs/%.o,$(USER_PROGRAMS))

# Objects depend on this file too: a change of flags rebuilds them.
$(BUILD)/user/lib/%.o: user/lib/%.c user/user.mk
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -c $< -o $@

$(BUILD)/user/programs/%.o: user/programs/%.c user/user.mk
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -c $< -o $@

# An archive, so that each program links only the library functions it calls.
$(USER_LIBC): $(filter-out $(USER_CRT0),$(USER_LIB_OBJS))
	rm -f $@
	ar rcs $@ $^

$(USER_ELFS): $(BUILD)/user/%: $(BUILD)/user/programs/%.o $(USER_CRT0) $(USER_LIBC) user/user.ld
	$(LD) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $< $(USER_LIBC) $(USER_LIBGCC)

-include $(USER_LIB_OBJS:.o=.d) $(USER_PROGRAM_OBJS:.o=.d)

# A host test of the printf formatter against the host's snprintf (tests/user/format_test.c):
# format.c, portable C, compiled with the user programs' headers but for the host's own
# architecture (nothing in `make test` may execute a 32-bit program on the host), its
# snprintf renamed, linked into a native host program under ASan/UBSan. That long and
# pointers are 32 bits wide in user programs is checked in the guest: the user program
# format_check prints the same cases (tests/shell/user_format.script).
USER_HOST_CFLAGS := -std=gnu11 -O1 -g -ffreestanding -fno-builtin -nostdinc \
	-isystem $(shell $(HOST_CC) -print-file-name=include) -Iuser/include -I. \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-Wall -Wextra -Werror -MMD -MP
$(BUILD)/user/tests/format.o: user/lib/format.c user/user.mk
	@mkdir -p $(@D)
	$(HOST_CC) $(USER_HOST_CFLAGS) -Dsnprintf=user_snprintf -Dvsnprintf=user_vsnprintf -c $< -o $@

$(BUILD)/user/format_test: tests/user/format_test.c tests/user/format_cases.h $(BUILD)/user/tests/format.o
	$(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-format-truncation \
		-fsanitize=address,undefined -fno-sanitize-recover=all -o $@ $< $(BUILD)/user/tests/format.o

-include $(BUILD)/user/tests/format.d
