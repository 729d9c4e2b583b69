#!/usr/bin/env bash
# run_all.sh - runs every test of tracekern and ends with one line "N passed, N failed".
#
# Called by `make test` once everything is built. Each check prints "ok - NAME" or
# "not ok - NAME"; host unit tests and in-kernel self-tests count one per test case.
# Console logs of every QEMU run stay in build/test-logs/ for reading afterwards.
set -u
cd "$(dirname "$0")/.."

BUILD=build
LOGS=$BUILD/test-logs
QEMU_RUN=$BUILD/tools/qemu_run
KERNEL=$BUILD/tracekern.elf
# The same kernel plus the self-tests and benchmarks: every `selftest=` boot uses it.
TEST_KERNEL=$BUILD/tracekern-test.elf
ISO=$BUILD/tracekern.iso
FUZZ_ITERATIONS=${FUZZ_ITERATIONS:-20000}
# The user programs, as QEMU's comma-separated -initrd list of multiboot modules.
PROGRAMS=$(make -s --no-print-directory print-user-modules)
mkdir -p "$LOGS"
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }

# Shows the end of a log under a failed check.
show_log() { echo "#   --- last lines of $1:"; tail -n "${2:-25}" "$1" | sed 's/^/#   | /'; }

# Counts the TAP lines of a test program's output; a crash with no "not ok" line counts once.
count_tap() { # name output-file exit-status
    local name=$1 file=$2 rc=$3 ok notok
    ok=$(grep -c '^ok ' "$file")
    notok=$(grep -c '^not ok ' "$file")
    passed=$((passed + ok))
    failed=$((failed + notok))
    grep '^not ok ' "$file"
    if [ "$rc" -ne 0 ] && [ "$notok" -eq 0 ]; then
        fail "$name (exit status $rc, no failing test named)"
        show_log "$file"
    elif [ "$notok" -gt 0 ]; then
        grep '^#   ' "$file" | head -n 20
    fi
    echo "# $name: $ok passed, $notok failed"
}

