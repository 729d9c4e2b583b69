# tracekern - build, run and test.
#
#   make            build/tracekern.elf and build/tracekern.iso (the kernel people run), and
#                   build/tracekern-test.elf (the same plus the self-tests and benchmarks)
#   make run        boot the ISO in QEMU: console on this terminal, COM2 to build/com2.txt
#                   (GRUB_MENU=1: GRUB's menu first, on the same terminal)
#                   [APPEND="..."]: that kernel command line (boots the ELF with -kernel)
#                   [PROGRAMS="path/to/elf ..."]: each file is /bin/NAME too (also for
#                   trace and debug); build/busybox/busybox is Debian's busybox-static,
#                   fetched by the build (tools/fetch-busybox.sh)
#   make test       every test: host unit tests, fuzz replays, in-kernel self-tests, boots
#   make trace SCRIPT=FILE [DEVICES="edu pci-testdev"] [OUT=DIR] [APPEND="..."] [QEMU_EXTRA=...]
#                   [PROGRAMS="..."]
#   make debug      QEMU halted with a gdb stub; then `gdb -x build/gdbinit` in another shell
#                   [APPEND="..."]; says which build/com2*.txt it writes, as make run does
#   make bench      costs in guest instructions (QEMU -icount); table here, JSON in build/
#   make fuzz       coverage-guided fuzzing with clang's libFuzzer (FUZZ_SECONDS each)
#   make compare    tracekern beside Debian's Linux 6.1 (686), same bench, same QEMU; table
#                   here, JSON in build/compare.json (downloads the Linux image; not in test)
#
# The kernel is compiled by the system gcc with -m32 (see README: "Toolchain").
#
# Several makes may run in one tree at once (a `make run` in one terminal, `make test` in
# another): building is done by one at a time, under a lock on $(BUILD)/.build.lock (flock,
# util-linux), and what each then runs writes files of its own (see "running" below).

BUILD := build

# Files of $(BUILD) named as the only goals (`make build/tracekern.elf`) are built holding
# the build lock too: this make just runs another one, under the lock, for them.
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(BUILD)/%,$(MAKECMDGOALS)),)
ifndef TRACEKERN_BUILD_LOCKED
DIRECT_FILE_GOALS := 1
endif
endif
endif
ifdef DIRECT_FILE_GOALS
.PHONY: $(MAKECMDGOALS) direct-file-goals
$(MAKECMDGOALS): direct-file-goals
	@:
direct-file-goals:
	@mkdir -p $(BUILD) && TRACEKERN_BUILD_LOCKED=1 flock $(BUILD)/.build.lock \
		$(MAKE) --no-print-directory $(MAKECMDGOALS)
else
CC := gcc
LD := ld
NASM := nasm
QEMU_RUN := $(BUILD)/tools/qemu_run

KERNEL_CFLAGS := -m32 -march=i686 -std=gnu11 -O2 -g -ffreestanding -fno-builtin \
	-fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -fno-asynchronous-unwind-tables -fno-strict-aliasing \
	-mgeneral-regs-only -mno-red-zone -Wall -Wextra -Werror -I.
KERNEL_LDFLAGS := -m elf_i386 -T linker.ld -nostdlib -z noexecstack
LIBGCC = $(shell $(CC) -m32 -print-libgcc-file-name)
NASMFLAGS := -f elf32 -g -F dwarf

# Function tracing: gcc puts five bytes of NOPs before every function's first instruction
# and lists them in __patchable_function_entries (-fpatchable-function-entry=5, as Linux on
# arm64 and RISC-V); at boot arch/x86/ftrace_arch.c makes each one 5-byte NOP, and
# trace/ftrace/ftrace.c patches them. Not -pg: it keeps a frame in every leaf function, the
# call it no longer makes (docs/ftrace.md, section 10). These files are never traced: the tracers themselves (all of trace/), the benchmarks
# that measure them (tests/bench/), trap entry, the code that patches or walks stacks for
# them, the clock they read, the last words of a crash, and everything that carries the trace
# out (formatting, symbols, the file tree and its name hash, the serial ports, the console, the background
# stream): tracing those would make every printed event produce new ones, without end.
FTRACE_CFLAGS := -fpatchable-function-entry=5
NOTRACE_DIRS := trace/% tests/bench/% drivers/serial/%
NOTRACE_ARCH := trap machine backtrace double_fault mmiotrace_fault mmio_decode ftrace_arch \
	fpu task_arch paging snapshot gdt kprobe_arch insn_decode uprobe_arch smp_boot lapic lapic_timer
NOTRACE_KERNEL := time panic smp background lib/format lib/string lib/symbols lib/frame_sum lib/name_hash fs/fs_tree fs/fs_layout \
	shell/console lock_debug
NOTRACE_C = $(filter $(NOTRACE_DIRS),$(KERNEL_C) $(TEST_C)) $(NOTRACE_ARCH:%=arch/x86/%.c) \
	$(NOTRACE_KERNEL:%=kernel/%.c)

