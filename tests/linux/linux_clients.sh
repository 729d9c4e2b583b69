#!/usr/bin/env bash
# linux_clients.sh - Linux's own user_events clients, unmodified, in the guest (issue 16):
# 6.1's samples/user_events/example.c built against tracekern's C library and against
# glibc, and its selftests ftrace_test and dyn_test (tests/linux/linux.mk builds them from
# Debian's linux-source-6.1, fetched at test time). Prints "ok - ..." / "not ok - ..."
# lines for tests/run_all.sh, which counts them.
#
# usage: linux_clients.sh QEMU_RUN KERNEL LOGDIR PROGRAMS
#
# example.c registers "test u32 count" and, each time Enter is pressed, writes an event if
# the status page says someone listens. The event is made first through dynamic_events
# and enabled, so the sample's first check already finds it enabled; then ^C ends it
# (it loops forever, as on Linux). The COM2 stream is turned off first, so that `cat trace`
# still holds the records. The selftests print TAP and end with
# "# PASSED: N / N tests passed" or "# FAILED: ...": every TEST must pass, or be skipped
# with a reason listed in docs/user_events.md ("Linux's own clients"): the harness counts
# a skip as passed, so each "ok N # SKIP" line is checked against that list here.
set -u
qemu_run=$1 kernel=$2 logs=$3 programs=$4
cd "$(dirname "$0")/../.."
BUILD=build

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; }

# Named as files, so that make builds them holding the build lock (see the Makefile).
if ! make -s --no-print-directory $BUILD/user/linux/linux_example $BUILD/user/linux/linux_example_glibc \
    $BUILD/user/linux/ftrace_test $BUILD/user/linux/dyn_test > "$logs/linux_clients_build.txt" 2>&1; then
    not_ok "Linux 6.1's user_events clients fetched and built (see $logs/linux_clients_build.txt)"
    sed 's/^/#   /' "$logs/linux_clients_build.txt" | tail -n 5
    exit 0
fi
ok "Linux 6.1's example.c, ftrace_test.c and dyn_test.c built unmodified (gcc -m32 -static, and example.c against tracekern's library)"

# One boot per sample: type the commands, press Enter when it asks, ^C after it wrote.
run_example() { # name program
    local name=$1 prog=$2 log=$logs/linux_$1.log
    "$qemu_run" --kernel "$kernel" --initrd "$programs,$BUILD/user/linux/$prog" --quiet --timeout 60 \
        --console "$log" \
        --send-on-prompt 'echo 0 > options/stream_com2' \
        --send-on-prompt "echo 'u:test u32 count' > dynamic_events" \
        --send-on-prompt 'echo 1 > events/user_events/test/enable' \
        --send-on-prompt "run $prog" \
        --send-on-output 'Press enter to check status...' $'\r' \
        --send-on-output 'Something was attached, wrote data' $'\x03' \
        --send-on-prompt 'cat trace' \
        --send-on-prompt 'echo 0 > events/user_events/test/enable' \
        --send-on-prompt "echo '!u:test' >> dynamic_events" \
        --send-on-prompt 'poweroff' > /dev/null 2>&1
    local rc=$? clean
    clean=$(tr -d '\r' < "$log")
    if [ "$rc" -eq 0 ] && grep -qx 'Something was attached, wrote data' <<< "$clean" &&
        grep -q ' test: count=0$' <<< "$clean"; then
        ok "$name: example.c saw the event enabled, wrote it, and the trace has 'test: count=0'"
    else
        not_ok "$name: example.c saw the event enabled and wrote it (qemu_run status $rc)"
        { tail -n 8 "$log"; echo; } | sed '/^$/d; s/^/#   | /'
    fi
}
run_example example_tracekern_libc linux_example
run_example example_glibc linux_example_glibc

# The names of the tests of selftest $1 that the harness skipped, from the console on stdin:
# kselftest's "ok N # SKIP REASON" line names no test; the "#  RUN  NAME ..." before it does.
skipped_tests() { # program
    awk -v t="run $1" 'index($0, t) { on = 1 } !on { next }
                       /^#  RUN / { name = $3 } /^ok [0-9]+ # SKIP/ { print name }
                       /^# (PASSED|FAILED)/ { exit }'
}
# True when docs/user_events.md lists test $2 of selftest $1 as skipped, with a reason:
# a line "- skipped: `PROGRAM` `TEST`: REASON" (section 11, "Linux's own clients").
skip_documented() { # program test
    grep -Eq "^ *- skipped: \`$1\` \`$2\`: .*[a-z].*[a-z]" docs/user_events.md
}

# The selftests: one boot runs both; each must end with all of its tests passed. They read
# the `trace` file before and after a write, as on a Linux with no consumer of the buffer:
# COM2's stream (a consumer, like `cat trace_pipe > file &`) is off for them, or a tick
# between the write and the read could take the event.
log=$logs/linux_selftests.log
"$qemu_run" --kernel "$kernel" --initrd "$programs,$BUILD/user/linux/ftrace_test,$BUILD/user/linux/dyn_test" \
    --append trace_options=nostream_com2 --quiet --timeout 120 --console "$log" \
    --send-on-prompt 'run ftrace_test' --send-on-prompt 'run dyn_test' \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?
clean=$(tr -d '\r' < "$log")
for t in ftrace_test dyn_test; do
    # The harness's last line for this program: "# PASSED: 6 / 6 tests passed." or FAILED.
    summary=$(awk -v t="run $t" 'index($0, t) { on = 1 } on && /^# (PASSED|FAILED|Totals)/ { print; if (/^# (PASSED|FAILED)/) exit }' <<< "$clean")
    # The harness counts a skipped test as passed ("ok N # SKIP REASON", named only by the
    # "#  RUN  NAME ..." line before it): each skip must be listed with its reason.
    undocumented=""
    for name in $(skipped_tests "$t" <<< "$clean"); do
        skip_documented "$t" "$name" || undocumented="$undocumented $name"
    done
    if [ -n "$undocumented" ]; then
        not_ok "Linux 6.1's $t: skipped without a reason in docs/user_events.md:$undocumented"
    elif grep -Eq '^# PASSED: ([0-9]+) / \1 tests passed' <<< "$summary"; then
        ok "Linux 6.1's $t: ${summary#\# }"
    else
        not_ok "Linux 6.1's $t passes in the guest (${summary:-no summary; qemu_run status $rc})"
        { grep -E '^(not ok|#  |exec|run:)' <<< "$clean" | head -n 12; echo; } | sed '/^$/d; s/^/#   | /'
    fi
done