# Fails the check unless every line of expect_file is in file as a fixed string, and as
# often as expect_file has it: a line expected twice must be there twice (a second run of
# the same program, a status printed before and after a change). Order is not checked:
# background programs and the shell interleave differently from run to run.
expect_lines() { # name file expect_file
    local name=$1 file=$2 missing
    missing=$(awk 'NR == FNR { if (!($0 in need)) order[++n] = $0; need[$0]++; next }
                   { for (i = 1; i <= n; i++) if (index($0, order[i])) seen[order[i]]++ }
                   END { for (i = 1; i <= n; i++) if (seen[order[i]] < need[order[i]])
                             printf " [%s] (%d of %d)", order[i], seen[order[i]], need[order[i]] }' \
        "$3" <(tr -d '\r' < "$file"))
    if [ -z "$missing" ]; then pass "$name"; else
        fail "$name: missing$missing"
        show_log "$file"
    fi
}

# Fails the check unless file contains every one of the fixed strings given.
expect_all() { # name file string...
    local name=$1 file=$2 missing=""
    shift 2
    for s in "$@"; do
        grep -qF -- "$s" "$file" || missing="$missing [$s]"
    done
    if [ -z "$missing" ]; then pass "$name"; else
        fail "$name: missing$missing"
        show_log "$file"
    fi
}

# The ELF class (1: 32-bit, 2: 64-bit) and machine (3: i386, 62: x86-64) in a file's header,
# as "CLASS MACHINE"; fails when the file is not an ELF file. The machine field is read in
# the host's byte order, which is the file's whenever the two can match at all.
elf_kind() { # file
    [ "$(od -An -tx1 -N4 "$1" 2> /dev/null | tr -d ' \n')" = 7f454c46 ] || return 1
    echo "$(od -An -tu1 -j4 -N1 "$1" | tr -d ' ') $(od -An -tu2 -j18 -N2 "$1" | tr -d ' ')"
}
# The host's own kind: that of the shell running this script.
HOST_ELF_KIND=$(elf_kind "$BASH")

# True when file is a program of the host's own ELF class and machine; otherwise false,
# with the reason in not_host_reason. Nothing in `make test` executes anything else on the
# host: an i386 program needs IA32 emulation in the host's kernel, which many hosts lack.
is_host_binary() { # file
    local kind
    kind=$(elf_kind "$1") || { not_host_reason="$1 is not an ELF program"; return 1; }
    [ "$kind" = "$HOST_ELF_KIND" ] && return 0
    not_host_reason="$1 is ELF class/machine $kind, the host's is $HOST_ELF_KIND"
    return 1
}

# Fails check name, saying why, unless file is a host program (is_host_binary); the caller
# then skips running it.
host_binary() { # name file
    is_host_binary "$2" && return 0
    fail "$1: not run: $not_host_reason"
    return 1
}

if [ -z "$HOST_ELF_KIND" ]; then
    fail "the runner knows the host's ELF class and machine (from $BASH)"
elif ! is_host_binary "$BUILD/user/hello" && [[ $not_host_reason == *"class/machine 1 3,"* ]]; then
    pass "the runner refuses to execute an i386 program on the host ($not_host_reason)"
else
    fail "the runner refuses to execute an i386 program on the host ($BUILD/user/hello)"
fi
# Every program of build/ that this script or its helpers execute on the host.
for bin in "$QEMU_RUN" "$BUILD"/tools/mmio_annotate "$BUILD"/tools/mmio_replay \
    "$BUILD"/tools/ipc_log_extract "$BUILD"/user/format_test "$BUILD"/tests/tools/parse_formats; do
    host_binary "host program $(basename "$bin")" "$bin" \
        || { echo; echo "$passed passed, $failed failed"; exit 1; }
done

echo "# host unit tests (AddressSanitizer + UBSan)"
for bin in "$BUILD"/unit/test_*; do
    name=$(basename "$bin")
    host_binary "$name" "$bin" || continue
    "$bin" "$name" > "$LOGS/$name.txt" 2>&1
    count_tap "$name" "$LOGS/$name.txt" $?
done

# The user programs' printf against the host C library's (tests/user/format_test.c), built
# for the host's architecture; tests/shell/user_format.script checks the guest's 32-bit build.
if "$BUILD/user/format_test" > "$LOGS/user_format_test.txt" 2>&1; then
    pass "user library printf agrees with the host's ($(tail -n 1 "$LOGS/user_format_test.txt"))"
else
    fail "user library printf agrees with the host's"
    show_log "$LOGS/user_format_test.txt"
fi

echo "# fuzz targets, replaying their corpus and $FUZZ_ITERATIONS mutations each"
for bin in "$BUILD"/fuzz/fuzz_*; do
    name=$(basename "$bin")
    host_binary "$name" "$bin" || continue
    seeds=(tests/fuzz/corpus/"${name#fuzz_}"/*)
    [ -e "${seeds[0]}" ] || seeds=()
    if "$bin" "$FUZZ_ITERATIONS" "${seeds[@]}" > "$LOGS/$name.txt" 2>&1; then
        pass "$name"
    else
        fail "$name"
        show_log "$LOGS/$name.txt"
    fi
done

echo "# host tools for mmiotrace logs (mmio_annotate, mmio_replay)"
tests/tools/test_mmio_tools.sh "$PWD/$BUILD/tools/mmio_annotate" "$PWD/$BUILD/tools/mmio_replay" \
    > "$LOGS/mmio_tools.txt" 2>&1
count_tap "mmio_tools" "$LOGS/mmio_tools.txt" $?

# tkconvert (issue 17, convert): the binary capture's converter on made captures
echo "# the capture converter (tools/tkconvert): --check, --unpack, --json, --ctf via babeltrace2"
if host_binary "host program tkconvert" "$BUILD/tools/tkconvert"; then
    tests/tools/test_tkconvert.sh "$PWD/$BUILD/tools/tkconvert" > "$LOGS/tkconvert.txt" 2>&1
    count_tap "tkconvert" "$LOGS/tkconvert.txt" $?
fi

# make compare (issue 20): its host side, without the download: the bench and mkcpio build,
# mkcpio's archive reads back, and the table parser reads a recorded real run correctly.
echo "# make compare's host side (tools/compare): build, initramfs writer, recorded Linux 6.1 run"
tests/compare/test_compare.sh > "$LOGS/compare.txt" 2>&1
count_tap "compare" "$LOGS/compare.txt" $?

echo "# tools/doctest.py, which runs the documentation's console sessions"
python3 tests/tools/test_doctest.py > "$LOGS/test_doctest.txt" 2>&1
count_tap "test_doctest" "$LOGS/test_doctest.txt" $?
echo "# tools/scale_curves.py and tools/scale_svg.py, make bench's scale curves (issue 24)"
python3 tests/tools/test_scale_curves.py > "$LOGS/test_scale_curves.txt" 2>&1
count_tap "test_scale_curves" "$LOGS/test_scale_curves.txt" $?
# The docs must stand alone: a clone has no DESIGN.md and no ../shared/ to point to.
if outside=$(grep -nE 'DESIGN\.md|\.\./shared' README.md docs/*.md); then
    fail "README.md and docs/ name no file outside the repository (DESIGN.md, ../shared)"
    echo "$outside" | sed 's/^/#   /'
else
    pass "README.md and docs/ name no file outside the repository (DESIGN.md, ../shared)"
fi

echo "# layers: portable code reaches arch/x86 only through kernel/arch.h, the core reaches tracers through hooks"
# Files and the terminal (issue 16): the structures programs get are Linux's, field by field
# (compiled against the host's Linux i386 headers only; nothing runs).
if ${CC:-gcc} -m32 -std=gnu11 -I. -fsyntax-only tests/abi/uapi_fs_layout.c > "$LOGS/uapi_fs_layout.txt" 2>&1; then
    pass "uapi/fs.h has Linux's i386 layouts and values (stat64, stat, statx, termios, winsize, pollfd, flags)"
else
    fail "uapi/fs.h has Linux's i386 layouts and values (stat64, stat, statx, termios, winsize, pollfd, flags)"
    show_log "$LOGS/uapi_fs_layout.txt"
fi
if tests/tools/include_check.sh > "$LOGS/include_check.txt" 2>&1; then
    pass "include check: no kernel/ or trace/ file includes arch/x86 but kernel/arch.h; trace/ includes from kernel/ and arch/ only as allow-listed"
else
    fail "include check: no kernel/ or trace/ file includes arch/x86 but kernel/arch.h; trace/ includes from kernel/ and arch/ only as allow-listed"
    grep -v '^#' "$LOGS/include_check.txt" | sed 's/^/#   /'
fi
grep '^#   ' "$LOGS/include_check.txt"

echo "# two makes at once in one tree (the build lock)"
tests/tools/concurrent_make.sh "$LOGS" > "$LOGS/concurrent_make.txt" 2>&1 \
    && pass "two concurrent 'make all' after a touch both succeed, building once" \
    || { fail "two concurrent 'make all' after a touch both succeed, building once"; cat "$LOGS/concurrent_make.txt"; }
tests/tools/make_run.sh "$LOGS" > "$LOGS/make_run.txt" 2>&1 \
    && pass "APPEND=... is the kernel command line of make trace, run and debug; a second run gets its own COM2 file" \
    || { fail "APPEND=... is the kernel command line of make trace, run and debug; a second run gets its own COM2 file"; cat "$LOGS/make_run.txt"; }
tests/tools/make_programs.sh "$LOGS" > "$LOGS/make_programs.txt" 2>&1 \
    && pass "PROGRAMS=\"path/to/elf ...\" are /bin/NAME under make trace, run (ISO and -kernel) and debug; a bad list is refused before booting" \
    || { fail "PROGRAMS=\"path/to/elf ...\" are /bin/NAME under make trace, run (ISO and -kernel) and debug; a bad list is refused before booting"; cat "$LOGS/make_programs.txt"; }

echo "# in-kernel self-tests (QEMU, -kernel, 'selftest' on the command line)"
"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest --initrd "$PROGRAMS" --devices "edu pci-testdev" --quiet \
    --timeout 60 --console "$LOGS/selftest.log" > /dev/null 2> "$LOGS/selftest.err"
rc=$?
count_tap "selftest" "$LOGS/selftest.log" "$rc"
if [ "$rc" -eq 0 ] && grep -q '^selftest: [0-9]* passed, 0 failed' "$LOGS/selftest.log"; then
    pass "selftest run exits QEMU with 33"
else
    fail "selftest run exits QEMU with 33 ($(tail -n 1 "$LOGS/selftest.err"))"
fi

# The kernel people run has neither: asked for them, it says which image has them and fails.
for what in selftest bench; do
    "$QEMU_RUN" --kernel "$KERNEL" --append "$what" --expect-exit 35 --quiet --timeout 30 \
        --console "$LOGS/no_$what.log" > /dev/null 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "^$what: this kernel has no .*build/tracekern-test.elf" "$LOGS/no_$what.log"; then
        pass "'$what' on tracekern.elf says the tests are in tracekern-test.elf and exits with 35"
    else
        fail "'$what' on tracekern.elf says the tests are in tracekern-test.elf and exits with 35"
        show_log "$LOGS/no_$what.log"
    fi
done
if nm "$KERNEL" | grep -E ' t (selftest|bench)_' > "$LOGS/test_symbols_in_kernel.txt"; [ -s "$LOGS/test_symbols_in_kernel.txt" ]; then
    fail "tracekern.elf links no self-test or benchmark body ($(head -n 3 "$LOGS/test_symbols_in_kernel.txt" | tr '\n' ' '))"
elif nm "$TEST_KERNEL" | grep -qE ' t selftest_' && nm "$TEST_KERNEL" | grep -qE ' t bench_'; then
    pass "tracekern.elf links no self-test or benchmark body; tracekern-test.elf links both"
else
    fail "tracekern.elf links no self-test or benchmark body; tracekern-test.elf links both"
fi

echo "# crash reports"
"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=stack_overflow --expect-exit 35 --quiet \
    --timeout 30 --console "$LOGS/stack_overflow.log" > /dev/null 2>&1
if [ $? -eq 0 ]; then
    expect_all "kernel stack overflow ends in the double-fault task's report" \
        "$LOGS/stack_overflow.log" "*** double fault (through the task gate" \
        "kernel stack overflow: ESP" "EIP: 0008:" "EAX: " "Call Trace:" \
        "recurse_deeply" "repeats" "selftest_stack_overflow" "kmain" \
        "Kernel panic - not syncing: double fault"
else
    fail "kernel stack overflow: QEMU did not exit with 35 (a reset or hang instead?)"
    show_log "$LOGS/stack_overflow.log"
fi
"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=page_fault_report --expect-exit 35 --quiet \
    --timeout 30 --console "$LOGS/page_fault.log" > /dev/null 2>&1
if [ $? -eq 0 ]; then
    expect_all "unexpected page fault prints vector, CR2, registers and a symbolic backtrace" \
        "$LOGS/page_fault.log" "kernel exception 14: page fault" "at address 0xdead0000" \
        "(write, page not present, kernel mode)" "CR2: dead0000" "EIP: 0008:" \
        "write_to_bad_address+" "selftest_page_fault_report+" "Kernel panic"
else
    fail "page fault report: QEMU did not exit with 35"
    show_log "$LOGS/page_fault.log"
fi

"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=ftrace_graph_bad_frame --expect-exit 35 --quiet \
    --timeout 30 --console "$LOGS/graph_bad_frame.log" > /dev/null 2>&1
if [ $? -eq 0 ]; then
    expect_all "function_graph's frame-pointer check stops with a report, not a wrong return" \
        "$LOGS/graph_bad_frame.log" "function_graph: bad frame pointer returning from smash_saved_frame" \
        "found 0x1234" "cannot be trusted" "Kernel panic"
else
    fail "function_graph frame-pointer check: QEMU did not exit with 35"
    show_log "$LOGS/graph_bad_frame.log"
fi

"$QEMU_RUN" --kernel "$TEST_KERNEL" --append "ftrace=function_graph selftest=exception_recovery" \
    --quiet --timeout 60 --console "$LOGS/graph_catch.log" > /dev/null 2>&1 \
    && pass "a fault caught under function_graph leaves no stale return (exception_recovery)" \
    || { fail "a fault caught under function_graph leaves no stale return (exception_recovery)"; show_log "$LOGS/graph_catch.log"; }

"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=flight_recorder --expect-exit 35 --quiet \
    --timeout 60 --console "$LOGS/flight_recorder.log" --com2 "$LOGS/flight_recorder.com2" > /dev/null 2>&1
got=$(grep -cE 'tracing_mark_write: before [0-9]+$' "$LOGS/flight_recorder.com2")
if [ "$got" -eq 500 ] && grep -q '^# flight recorder: 500 events$' "$LOGS/flight_recorder.com2" \
    && grep -q 'double fault' "$LOGS/flight_recorder.log"; then
    pass "flight recorder: a double fault loses none of the 500 unread events"
else
    fail "flight recorder: a double fault loses none of the 500 unread events ($got arrived)"
    show_log "$LOGS/flight_recorder.log"
fi

"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=snapshot_icount_deltas --icount --quiet \
    --timeout 60 --console "$LOGS/snapshot_icount.log" > /dev/null 2>&1 \
    && pass "snapshot TSC deltas count guest instructions under -icount" \
    || { fail "snapshot TSC deltas count guest instructions under -icount"; show_log "$LOGS/snapshot_icount.log"; }
if "$QEMU_RUN" --kernel "$KERNEL" --quiet --timeout 30 --console "$LOGS/halt.log" \
    --com2 "$LOGS/halt.com2" --send-on-prompt 'echo 0 > options/stream_com2' \
    --send-on-prompt 'markers 300 kept' --send-on-prompt halt > /dev/null 2>&1 \
    && [ "$(grep -c 'tracing_mark_write: kept' "$LOGS/halt.com2")" -eq 300 ]; then
    pass "halt writes every unread event to COM2 before stopping"
else
    fail "halt writes every unread event to COM2 before stopping"
    show_log "$LOGS/halt.log"
fi

if "$QEMU_RUN" --kernel "$KERNEL" --devices edu --quiet --timeout 30 --console "$LOGS/halt_mmiotrace.log" \
    --com2 "$LOGS/halt_mmiotrace.com2" --send-on-prompt 'echo 0 > options/stream_com2' \
    --send-on-prompt 'echo mmiotrace > current_tracer' --send-on-prompt 'mmio read 00:04.0 0 0 4' \
    --send-on-prompt halt > /dev/null 2>&1 && [ "$(head -n 1 "$LOGS/halt_mmiotrace.com2")" = "VERSION 20070824" ] \
    && grep -q '^R 4 .* 0xfea00000 0x10000ed ' "$LOGS/halt_mmiotrace.com2"; then
    pass "an mmiotrace log written only by halt's flight recorder starts with its header"
else
    fail "an mmiotrace log written only by halt's flight recorder starts with its header"
    show_log "$LOGS/halt_mmiotrace.com2"
fi

"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=lock_order_inversion --expect-exit 35 --quiet \
    --timeout 30 --console "$LOGS/lock_order.log" > /dev/null 2>&1
if [ $? -eq 0 ]; then
    expect_all "lock debugging stops an AB/BA order inversion naming both locks" "$LOGS/lock_order.log" \
        "lock debug: CPU 0 takes st_lock_a" "while holding st_lock_b" "lock order inversion (AB/BA deadlock)" "Kernel panic"
else
    fail "lock debugging stops an AB/BA order inversion: QEMU did not exit with 35"; show_log "$LOGS/lock_order.log"
fi

echo "# SMP: every CPU QEMU gives is started and takes part (kernel/smp.h, docs/smp.md)"
# With 2 CPUs the SMP self-tests (tests/guest/st_smp.c, and st_tlb.c's TLB shootdown), with
# 4 the whole suite.
smp_tests=$(sed -n 's/^SELFTEST(\(\(smp\|tlb\)_[a-z_0-9]*\))$/\1/p' tests/guest/st_smp.c tests/guest/st_tlb.c |
    paste -sd, -)
for cpus in 2 4; do
    which=selftest=$smp_tests what="the SMP self-tests pass"
    [ "$cpus" -eq 4 ] && which=selftest what="every self-test passes"
    "$QEMU_RUN" --kernel "$TEST_KERNEL" --append "$which" --initrd "$PROGRAMS" --devices "edu pci-testdev" \
        --smp "$cpus" --quiet --timeout 90 --console "$LOGS/selftest_smp$cpus.log" > /dev/null 2>&1
    rc=$?
    count_tap "selftest_smp$cpus" "$LOGS/selftest_smp$cpus.log" "$rc"
    if [ "$rc" -eq 0 ] && grep -q '^selftest: [0-9]* passed, 0 failed' "$LOGS/selftest_smp$cpus.log"; then
        pass "$what with $cpus CPUs"
    else
        fail "$what with $cpus CPUs"
        show_log "$LOGS/selftest_smp$cpus.log"
    fi
    ids=$(seq -s ' ' 0 $((cpus - 1)))
    expect_all "$cpus CPUs come online, and their TSCs never go back across CPUs" \
        "$LOGS/selftest_smp$cpus.log" "smp: $cpus CPUs online (APIC ids $ids)" \
        "smp: CPU $((cpus - 1)) (APIC id $((cpus - 1))) up; TSC check: 1999 handoffs, none went back" \
        "smp_run_on_every_cpu: CPU $((cpus - 1)) ran it as pid 0 (swapper/$((cpus - 1)))"
done
"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=smp_stop_others --smp 4 --quiet --timeout 60 \
    --console "$LOGS/smp_stop.log" > /dev/null 2>&1 \
    && expect_all "smp_stop_others stops 3 CPUs spinning with interrupts off (NMI)" "$LOGS/smp_stop.log" \
        "smp_stop_others: 3 of 3 other CPUs stopped" "smp_stop_others: CPU 0 took 1 NMI after the stop and goes on" \
    || { fail "smp_stop_others stops 3 CPUs spinning with interrupts off (NMI)"; show_log "$LOGS/smp_stop.log"; }
"$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=smp_panic_on_other_cpu --smp 4 --expect-exit 35 \
    --quiet --timeout 60 --console "$LOGS/smp_panic.log" > /dev/null 2>&1 \
    && ! grep -q "did not stop" "$LOGS/smp_panic.log" \
    && expect_all "a panic on CPU 3 says so and stops the other CPUs first" "$LOGS/smp_panic.log" \
        "*** kernel panic on CPU 3: smp_panic_on_other_cpu: on purpose" \
        "Kernel panic - not syncing: smp_panic_on_other_cpu: on purpose (CPU 3 of 4)" \
    || { fail "a panic on CPU 3 says so and stops the other CPUs first"; show_log "$LOGS/smp_panic.log"; }
for cpus in 2 4; do
    "$QEMU_RUN" --kernel "$TEST_KERNEL" --append selftest=smp_panic_com2_held --smp "$cpus" --expect-exit 35 \
        --quiet --timeout 60 --console "$LOGS/smp_com2_held$cpus.log" --com2 "$LOGS/smp_com2_held$cpus.com2" > /dev/null 2>&1
    rc=$?
    got=$(grep -cE 'tracing_mark_write: held [0-9]+$' "$LOGS/smp_com2_held$cpus.com2" 2>/dev/null)
    if [ "$rc" -eq 0 ] && [ "$got" -eq 300 ] && grep -q '^# flight recorder: 300 events$' "$LOGS/smp_com2_held$cpus.com2" \
        && grep -q "Kernel panic - not syncing: smp_panic_com2_held: on purpose (CPU $((cpus - 1)) of $cpus)" "$LOGS/smp_com2_held$cpus.log"; then
        pass "a panic while a stopped CPU holds com2_lock still dumps all 300 unread events ($cpus CPUs)"
    else
        fail "a panic while a stopped CPU holds com2_lock still dumps all 300 unread events ($cpus CPUs, $got arrived)"
        show_log "$LOGS/smp_com2_held$cpus.log"
    fi
done
# named_selftests TESTS CPUS WHAT [QEMU_RUN OPTIONS...]: one boot of the test kernel
# running the comma-separated self-tests TESTS on CPUS CPUs; passes when every one passed.
named_selftests() {
    local tests=$1 cpus=$2 what=$3 name=${1%%,*}_smp$2 log rc
    shift 3
    log=$LOGS/$name.log
    "$QEMU_RUN" --kernel "$TEST_KERNEL" --append "selftest=$tests" --initrd "$PROGRAMS" \
        --devices "edu pci-testdev" --smp "$cpus" --quiet --console "$log" "$@" > /dev/null 2>&1
    rc=$?
    count_tap "$name" "$log" "$rc"
    if [ "$rc" -eq 0 ] && grep -q "^selftest: $(echo "$tests" | tr , '\n' | wc -l) passed, 0 failed" "$log"; then
        pass "$what"
    else
        fail "$what"; show_log "$log"
    fi
}
# Each CPU's local APIC timer (tests/guest/st_smp_local_timer.c) under -icount, where no
# tick is lost to the host: as many local timer interrupts as PIT ticks on every CPU.
for cpus in 1 2 4; do
    named_selftests smp_local_timer_registers,smp_local_timer_rate,smp_local_timer_icount "$cpus" \
        "every CPU's local APIC timer ticks with the PIT under -icount ($cpus CPUs)" --icount --timeout 60
done
# A device interrupt whose handler needs the kernel lock while another CPU holds it for
# 50 ms (tests/guest/st_smp.c): acknowledged first, so the PIT's ticks keep coming.
for cpus in 2 4; do
    named_selftests smp_irq_waits_for_kernel_lock_acknowledged "$cpus" \
        "an interrupt waiting for the kernel lock held elsewhere holds back no timer tick ($cpus CPUs, -icount)" \
        --icount --timeout 60
done
echo "# mmiotrace with every CPU online (issue 19): QEMU's edu device log is the oracle"
for n in 2 4; do
    what="mmiotrace, $n CPUs hammering one edu page: nothing lost, each CPU's accesses in QEMU's order"
    if tests/mmio_smp/mmio_smp.sh "$QEMU_RUN" "$TEST_KERNEL" "$LOGS" "$PROGRAMS" "$n" > "$LOGS/mmio_smp$n.txt" 2>&1; then
        pass "$what"
    else
        fail "$what"; show_log "$LOGS/mmio_smp$n.txt"
    fi
done
echo "# ftrace and kprobes on SMP: call sites patched under CPUs running them"
# Under QEMU's default multi-threaded TCG (a host thread per CPU) a patch that does not drop
# QEMU's stale translations shows within a second (docs/ftrace.md section 11). Each sync
# waits for every CPU's thread to be scheduled: on a 2-core host the 4-CPU ftrace run takes
# minutes, so it runs on single-threaded TCG (seconds), and the 2-CPU run checks the
# multi-threaded case.
for cpus in 1 2 4; do
    named_selftests ftrace_smp_stress "$cpus" \
        "ftrace: 1000 tracer switches while $cpus CPU(s) call traced functions, every event counted" \
        --timeout 600 $([ "$cpus" -eq 4 ] && echo -- -accel tcg,thread=single)
done
for cpus in 1 4; do
    named_selftests kprobes_smp_stress "$cpus" \
        "kprobes with $cpus CPU(s): probed functions called while probes are rearmed, every hit counted" \
        --timeout 600
done
if make --no-print-directory run SMP=9 > "$LOGS/make_smp9.log" 2>&1 < /dev/null; then
    fail "make run SMP=9 is refused (MAX_CPUS is 8)"
else
    expect_all "make run SMP=9 is refused (MAX_CPUS is 8)" "$LOGS/make_smp9.log" \
        "SMP=9: choose 1 to 8 CPUs"
fi

echo "# boot tests"
if "$QEMU_RUN" --iso "$ISO" --devices "edu pci-testdev" --send-on-prompt poweroff --quiet \
    --timeout 60 --console "$LOGS/boot_iso.log" > /dev/null 2>&1; then
    expect_all "ISO boots through GRUB to the shell prompt" "$LOGS/boot_iso.log" \
        "tracekern: booting (GRUB" "tracekern: ready." "tracekern> poweroff"
else
    fail "ISO boots through GRUB to the shell prompt and powers off"
    show_log "$LOGS/boot_iso.log"
fi
if "$QEMU_RUN" --kernel "$KERNEL" --send-on-prompt poweroff --quiet --timeout 30 \
    --console "$LOGS/boot_elf.log" > /dev/null 2>&1; then
    expect_all "ELF boots with -kernel to the shell prompt" "$LOGS/boot_elf.log" \
        "tracekern: booting (qemu)" "tracekern: ready." "tracekern> poweroff"
else
    fail "ELF boots with -kernel to the shell prompt and powers off"
    show_log "$LOGS/boot_elf.log"
fi

echo "# make debug: gdb attaches, loads the symbols and stops at kmain"
"$QEMU_RUN" --kernel "$KERNEL" --gdb --timeout 60 --quiet --expect-exit 0 > /dev/null 2>&1 &
qemu_pid=$!
sleep 1
timeout 60 gdb -nx -batch -x "$BUILD/gdbinit" -ex continue -ex 'print/x magic' \
    -ex kill > "$LOGS/gdb.log" 2>&1
kill "$qemu_pid" 2> /dev/null
wait "$qemu_pid" 2> /dev/null
expect_all "gdb stub: breakpoint at kmain hit with symbols" "$LOGS/gdb.log" \
    "Breakpoint 1, kmain (magic=" '= 0x2badb002'

echo "# console shell, typed interactively"
tests/shell/interactive.sh "$QEMU_RUN" "$KERNEL" "$LOGS" "$PROGRAMS" && pass "interactive shell session" \
    || fail "interactive shell session"
# Files and the terminal (issue 16): a program reads the console as a terminal.
tests/shell/tty.sh "$QEMU_RUN" "$KERNEL" "$LOGS" "$PROGRAMS" && pass "a program's terminal: canonical, raw, VTIME, poll, ^C" \
    || fail "a program's terminal: canonical, raw, VTIME, poll, ^C"
# The terminal's job control (issue 16): a background program of another user cannot read,
# reconfigure or take the foreground program's terminal.
tests/shell/hostile_tty.sh "$QEMU_RUN" "$KERNEL" "$LOGS" "$PROGRAMS" && pass "hostile_tty: a background spy gets no keystroke and no terminal" \
    || fail "hostile_tty: a background spy gets no keystroke and no terminal"

# Linux 6.1's user_events sample and selftests, unmodified, fetched and built at test time
# (issue 16): one ok/not ok line each.
echo "# Linux's own user_events clients (tests/linux/linux_clients.sh)"
tests/linux/linux_clients.sh "$QEMU_RUN" "$KERNEL" "$LOGS" "$PROGRAMS" > "$LOGS/linux_clients.txt" 2>&1
count_tap "linux_clients" "$LOGS/linux_clients.txt" 0
tests/shell/flood.sh "$QEMU_RUN" "$KERNEL" "$LOGS" "$PROGRAMS" \
    && pass "marker flood with the stream on: timer at its rate, ^C ends it, every event streamed or counted lost" \
    || fail "marker flood with the stream on: timer at its rate, ^C ends it, every event streamed or counted lost"
# Debian's busybox (issue 16): its ash typed at on the console.
make -s --no-print-directory build/busybox/busybox > "$LOGS/busybox_fetch.txt" 2>&1
tests/shell/busybox_interactive.sh "$QEMU_RUN" "$KERNEL" "$LOGS" "$PROGRAMS,build/busybox/busybox" \
    && pass "busybox ash typed at on the console" || fail "busybox ash typed at on the console"

echo "# boot scripts and make trace"
# One boot of a shell script and its checks; prints ok/not ok lines (counted afterwards)
# and leaves its logs as $LOGS/script_NAME[_smpN].*. The header "# smp: 1 2 4" lists the CPU
# counts a script boots with, once each (default: `make test SMP=N`'s N, else 1; logs of
# N > 1 get the suffix _smpN).
run_script() { # script smp
    local script=$1 smp=$2 base name expected label="" qemu_trace qemu_args modules extra
    local to_build builtin memory rc want_rc
    base=$(basename "$script" .script)
    name=$base
    expected=tests/shell/$base.expect
    if [ "$smp" != 1 ]; then label=" (SMP=$smp)"; name=${base}_smp$smp; fi
    # Header comments of a script: "# append: ..." (command line), "# devices: ..." (QEMU
    # devices), "# qemu-trace: yes" (log every MMIO access QEMU's models see), "# qemu: ARGS"
    # (more QEMU arguments), "# memory: MB" (guest RAM), "# smp: N ..." (CPUs), "# exit: N"
    # (the qemu_run status it must end with).
    qemu_trace=()
    grep -q '^# qemu-trace: yes' "$script" && qemu_trace=(--qemu-trace "$LOGS/script_$name.qemu")
    # "# qemu: ARGS": extra QEMU arguments (e.g. -cpu max), after qemu_run's own.
    read -r -a qemu_args <<< "$(sed -n 's/^# qemu: //p' "$script")"
    # "# programs: FILE ...": more programs, each /bin/NAME, as `make trace PROGRAMS=...`
    # gives them (checked the same way); a file under build/ is built first.
    modules=$PROGRAMS
    read -r -a extra <<< "$(sed -n 's/^# programs: //p' "$script")"
    if [ "${#extra[@]}" -gt 0 ]; then
        to_build=$(printf '%s\n' "${extra[@]}" | grep "^$BUILD/")
        [ -z "$to_build" ] || make -s --no-print-directory $to_build > "$LOGS/script_$name.programs" 2>&1
        builtin=$(echo "$PROGRAMS" | tr ',' '\n' | sed 's|.*/||' | tr '\n' ' ')
        if ! tools/check-programs.sh "$builtin" $((1 + $(echo "$builtin" | wc -w))) "${extra[@]}" \
            >> "$LOGS/script_$name.programs" 2>&1; then
            fail "boot script $base$label: its programs: $(tail -n 1 "$LOGS/script_$name.programs")"
            return
        fi
        modules=$modules,$(IFS=,; echo "${extra[*]}")
    fi
    # "# memory: MB": the guest's RAM (qemu_run's default is 128 MiB).
    memory=$(sed -n 's/^# memory: //p' "$script")
    "$QEMU_RUN" --kernel "$KERNEL" --initrd "$script,$modules" --append "$(sed -n 's/^# append: //p' "$script")" \
        --devices "$(sed -n 's/^# devices: //p' "$script")" "${qemu_trace[@]}" ${memory:+--memory "$memory"} \
        --quiet --timeout 60 --console "$LOGS/script_$name.log" --com2 "$LOGS/script_$name.com2" --smp "$smp" \
        ${qemu_args[@]+-- "${qemu_args[@]}"} > /dev/null 2>&1
    rc=$?
    want_rc=$(sed -n 's/^# exit: //p' "$script")
    if [ "$rc" -ne "${want_rc:-0}" ]; then
        fail "boot script $base$label: qemu_run exit $rc, expected ${want_rc:-0}"
        show_log "$LOGS/script_$name.log"
        return
    fi
    expect_lines "boot script $base$label" "$LOGS/script_$name.log" "$expected"
    # A script may come with a checker of its own for what fixed strings cannot say.
    if [ -x "tests/shell/$base.check" ]; then
        if "tests/shell/$base.check" "$LOGS/script_$name.log" "$LOGS/script_$name.com2" \
            "$LOGS/script_$name.qemu"; then
            pass "boot script $base$label: $base.check"
        else
            fail "boot script $base$label: $base.check"
        fi
    fi
}

# Two lanes on the host's cores: each boot is one QEMU, and the checks only read its logs.
# Results print in script order once both lanes are done.
jobs_list=()
for script in tests/shell/*.script; do
    for n in $(sed -n 's/^# smp: //p' "$script" | grep . || echo "${SMP:-1}"); do jobs_list+=("$script $n"); done
done
lane() { # lane-number
    local i=0 job script smp
    for job in "${jobs_list[@]}"; do
        if [ $((i % 2)) -eq "$1" ]; then
            read -r script smp <<< "$job"
            run_script "$script" "$smp" > "$LOGS/job_$i.txt" 2>&1
        fi
        i=$((i + 1))
    done
}
lane 0 & lane0=$!
lane 1
wait "$lane0"
for i in "${!jobs_list[@]}"; do
    cat "$LOGS/job_$i.txt"
    passed=$((passed + $(grep -c '^ok ' "$LOGS/job_$i.txt")))
    failed=$((failed + $(grep -c '^not ok ' "$LOGS/job_$i.txt")))
done
echo "# the documentation run as written: every console session of README.md and docs/*.md"
SECONDS=0
python3 tools/doctest.py --qemu-run "$QEMU_RUN" --kernel "$KERNEL" --iso "$ISO" --programs "$PROGRAMS" \
    --logs "$LOGS" README.md docs/*.md > "$LOGS/doctest.txt" 2>&1
count_tap "doctest" "$LOGS/doctest.txt" $?
echo "# doctest: ${SECONDS} s"
echo "# IPC logs from a memory dump of a hung kernel"
tests/ipc_dump/dump_test.sh "$BUILD" > "$LOGS/ipc_dump.txt" 2>&1
count_tap "ipc_dump" "$LOGS/ipc_dump.txt" $?

if tests/replay/replay.sh "$QEMU_RUN" "$KERNEL" "$BUILD/tools/mmio_replay" "$LOGS"; then
    pass "mmio_replay: a traced session replayed under mmiotrace makes the same writes and reads"
else
    fail "mmio_replay: a traced session replayed under mmiotrace makes the same writes and reads"
fi
rm -rf "$BUILD/trace-test"
if make --no-print-directory trace SCRIPT=tests/shell/basics.script OUT="$BUILD/trace-test" \
    > "$LOGS/make_trace.log" 2>&1 && [ -s "$BUILD/trace-test/console.log" ] \
    && grep -qx "to the host on COM2" "$BUILD/trace-test/trace_pipe.txt"; then
    pass "make trace succeeds, leaving console.log and COM2's stream in trace_pipe.txt"
else
    fail "make trace succeeds, leaving console.log and COM2's stream in trace_pipe.txt"
    show_log "$LOGS/make_trace.log"
fi
if make --no-print-directory trace SCRIPT=tests/shell/errors.script OUT="$BUILD/trace-test2" \
    > "$LOGS/make_trace_fail.log" 2>&1; then
    fail "make trace fails when a script line fails"
else
    pass "make trace fails when a script line fails"
fi

# record (issue 17, record): one boot of tests/record/sessions.script by `make record`, and
# each tracer's session as trace-cmd report, babeltrace2 and trace.json against the guest's
# own `cat trace` of the same buffer.
echo "# make record: each tracer's session in trace-cmd, babeltrace2 and trace.json, as the guest printed it"
tests/record/record_test.sh "$LOGS" > "$LOGS/record.txt" 2>&1
count_tap "record" "$LOGS/record.txt" $?

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