# The handlers only arch/x86/ftrace_entry.asm calls (trace/ftrace/ftrace_function.c,
# ftrace_graph_handler.c): the trampolines save every register and restore them with
# popad, so these files may use ebx, esi and edi without saving them. Files named here
# must hold nothing that C code calls (docs/ftrace.md section 10).
FTRACE_HANDLER_C := trace/ftrace/ftrace_function.c trace/ftrace/ftrace_graph_handler.c
FTRACE_HANDLER_CFLAGS := -fcall-used-ebx -fcall-used-esi -fcall-used-edi

# Every .c and .asm of the kernel: arch/x86, kernel/ and its subsystem folders, drivers,
# trace/ and its folders, and samples/ (demo modules a user types, such as `ftracetest`).
# TEST_C is what only the test kernel has: tests/guest (the in-kernel self-tests) and
# tests/bench (the benchmarks). Link order is the order of the commands in `help`, of the
# self-tests and of initcalls within a level (kernel/init.h): within kernel/ and within
# trace/ it is by file name, whatever the subfolder, as it was when each was one flat
# folder, so moving a file between subfolders reorders nothing.
by_file_name = $(foreach n,$(sort $(notdir $(1))),$(filter %/$(n),$(1)))
KERNEL_C := $(wildcard arch/x86/*.c) $(call by_file_name,$(wildcard kernel/*.c kernel/*/*.c)) \
	$(wildcard drivers/*/*.c) $(call by_file_name,$(wildcard trace/*.c trace/*/*.c)) \
	$(wildcard samples/*/*.c)
TEST_C := $(wildcard tests/guest/*.c tests/bench/*.c)
ifneq ($(filter-out $(KERNEL_C) $(TEST_C),$(NOTRACE_C)),)
$(error NOTRACE names files that do not exist: $(filter-out $(KERNEL_C) $(TEST_C),$(NOTRACE_C)))
endif
KERNEL_ASM := $(wildcard boot/*.asm arch/x86/*.asm)
KERNEL_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(KERNEL_C)) \
	$(patsubst %.asm,$(BUILD)/obj/%.asm.o,$(KERNEL_ASM))
TEST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(TEST_C))

# Two images from the same objects: tracekern.elf, the kernel people run (make, run, debug,
# trace, the ISO), and tracekern-test.elf, which adds the self-tests and benchmarks (`make
# test`, `make bench`; `selftest`/`bench` on the command line). IMAGE_OBJS_x: what image x
# links, in link order.
IMAGES := tracekern tracekern-test
IMAGE_OBJS_tracekern := $(KERNEL_OBJS)
IMAGE_OBJS_tracekern-test := $(KERNEL_OBJS) $(TEST_OBJS)

HOST_CC := cc
HOST_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -g -O1 -I. -DTRACEKERN_HOST \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Host tools that read mmiotrace logs link the shared log parser (tools/mmio_log.c).
MMIO_LOG_TOOLS := $(BUILD)/tools/mmio_annotate $(BUILD)/tools/mmio_replay
# The IPC log extractor reads memory dumps with the kernel's own page code.
IPC_LOG_TOOLS := $(BUILD)/tools/ipc_log_extract

# User programs (ring 3) and their C library: user/user.mk. Every boot gets them as
# multiboot modules (USER_MODULES: QEMU's comma-separated -initrd list).
.DEFAULT_GOAL := all
include user/user.mk
# Linux's own user_events clients, fetched and built for tests only (issue 16)
include tests/linux/linux.mk
# make compare: tracekern beside Debian's Linux 6.1 (issue 20)
include tools/compare/compare.mk
comma := ,
empty :=
space := $(empty) $(empty)
USER_MODULES := $(subst $(space),$(comma),$(strip $(USER_ELFS)))

# Debian's busybox-static for i386, unmodified, downloaded with apt into a cache outside the
# repository (tools/fetch-busybox.sh): for `make run PROGRAMS=build/busybox/busybox` and the
# tests that boot it.
BUSYBOX := $(BUILD)/busybox/busybox
$(BUSYBOX): tools/fetch-busybox.sh tools/fetch-deb.sh
	tools/fetch-busybox.sh $@

# PROGRAMS="path/to/elf ...": more programs for `make run`, `trace` and `debug`, each /bin/NAME
# (its file name) beside the built-in ones, as a module of the ISO or QEMU's -initrd list.
# tools/check-programs.sh refuses a list the kernel could not take, on the host before QEMU
# starts (CHECK_PROGRAMS: with how many modules the boot has without them). A file this
# Makefile can build (build/busybox/busybox) is built first.
BOOT_MODULES := $(subst $(space),$(comma),$(strip $(USER_ELFS) $(PROGRAMS)))
CHECK_PROGRAMS = tools/check-programs.sh "$(USER_PROGRAMS)" $(1) $(PROGRAMS)
PROGRAMS_TO_BUILD := $(filter $(BUSYBOX),$(PROGRAMS))

.PHONY: all run debug trace test tour print-user-modules bench fuzz deps clean run-ready debug-ready trace-ready test-ready tour-ready bench-ready locked-build
.SECONDEXPANSION:
BUILD_OUTPUTS := $(IMAGES:%=$(BUILD)/%.elf) $(BUILD)/tracekern.iso $(MMIO_LOG_TOOLS) $(IPC_LOG_TOOLS) $(USER_ELFS)

# --- tkconvert (issue 17, convert): the host converter of the binary capture, several .c
# files in tools/tkconvert/ linking the kernel's frame_sum (the frame check) and raw_page
# (the pages it builds from the guest's ring records, issue 20); its portable parts have
# unit tests (tests/unit/test_tk_*.c) and a fuzz target (tests/fuzz/fuzz_tkconvert.c).
TKCONVERT := $(BUILD)/tools/tkconvert
TKCONVERT_SRCS := $(wildcard tools/tkconvert/*.c) kernel/lib/frame_sum.c trace/core/raw_page.c
BUILD_OUTPUTS += $(TKCONVERT)
$(TKCONVERT): $(TKCONVERT_SRCS) $(wildcard tools/tkconvert/*.h) uapi/trace_capture.h \
		kernel/lib/frame_sum.h kernel/time.h trace/core/raw_page.h
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -O2 -I. -o $@ $(TKCONVERT_SRCS)
UNIT_DEPS_tk_cycle_clock := tools/tkconvert/cycle_clock.c kernel/lib/frame_sum.c
UNIT_DEPS_tk_ring_records := tools/tkconvert/ring_records.c kernel/lib/frame_sum.c
# The decoder against the ring buffer itself, built for the host (= : HOST_ring_buffer comes below).
UNIT_DEPS_tk_ring_agreement = tools/tkconvert/ring_records.c $(HOST_ring_buffer)
HOST_tk_page_builder := tools/tkconvert/page_builder.c tools/tkconvert/ring_records.c \
	tools/tkconvert/cycle_clock.c trace/core/raw_page.c
UNIT_DEPS_tk_page_builder := $(HOST_tk_page_builder) kernel/lib/frame_sum.c tools/tkconvert/rb_page.c
HOST_tk_capture := tools/tkconvert/capture.c kernel/lib/frame_sum.c $(HOST_tk_page_builder)
UNIT_DEPS_tk_capture := $(HOST_tk_capture)
UNIT_DEPS_tk_rb_page := tools/tkconvert/rb_page.c trace/core/raw_page.c
UNIT_DEPS_tk_unpack := tools/tkconvert/unpack.c $(HOST_tk_capture)
HOST_tk_model := tools/tkconvert/trace_model.c tools/tkconvert/event_format.c \
	tools/tkconvert/trace_meta.c tools/tkconvert/rb_page.c $(HOST_tk_capture)
UNIT_DEPS_tk_event_format := tools/tkconvert/event_format.c
UNIT_DEPS_tk_trace_meta := tools/tkconvert/trace_meta.c
UNIT_DEPS_tk_trace_model := $(HOST_tk_model) trace/core/raw_page.c
UNIT_DEPS_tk_json_out := $(HOST_tk_model) tools/tkconvert/json_out.c
FUZZ_DEPS_tkconvert := $(HOST_tk_model) tools/tkconvert/unpack.c tools/tkconvert/json_out.c \
	tools/tkconvert/ctf_out.c

# Builds GOALS (default: everything `all` names) holding the build lock: a second make waits
# here until the first has finished, then finds its outputs up to date.
LOCKED_MAKE = mkdir -p $(BUILD) && TRACEKERN_BUILD_LOCKED=1 flock $(BUILD)/.build.lock \
	$(MAKE) --no-print-directory locked-build
all:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS)"

locked-build: $$(GOALS)
	@:

deps:
	@tools/install-deps.sh

# --- kernel ------------------------------------------------------------------------------
# Objects depend on the Makefile too: a change of flags rebuilds everything.
$(BUILD)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) $(if $(filter $<,$(NOTRACE_C)),,$(FTRACE_CFLAGS)) \
		$(if $(filter $<,$(FTRACE_HANDLER_C)),$(FTRACE_HANDLER_CFLAGS)) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.asm.o: %.asm Makefile
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) $< -o $@

$(BUILD)/tools/%: tools/%.c
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -O2 -o $@ $<

# The host's libtraceevent (Debian libtraceevent-dev) parsing the guest's event format files
# (tests/shell/event_formats.check runs it). Native, like every host tool.
$(BUILD)/tests/tools/parse_formats: tests/tools/parse_formats.c
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -O2 $$(pkg-config --cflags libtraceevent) -o $@ $< \
		$$(pkg-config --libs libtraceevent)

# They link the shared log parser, unlike the other host tools (one .c each).
$(MMIO_LOG_TOOLS): $(BUILD)/tools/%: tools/%.c tools/mmio_log.c tools/mmio_log.h
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -O2 -o $@ $< tools/mmio_log.c

$(IPC_LOG_TOOLS): tools/ipc_log_extract.c tools/ipc_log_dump.c tools/ipc_log_dump.h \
		trace/ipc_logging/ipc_log_page.c trace/ipc_logging/ipc_log_page.h trace/ipc_logging/ipc_log_write.h
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -O2 -I. -o $@ tools/ipc_log_extract.c \
		tools/ipc_log_dump.c trace/ipc_logging/ipc_log_page.c

# Two links per image: the first gives the addresses for the symbol table; the second adds
# the table at the end of the image (linker.ld), where it moves nothing. The check proves
# that. Each image's intermediate files are in $(BUILD)/link/IMAGE/.
$(BUILD)/ksyms-empty.asm: $(BUILD)/tools/mksyms
	$(BUILD)/tools/mksyms < /dev/null > $@

$(IMAGES:%=$(BUILD)/link/%/stage1.elf): $(BUILD)/link/%/stage1.elf: $$(IMAGE_OBJS_$$*) \
		$(BUILD)/obj/ksyms-empty.asm.o linker.ld
	@mkdir -p $(dir $@)
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(IMAGE_OBJS_$*) $(BUILD)/obj/ksyms-empty.asm.o $(LIBGCC)

$(IMAGES:%=$(BUILD)/link/%/ksyms.asm): $(BUILD)/link/%/ksyms.asm: $(BUILD)/link/%/stage1.elf \
		$(BUILD)/tools/mksyms
	nm -n $< | $(BUILD)/tools/mksyms > $@

$(BUILD)/obj/%.asm.o: $(BUILD)/%.asm
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) $< -o $@

$(IMAGES:%=$(BUILD)/%.elf): $(BUILD)/%.elf: $(BUILD)/link/%/stage1.elf $(BUILD)/obj/link/%/ksyms.asm.o
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(IMAGE_OBJS_$*) $(BUILD)/obj/link/$*/ksyms.asm.o $(LIBGCC)
	@nm -n $(BUILD)/link/$*/stage1.elf | grep -i ' [tw] ' > $(BUILD)/link/$*/stage1.syms
	@nm -n $@ | grep -i ' [tw] ' > $(BUILD)/link/$*/final.syms
	@cmp -s $(BUILD)/link/$*/stage1.syms $(BUILD)/link/$*/final.syms || \
		{ echo "symbol table moved code: compare $(BUILD)/link/$*/stage1.syms $(BUILD)/link/$*/final.syms"; exit 1; }
	@grub-file --is-x86-multiboot $@ 2>/dev/null || ! command -v grub-file >/dev/null || \
		{ echo "$@: no multiboot header in the first 8 KiB"; exit 1; }

# The ISOs: the kernel, the user programs in /boot/bin, and grub.cfg with one `module` line
# per program where iso/grub.cfg says @PROGRAMS@ and GRUB's menu timeout where it says
# @TIMEOUT@: 0 in tracekern.iso (boots at once), -1 in tracekern-menu.iso (`make run
# GRUB_MENU=1`: GRUB's menu waits on the serial terminal). What makes the ISO boot fast:
# the copies on it have no debug sections (gdb reads build/tracekern.elf; the kernel's own
# symbol table stays), so GRUB reads 0.4 MiB over the emulated CD instead of 1.4, and the
# ISO has no GRUB locales, fonts or themes (none is used on a serial terminal): 3.4 MB.
# Only tracekern-menu.iso carries the test kernel too (TEST_KERNEL), for the menu's
# self-tests entry; tracekern.iso, which boots the first entry at once, has no self-tests.
# tracekern-programs.iso is one of the two plus the files of PROGRAMS (EXTRA), copied
# unmodified (`make run PROGRAMS=...`).
# $(call make_iso,DIR,TIMEOUT,ISO[,TEST_KERNEL[,EXTRA]])
define make_iso
	@rm -rf $(1) && mkdir -p $(1)/boot/grub $(1)/boot/bin
	objcopy --strip-debug $(BUILD)/tracekern.elf $(1)/boot/tracekern.elf
	$(if $(4),objcopy --strip-debug $(4) $(1)/boot/$(notdir $(4)))
	for f in $(USER_ELFS); do objcopy --strip-debug $$f $(1)/boot/bin/$$(basename $$f) || exit 1; done
	$(if $(5),for f in $(5); do cp $$f $(1)/boot/bin/ || exit 1; done)
	awk -v progs="$(USER_PROGRAMS) $(notdir $(5))" -v timeout="$(2)" '/^#/ { print; next } /@PROGRAMS@/ { indent = $$0; \
		sub(/@.*/, "", indent); n = split(progs, p, " "); \
		for (i = 1; i <= n; i++) print indent "module /boot/bin/" p[i] " " p[i]; next } \
		{ sub(/@TIMEOUT@/, timeout); print }' iso/grub.cfg > $(1)/boot/grub/grub.cfg
	grub-mkrescue -o $(3).tmp --locales= --fonts= --themes= $(1) 2> $(3).log || \
		{ cat $(3).log; rm -f $(3).tmp; exit 1; }
	mv $(3).tmp $(3) # a QEMU still booting the old ISO keeps reading the old file
endef

$(BUILD)/tracekern.iso: $(BUILD)/tracekern.elf iso/grub.cfg $(USER_ELFS)
	$(call make_iso,$(BUILD)/iso,0,$@)

$(BUILD)/tracekern-menu.iso: $(IMAGES:%=$(BUILD)/%.elf) iso/grub.cfg $(USER_ELFS)
	$(call make_iso,$(BUILD)/iso-menu,-1,$@,$(BUILD)/tracekern-test.elf)

# What tracekern-programs.iso was last built with: rewritten only when that changes, so the
# ISO is built again for another PROGRAMS list or GRUB_MENU, and not otherwise.
PROGRAMS_ISO_RECIPE := PROGRAMS=$(PROGRAMS) GRUB_MENU=$(GRUB_MENU)
.PHONY: always
$(BUILD)/programs-iso.list: always
	@mkdir -p $(BUILD)
	@echo '$(PROGRAMS_ISO_RECIPE)' | cmp -s - $@ || echo '$(PROGRAMS_ISO_RECIPE)' > $@

$(BUILD)/tracekern-programs.iso: $(IMAGES:%=$(BUILD)/%.elf) iso/grub.cfg $(USER_ELFS) $(PROGRAMS) \
		$(BUILD)/programs-iso.list
	$(call make_iso,$(BUILD)/iso-programs,$(if $(GRUB_MENU),-1,0),$@,$(if $(GRUB_MENU),$(BUILD)/tracekern-test.elf),$(PROGRAMS))

-include $(KERNEL_OBJS:.o=.d) $(TEST_OBJS:.o=.d)

# --- running -----------------------------------------------------------------------------
# `make run` and `make debug` send COM2 to $(BUILD)/com2.txt, or, while another run holds
# that file, to $(BUILD)/com2-2.txt, -3, ... (the first one free: its .lock is held by the
# QEMU that writes it). `make trace` writes to its OUT directory; `make test` and `make
# bench` run one at a time per tree (their logs have fixed names).
COM2_SLOT := tools/com2_slot.sh $(BUILD)
DEVICES ?= edu pci-testdev
SMP ?= 1
# CPUs for QEMU (-smp): the kernel starts every one the firmware lists, up to MAX_CPUS
# (kernel/smp.h).
ifeq ($(filter $(SMP),1 2 3 4 5 6 7 8),)
$(error SMP=$(SMP): choose 1 to 8 CPUs (MAX_CPUS in kernel/smp.h))
endif
OUT ?= $(BUILD)/trace
TIMEOUT ?= 300

run: deps
	@$(MAKE) --no-print-directory run-ready

# GRUB_MENU=1 boots the ISO whose GRUB menu waits for a choice (the self-tests entry, or
# 'e' to edit the kernel's command line).
# PROGRAMS="..." boots tracekern-programs.iso, the same plus those files.
RUN_ISO := $(if $(PROGRAMS),$(BUILD)/tracekern-programs.iso,$(if $(GRUB_MENU),$(BUILD)/tracekern-menu.iso,$(BUILD)/tracekern.iso))
# APPEND="..." is the kernel command line. GRUB's menu entry in the ISO has a fixed one, so
# `make run APPEND=...` boots the same kernel and programs with QEMU's -kernel instead.
# The value reaches qemu_run through the environment (make exports command-line variables),
# so that quotes in it (param="two words") arrive as typed.
RUN_BOOT = $(if $(APPEND),--kernel $(BUILD)/tracekern.elf --initrd "$(BOOT_MODULES)" --append "$$APPEND",--iso $(RUN_ISO))

# The programs are checked before the ISO that holds them is built (a missing file is then
# named as such, not as a missing prerequisite).
run-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN) $(PROGRAMS_TO_BUILD)"
	@$(call CHECK_PROGRAMS,$(words $(USER_PROGRAMS)))
	@$(LOCKED_MAKE) GOALS="$(if $(APPEND),,$(RUN_ISO))"
	@$(COM2_SLOT) sh -c 'echo "tracekern on QEMU: console here, COM2 -> $$0; Ctrl-A x quits, poweroff too"; \
		exec "$$@"' @COM2@ $(QEMU_RUN) --interactive $(RUN_BOOT) --devices "$(DEVICES)" \
		--smp $(SMP) --com2 @COM2@ --expect-exit 33 --expect-exit 0 -- $(QEMU_EXTRA)

