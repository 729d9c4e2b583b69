# compare.mk - `make compare`: tracekern side by side with Debian's Linux 6.1 (686) in one
# run (tools/compare/compare.sh; docs/compare.md). Included by the top-level Makefile. Not
# part of `make test` or `all`: only `make compare` downloads the Linux image. The test
# (tests/compare/test_compare.sh) builds the two programs below and reads a recorded log.
#
#   $(BUILD)/compare/compare_bench   the bench both kernels run: an i386 program for the
#                                    GUEST, `gcc -m32 -static` against glibc (gcc-multilib,
#                                    which tools/install-deps.sh installs); never run here
#   $(BUILD)/compare/mkcpio          host tool: the Linux initramfs (cpio newc)
#   $(BUILD)/compare/linux/vmlinuz   Debian's linux-image-686 kernel (fetch-linux-image.sh)
#   $(BUILD)/compare/compare_mod.ko  the Linux module of the kernel-side rows, against that
#                                    image's Debian headers (build-module.sh)

COMPARE_DIR := $(BUILD)/compare
COMPARE_BENCH := $(COMPARE_DIR)/compare_bench
COMPARE_MKCPIO := $(COMPARE_DIR)/mkcpio
COMPARE_VMLINUZ := $(COMPARE_DIR)/linux/vmlinuz
COMPARE_MODULE := $(COMPARE_DIR)/compare_mod.ko

$(COMPARE_BENCH): tools/compare/compare_bench.c uapi/user_events.h tools/compare/compare.mk
	@mkdir -p $(@D)
	$(CC) -m32 -static -O2 -Wall -Wextra -Werror -I. -o $@ $<

$(COMPARE_MKCPIO): tools/compare/mkcpio.c
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -O2 -o $@ $<

$(COMPARE_VMLINUZ): tools/compare/fetch-linux-image.sh tools/fetch-deb.sh
	tools/compare/fetch-linux-image.sh $(@D)

$(COMPARE_MODULE): $(COMPARE_VMLINUZ) tools/compare/build-module.sh tools/compare/module/compare_mod.c \
		tools/compare/module/Kbuild
	tools/compare/build-module.sh $(COMPARE_DIR)/linux $@

.PHONY: compare compare-ready
compare: deps
	@$(MAKE) --no-print-directory compare-ready

# One comparison at a time per tree: its logs in $(BUILD)/compare have fixed names.
compare-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD)/tracekern.elf $(BUILD)/tracekern-test.elf $(QEMU_RUN) $(BUSYBOX) \
		$(COMPARE_BENCH) $(COMPARE_MKCPIO) $(COMPARE_VMLINUZ) $(COMPARE_MODULE)"
	@flock $(BUILD)/.compare.lock tools/compare/compare.sh