debug: deps
	@$(MAKE) --no-print-directory debug-ready

$(BUILD)/gdbinit: tools/gdbinit.in
	@mkdir -p $(BUILD)
	sed 's|@KERNEL@|$(abspath $(BUILD)/tracekern.elf)|' $< > $@

debug-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN) $(BUILD)/gdbinit $(PROGRAMS_TO_BUILD)"
	@$(call CHECK_PROGRAMS,$(words $(USER_PROGRAMS)))
	@$(COM2_SLOT) sh -c 'echo "QEMU is waiting for gdb on :1234. In another terminal: gdb -x $(BUILD)/gdbinit"; \
		echo "COM2 -> $$0"; exec "$$@"' @COM2@ \
		$(QEMU_RUN) --interactive --gdb --kernel $(BUILD)/tracekern.elf --initrd "$(BOOT_MODULES)" \
		--append "$${APPEND-}" --devices "$(DEVICES)" --com2 @COM2@ --expect-exit 33 --expect-exit 0 -- $(QEMU_EXTRA)

trace: deps
	@$(MAKE) --no-print-directory trace-ready

trace-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN) $(PROGRAMS_TO_BUILD)"
	@test -n "$(SCRIPT)" || { echo "usage: make trace SCRIPT=FILE [DEVICES=...] [OUT=DIR] [APPEND=...] [PROGRAMS=...]"; exit 2; }
	@test -f "$(SCRIPT)" || { echo "make trace: $(SCRIPT): no such file"; exit 2; }
	@$(call CHECK_PROGRAMS,$(words $(SCRIPT) $(USER_PROGRAMS)))
	@mkdir -p $(OUT)
	@$(QEMU_RUN) --kernel $(BUILD)/tracekern.elf --initrd "$(SCRIPT),$(BOOT_MODULES)" --devices "$(DEVICES)" \
		--smp $(SMP) --timeout $(TIMEOUT) --console $(OUT)/console.log --append "$${APPEND-}" \
		--com2 $(OUT)/trace_pipe.txt -- $(QEMU_EXTRA) \
		&& echo "trace: script ran to its end; $(OUT)/console.log $(OUT)/trace_pipe.txt" \
		|| { echo "trace: the script did not finish cleanly (see $(OUT)/console.log)"; exit 1; }

# --- record (issue 17, record) -----------------------------------------------------------
#   make record SCRIPT=FILE [DEVICES=...] [OUT=DIR] [APPEND=...] [PROGRAMS=...]
# The recording twin of `make trace`: boots with trace_options=stream_raw, so COM2 carries
# the binary capture (uapi/trace_capture.h) instead of text, into OUT/capture.tkc; then
# tkconvert turns its last session into OUT/trace.dat (trace-cmd, KernelShark), OUT/ctf/
# (babeltrace2, Trace Compass) and OUT/trace.json (Perfetto). OUT defaults to build/record.
# A capture saved by `make run` (COM2 in build/com2.txt, after `echo 1 > options/stream_raw`
# in the guest) converts the same way: build/tools/tkconvert --tracedat ... build/com2.txt.
# `make pictures` redraws docs/images/ from one recorded session (tools/make-pictures.sh).
.PHONY: record record-ready pictures
# tracedat.c's unit test runs Debian's trace-cmd on small unpacked captures it makes.
UNIT_DEPS_tk_tracedat := tools/tkconvert/tracedat.c tools/tkconvert/read_file.c
# Its fuzz target (fuzz_tk_tracedat) links the same: header_page's text comes from the capture.
RECORD_OUT = $(if $(filter command line environment,$(origin OUT)),$(OUT),$(BUILD)/record)

record: deps
	@$(MAKE) --no-print-directory record-ready

record-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN) $(PROGRAMS_TO_BUILD)"
	@test -n "$(SCRIPT)" || { echo "usage: make record SCRIPT=FILE [DEVICES=...] [OUT=DIR] [APPEND=...] [PROGRAMS=...]"; exit 2; }
	@test -f "$(SCRIPT)" || { echo "make record: $(SCRIPT): no such file"; exit 2; }
	@$(call CHECK_PROGRAMS,$(words $(SCRIPT) $(USER_PROGRAMS)))
	@mkdir -p $(RECORD_OUT) && rm -rf $(RECORD_OUT)/ctf $(RECORD_OUT)/trace.dat $(RECORD_OUT)/trace.json
	@$(QEMU_RUN) --kernel $(BUILD)/tracekern.elf --initrd "$(SCRIPT),$(BOOT_MODULES)" --devices "$(DEVICES)" \
		--smp $(SMP) --timeout $(TIMEOUT) --console $(RECORD_OUT)/console.log \
		--append "trace_options=stream_raw $${APPEND-}" --com2 $(RECORD_OUT)/capture.tkc -- $(QEMU_EXTRA) \
		|| { echo "record: the script did not finish cleanly (see $(RECORD_OUT)/console.log)"; exit 1; }
	@$(BUILD)/tools/tkconvert --tracedat $(RECORD_OUT)/trace.dat --ctf $(RECORD_OUT)/ctf \
		--json $(RECORD_OUT)/trace.json $(RECORD_OUT)/capture.tkc \
		&& echo "record: $(RECORD_OUT)/trace.dat $(RECORD_OUT)/ctf/ $(RECORD_OUT)/trace.json (from capture.tkc; console.log)" \
		|| { echo "record: tkconvert could not convert $(RECORD_OUT)/capture.tkc"; exit 1; }

pictures: deps
	@PICTURES=1 tools/install-deps.sh
	@$(MAKE) --no-print-directory record-ready SCRIPT=tools/pictures.script OUT=$(BUILD)/pictures
	tools/make-pictures.sh $(BUILD)/pictures docs/images

# --- tests -------------------------------------------------------------------------------
# Each unit test binary links its test file with the portable modules it tests. HOST_x is
# module x built for the host: its .c and the .c files of what it calls (tests/unit/host_*.c
# stand in for the kernel's heap, clock and system-call table); the link list is sorted, so a
# module named twice is linked once.
HOST_errno := kernel/lib/errno.c
HOST_format := kernel/lib/format.c
HOST_parse := kernel/lib/parse.c
HOST_symbols := kernel/lib/symbols.c
HOST_shell_parse := kernel/shell/shell_parse.c
HOST_fs_tree := kernel/fs/fs_tree.c kernel/lib/name_hash.c kernel/fs/fs_layout.c $(HOST_format) $(HOST_errno) tests/unit/host_heap.c
HOST_ring_buffer := trace/core/ring_buffer.c tests/unit/host_arch.c
HOST_trace_output := trace/core/trace_output.c trace/core/trace_comm.c $(HOST_fs_tree)
HOST_ipc_log_page := trace/ipc_logging/ipc_log_page.c
HOST_ftrace_filter := trace/ftrace/ftrace_filter.c $(HOST_parse) $(HOST_symbols) $(HOST_fs_tree)
HOST_user_events_parse := trace/events/user_events_parse.c $(HOST_parse) $(HOST_fs_tree)

UNIT_DEPS_format := $(HOST_format)
UNIT_DEPS_cmdline := kernel/lib/cmdline.c
UNIT_DEPS_shell_parse := $(HOST_shell_parse)
UNIT_DEPS_line_edit := kernel/shell/line_edit.c $(HOST_shell_parse)
UNIT_DEPS_complete := kernel/shell/complete.c $(HOST_fs_tree)
UNIT_DEPS_bitmap_alloc := kernel/lib/bitmap_alloc.c
UNIT_DEPS_tsc_cpuid := arch/x86/tsc_cpuid.c
UNIT_DEPS_heap := kernel/mm/heap.c
UNIT_DEPS_klog := kernel/log/klog.c $(HOST_format)
UNIT_DEPS_symbols := $(HOST_symbols)
UNIT_DEPS_time := kernel/time.c tests/unit/host_arch.c
UNIT_DEPS_ring_buffer := $(HOST_ring_buffer)
UNIT_DEPS_rb_span = tools/tkconvert/ring_records.c $(HOST_ring_buffer)
# issue 19: threads as CPUs (tests/unit/host_smp_arch.c instead of host_arch.c).
UNIT_DEPS_rb_smp := trace/core/ring_buffer.c tests/unit/host_smp_arch.c
# issue 19: spinlocks with lock debugging (kernel/lock_debug.c), threads as CPUs.
UNIT_DEPS_lock_debug := kernel/lock_debug.c tests/unit/host_smp_arch.c
UNIT_CFLAGS_lock_debug := -DLOCK_DEBUG_HOST
# issue 19: several CPUs logging into one IPC logging context, then the dump extractor.
UNIT_DEPS_ipc_log_smp := tools/ipc_log_dump.c $(HOST_ipc_log_page) tests/unit/host_smp_arch.c
UNIT_DEPS_raw_page := trace/core/raw_page.c
UNIT_DEPS_frame_sum := kernel/lib/frame_sum.c
UNIT_DEPS_event_fields := trace/events/event_fields.c $(HOST_fs_tree)
UNIT_DEPS_capture_frame := trace/core/capture_frame.c kernel/lib/frame_sum.c $(HOST_fs_tree)
UNIT_DEPS_parse := $(HOST_parse)
UNIT_DEPS_mmio_decode := arch/x86/mmio_decode.c
UNIT_DEPS_pci_format := drivers/pci/pci_format.c drivers/pci/pci_resource.c $(HOST_fs_tree)
UNIT_DEPS_pci_sysfs_parse := drivers/pci/pci_sysfs_parse.c
UNIT_DEPS_mmio_log := tools/mmio_log.c
UNIT_DEPS_ftrace_output := trace/ftrace/ftrace_output.c $(HOST_trace_output) $(HOST_symbols)
UNIT_DEPS_ftrace_filter := $(HOST_ftrace_filter)
UNIT_DEPS_mmiotrace_output := trace/mmiotrace/mmiotrace_output.c $(HOST_fs_tree)
UNIT_DEPS_trace_output := $(HOST_trace_output)
UNIT_DEPS_fs_tree := $(HOST_fs_tree)
UNIT_DEPS_name_hash := kernel/lib/name_hash.c tests/unit/host_heap.c $(HOST_errno)
UNIT_DEPS_civil_time := kernel/lib/civil_time.c
UNIT_DEPS_loadavg := kernel/loadavg.c
UNIT_DEPS_random := kernel/lib/chacha20.c tests/unit/host_arch.c
UNIT_DEPS_cred := kernel/proc/cred.c
UNIT_DEPS_mounts := kernel/fs/mounts.c $(HOST_fs_tree)
UNIT_DEPS_elf := kernel/proc/elf.c
UNIT_DEPS_signal := kernel/proc/signal.c arch/x86/umip_decode.c arch/x86/fpu_exception.c
UNIT_DEPS_ipc_log_page := $(HOST_ipc_log_page)
UNIT_DEPS_ipc_log_names := trace/ipc_logging/ipc_log_names.c
UNIT_DEPS_deadline_heap := kernel/lib/deadline_heap.c # issue 24, the scheduler's timers
UNIT_DEPS_wait_table := kernel/lib/wait_table.c # issue 24, the scheduler's sleepers
UNIT_DEPS_ipc_log_dump := tools/ipc_log_dump.c $(HOST_ipc_log_page)
UNIT_DEPS_user_events_parse := $(HOST_user_events_parse)
UNIT_DEPS_trace_events := trace/events/trace_events.c trace/events/trace_syscalls.c trace/events/event_fields.c \
	tests/unit/host_syscall_table.c $(HOST_ring_buffer) $(HOST_parse) $(HOST_fs_tree)
# issue 18, event filters (helper "filter"): the filter language, its unit test and fuzz target.
UNIT_DEPS_event_filter := trace/events/event_filter.c trace/events/event_fields.c $(HOST_fs_tree)
UNIT_DEPS_trace_events += trace/events/event_filter_files.c trace/events/event_filter.c \
	trace/core/error_log.c kernel/time.c
UNIT_DEPS_user_events_parse += trace/events/event_fields.c
HOST_user_events_parse += trace/events/event_fields.c # the fuzz target, defined below
# kprobes (issue 18): the kprobe_events line parser (its fuzz target links the same) and the
# fetch args' values at a hit.
UNIT_DEPS_kprobe_parse := trace/kprobes/kprobe_parse.c $(HOST_parse) $(HOST_fs_tree)
UNIT_DEPS_kprobe_fetch := trace/kprobes/kprobe_fetch.c $(UNIT_DEPS_kprobe_parse)
# kprobes at an offset (issue 18): the x86-32 instruction length decoder (fuzz target too).
UNIT_DEPS_insn_decode := arch/x86/insn_decode.c
# uprobes (issue 18): a uprobe offset against the ELF file (segments, .symtab, instructions).
UNIT_DEPS_uprobe_elf := trace/uprobes/uprobe_elf.c kernel/proc/elf.c arch/x86/insn_decode.c
# issue 18, triggers (helper "triggers"): the trigger-line parser, its unit test and fuzz target.
UNIT_DEPS_trigger_parse := trace/events/trigger_parse.c $(HOST_parse) $(HOST_errno)
UNIT_DEPS_trace_events += trace/events/event_commit.c trace/events/event_trigger.c \
	trace/events/trigger_parse.c trace/events/hist_table.c $(HOST_symbols)
UNIT_DEPS_hist_table := trace/events/hist_table.c trace/events/event_fields.c $(HOST_fs_tree)
# issue 18, set_event_pid and the options (helper "options"): the pid lists' parser.
UNIT_DEPS_trace_pid_list := trace/core/trace_pid_list.c $(HOST_parse)
UNIT_DEPS_cpumask_text := trace/core/cpumask_text.c $(HOST_parse) $(HOST_format)
UNIT_NAMES := $(patsubst tests/unit/test_%.c,%,$(wildcard tests/unit/test_*.c))
UNIT_BINS := $(addprefix $(BUILD)/unit/test_,$(UNIT_NAMES))

$(BUILD)/unit/test_%: tests/unit/test_%.c tests/unit/unit_main.c tests/unit/unit.h $$(UNIT_DEPS_%)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $(UNIT_CFLAGS_$*) -o $@ $< tests/unit/unit_main.c $(sort $(UNIT_DEPS_$*))

# A fuzz target links what the unit test of the same name links, unless named here.
FUZZ_DEPS_umip_decode := arch/x86/umip_decode.c
FUZZ_DEPS_ipc_log_extract := $(UNIT_DEPS_ipc_log_dump)
FUZZ_DEPS_user_events := $(HOST_user_events_parse)
FUZZ_DEPS_fs_resolve := $(HOST_fs_tree)
FUZZ_DEPS_fs_dir_index := $(HOST_fs_tree)
FUZZ_DEPS = $(sort $(or $(FUZZ_DEPS_$(1)),$(UNIT_DEPS_$(1))))
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_driver.c,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NAMES))
FUZZ_SECONDS ?= 60

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_driver.c $$(call FUZZ_DEPS,$$*)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< tests/fuzz/fuzz_driver.c $(call FUZZ_DEPS,$*)

$(BUILD)/libfuzzer/fuzz_%: tests/fuzz/fuzz_%.c $$(call FUZZ_DEPS,$$*)
	@mkdir -p $(dir $@)
	clang -g -O1 -I. -DTRACEKERN_HOST -fsanitize=fuzzer,address,undefined -o $@ $< $(call FUZZ_DEPS,$*)

# For tests/run_all.sh: the -initrd list that gives a boot every user program.
print-user-modules:
	@echo "$(USER_MODULES)"

test: deps
	@$(MAKE) --no-print-directory test-ready

# One test run at a time per tree: the logs in $(BUILD)/test-logs have fixed names.
test-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN) $(BUILD)/gdbinit $(UNIT_BINS) $(FUZZ_BINS) $(BUILD)/user/format_test $(BUILD)/tests/tools/parse_formats"
	@flock $(BUILD)/.test.lock env SMP=$(SMP) tests/run_all.sh

# The README's sessions typed one after another on one boot of the ISO, shown as they run
# and checked against the README (tools/doctest.py): what a new user following it sees.
tour: deps
	@$(MAKE) --no-print-directory tour-ready

tour-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN)"
	@python3 tools/doctest.py --show --qemu-run $(QEMU_RUN) --kernel $(BUILD)/tracekern.elf \
		--iso $(BUILD)/tracekern.iso --programs "$(USER_MODULES)" --logs $(BUILD)/tour README.md

bench: deps
	@$(MAKE) --no-print-directory bench-ready

bench-ready:
	@$(LOCKED_MAKE) GOALS="$(BUILD_OUTPUTS) $(QEMU_RUN) $(BUSYBOX)"
	@flock $(BUILD)/.bench.lock tools/bench.sh

fuzz: $(addprefix $(BUILD)/libfuzzer/fuzz_,$(FUZZ_NAMES))
	@for t in $(FUZZ_NAMES); do \
		mkdir -p $(BUILD)/corpus/$$t; \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
		$(BUILD)/libfuzzer/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) $(BUILD)/corpus/$$t tests/fuzz/corpus/$$t || exit 1; \
	done

clean:
	rm -rf $(BUILD)

endif # DIRECT_FILE_GOALS
