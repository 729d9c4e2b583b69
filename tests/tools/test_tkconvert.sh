#!/usr/bin/env bash
# test_tkconvert.sh - the capture converter (build/tools/tkconvert) end to end, on captures
# tkconvert_capture.py writes (the guest's format files, two CPUs' EVENTS frames of ring
# records of a known session, 17 lost events; and the same damaged): --check's summary, --unpack's tree, --json checked
# by check_trace_json.py (valid, slices nest, the calls and markers where they were), and
# --ctf read by Debian's babeltrace2 (every event with its fields, the lost events reported),
# and --tracedat read by trace-cmd report.
#
# usage: tests/tools/test_tkconvert.sh [TKCONVERT]
# Prints one "ok - ..." or "not ok - ..." line per check and exits non-zero if one failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tool=${1:-$root/build/tools/tkconvert}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "ok - tkconvert: $1"; }
fail() { failed=$((failed + 1)); echo "not ok - tkconvert: $1"; }
# Passes when the file has the line (exactly); otherwise fails showing the file.
has_line() { # name file line
    if grep -qxF -- "$3" "$2"; then
        pass "$1"
    else
        fail "$1"
        echo "#   no line: $3"
        sed 's/^/#   | /' "$2" | head -n 40
    fi
}

[ -x "$tool" ] || { echo "not ok - tkconvert: $tool is not built"; exit 1; }
python3 "$here/tkconvert_capture.py" "$tmp/good.cap" || exit 1
python3 "$here/tkconvert_capture.py" "$tmp/damaged.cap" --damage || exit 1

# --session beyond the capture's sessions: refused, saying how many there are
"$tool" --session 2 --check "$tmp/good.cap" > /dev/null 2> "$tmp/session.txt"
rc=$?
if [ $rc -eq 1 ] && grep -q -- "--session 2, but the capture holds 1 session$" "$tmp/session.txt"; then
    pass "--session 2 of a one-session capture is refused (exit 1, says it holds 1)"
else
    fail "--session 2 of a one-session capture is refused (got $rc)"
    sed 's/^/#   | /' "$tmp/session.txt"
fi

# --check
"$tool" --check "$tmp/good.cap" > "$tmp/check.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "--check of a whole capture exits 0" || fail "--check of a whole capture exits 0 (got $rc)"
has_line "--check counts frames by type" "$tmp/check.txt" "frames: START 1, CLOCK 1, FILE 22, EVENTS 4, RETRACT 1, END 1"
has_line "--check counts cpu0's pages, events, lost events" "$tmp/check.txt" "cpu0: 2 pages, 14 events, 17 lost"
has_line "--check counts cpu1's" "$tmp/check.txt" "cpu1: 1 pages, 3 events, 0 lost"
has_line "--check finds no damage in a whole capture" "$tmp/check.txt" "damage found: 0"

"$tool" --check "$tmp/damaged.cap" > "$tmp/dcheck.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "--check of a damaged capture still exits 0" || fail "--check of a damaged capture exits 0 (got $rc)"
has_line "a bad frame check is reported with its offset and size" "$tmp/dcheck.txt" \
    "damage: at byte 11409: frame check mismatch (488 bytes skipped)"
has_line "a truncated last frame is reported" "$tmp/dcheck.txt" \
    "damage: at byte 12188: frame header cut off by the end of the capture (13 bytes skipped)"
# The damaged EVENTS frame names cpu0 in its whole header: a gap before cpu0's kept page;
# the frame cut off by the end could be either CPU's: a gap after each CPU's last page.
has_line "what is whole is kept; the damaged frames are lost events of unknown count" "$tmp/dcheck.txt" \
    "cpu0: 1 pages, 1 events, 17 lost, lost events of unknown count at 2 damaged frames"
has_line "a frame cut off by the end marks the other CPU too" "$tmp/dcheck.txt" \
    "cpu1: 1 pages, 3 events, 0 lost, lost events of unknown count at 1 damaged frames"
"$tool" --json "$tmp/damaged.json" "$tmp/damaged.cap" > /dev/null 2>&1
n=$(grep -c '"name":"lost events".*"args":{"cpu":1,"count":null}' "$tmp/damaged.json")
m=$(grep -c '"name":"lost events".*"args":{"cpu":0,"count":null}' "$tmp/damaged.json")
if [ "$n" = 1 ] && [ "$m" = 2 ]; then
    pass "--json: damaged frames are \"lost events\" of unknown count in the CPUs' streams"
else
    fail "--json: damaged frames are \"lost events\" of unknown count (cpu0 $m, cpu1 $n; want 2, 1)"
fi
if command -v babeltrace2 >/dev/null; then
    "$tool" --ctf "$tmp/dctf" "$tmp/damaged.cap" > /dev/null 2>&1
    babeltrace2 "$tmp/dctf" > /dev/null 2> "$tmp/dbt.err"
    if [ "$(grep -c "discarded" "$tmp/dbt.err")" = 3 ]; then
        pass "babeltrace2 reports events discarded at each damaged frame of each CPU"
    else
        fail "babeltrace2 reports events discarded at each damaged frame of each CPU"
        sed 's/^/#   | /' "$tmp/dbt.err" | head -n 10
    fi
fi

# A format 1 capture (an older kernel's, magic TKCF): refused in one line, exit 1
printf 'TKCF\001\000\000\000\020\000\000\000' > "$tmp/v1.cap"
"$tool" --check "$tmp/v1.cap" > "$tmp/v1.txt" 2>&1
rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$tmp/v1.txt")" = "tkconvert: $tmp/v1.cap: a format 1 capture (magic TKCF): record it again with this tree's kernel" ]; then
    pass "a format 1 capture is refused with one line (exit 1)"
else
    fail "a format 1 capture is refused with one line (exit 1; got $rc)"
    sed 's/^/#   | /' "$tmp/v1.txt"
fi

head -c 1000 /dev/urandom > "$tmp/noise.cap"
"$tool" --check "$tmp/noise.cap" > "$tmp/noise.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "nothing usable in the capture" "$tmp/noise.txt" \
    && pass "a capture with nothing usable exits 1 and says so" \
    || { fail "a capture with nothing usable exits 1 (got $rc)"; sed 's/^/#   | /' "$tmp/noise.txt"; }

# --unpack
"$tool" --unpack "$tmp/tree" "$tmp/good.cap" > "$tmp/unpack.txt" 2>&1
t=$tmp/tree/sys/kernel/tracing
if [ -f "$t/events/ftrace/print/format" ] && [ -f "$tmp/tree/proc/kallsyms" ] &&
    [ "$(stat -c %s "$t/per_cpu/cpu0/trace_pipe_raw")" = 8192 ] &&
    [ "$(stat -c %s "$t/per_cpu/cpu1/trace_pipe_raw")" = 4096 ] &&
    cmp -s "$t/events/ftrace/print/format" "$here/tkconvert_formats/ftrace/print/format"; then
    pass "--unpack lays the capture out as the guest's file system"
else
    fail "--unpack lays the capture out as the guest's file system"
    (cd "$tmp/tree" && find . | sed 's/^/#   | /')
fi
# --unpack into a DIR already holding a capture: refused (exit 2), nothing stale mixed in
"$tool" --unpack "$tmp/tree" "$tmp/good.cap" > "$tmp/unpack2.txt" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "exists and is not empty" "$tmp/unpack2.txt"; then
    pass "--unpack refuses a directory that is not empty (exit 2)"
else
    fail "--unpack refuses a directory that is not empty (exit 2; got $rc)"
    sed 's/^/#   | /' "$tmp/unpack2.txt"
fi

# --json
"$tool" --json "$tmp/trace.json" "$tmp/good.cap" > "$tmp/json.txt" 2>&1
if python3 "$here/check_trace_json.py" "$tmp/trace.json" > "$tmp/slices.txt" 2>&1; then
    pass "--json writes valid JSON whose slices nest"
else
    fail "--json writes valid JSON whose slices nest"
    sed 's/^/#   | /' "$tmp/slices.txt"
fi
# metadata: sh, init, and the idle task: its process and its track on each of the 2 CPUs
has_line "--json counts" "$tmp/slices.txt" "events 19 slices 5 instants 7 begins 0 metadata 7"
if grep -q '"torn' "$tmp/trace.json"; then
    fail "--json: the frame a RETRACT withdrew is not shown"
else
    pass "--json: the frame a RETRACT withdrew is not shown"
fi
has_line "--json: a function_graph call is a slice" "$tmp/slices.txt" "slice do_work 1.190 0.300"
has_line "--json: a leaf call is a slice inside it" "$tmp/slices.txt" "slice helper 1.240 0.050"
has_line "--json: a call seen by raw_syscalls and syscalls is one slice, closed by the first exit" \
    "$tmp/slices.txt" "slice write 1.000 0.600"
has_line "--json: syscalls events alone give a slice" "$tmp/slices.txt" "slice getpid 1.150 0.100"
has_line "--json: raw_syscalls alone give a slice named after the call" "$tmp/slices.txt" "slice getpid 2.200 0.100"
for want in '"name":"hello \"world\"","cat":"ftrace","ph":"i"' \
    '"name":"lost events","cat":"lost","ph":"i","s":"g","ts":268440.456' \
    '"name":"test","cat":"user_events","ph":"i"' '"count":42' \
    '"name":"mmiotrace_rw","cat":"ftrace","ph":"i"' '"opcode":[139,64,4]' \
    '"name":"thread_name","ph":"M","pid":7,"tid":7,"args":{"name":"sh"}'; do
    if grep -qF -- "$want" "$tmp/trace.json"; then
        pass "--json has $want"
    else
        fail "--json has $want"
    fi
done

# --ctf, read by babeltrace2
if ! command -v babeltrace2 >/dev/null; then
    fail "babeltrace2 is installed (tools/install-deps.sh)"
else
    "$tool" --ctf "$tmp/ctf" "$tmp/good.cap" > "$tmp/ctf.txt" 2>&1 || fail "--ctf exits 0"
    babeltrace2 "$tmp/ctf" > "$tmp/bt.txt" 2> "$tmp/bt.err"
    rc=$?
    n=$(grep -c '^\[' "$tmp/bt.txt")
    if [ $rc -eq 0 ] && [ "$n" = 17 ]; then
        pass "babeltrace2 reads the CTF trace: all 17 events"
    else
        fail "babeltrace2 reads the CTF trace: all 17 events (exit $rc, $n events)"
        sed 's/^/#   | /' "$tmp/bt.err" | head -n 20
    fi
    has_line "babeltrace2: a user event with its typed field" "$tmp/bt.txt" \
        "[00:00:00.000002100] (+0.000000100) user_events:test: { cpu_id = 0 }, { common_flags = 1, common_preempt_count = 0, common_pid = 7, count = 42 }"
    has_line "babeltrace2: a marker's text is a string, addresses are hex" "$tmp/bt.txt" \
        "[00:00:00.000001800] (+0.000000100) ftrace:print: { cpu_id = 0 }, { common_flags = 1, common_preempt_count = 0, common_pid = 7, ip = 0xC0100300, buf = \"hello \\\"world\\\"\\n\" }"
    has_line "babeltrace2: arrays are arrays" "$tmp/bt.txt" \
        "[00:00:00.000001000] (+?.?????????) raw_syscalls:sys_enter: { cpu_id = 0 }, { common_flags = 1, common_preempt_count = 0, common_pid = 7, id = 4, args = [ [0] = 1, [1] = 32768, [2] = 5, [3] = 0, [4] = 0, [5] = 0 ] }"
    if grep -q "Tracer discarded 17 events between \[00:00:00.000002300\] and \[00:00:00.268440456\]" "$tmp/bt.err"; then
        pass "babeltrace2 reports the 17 lost events where they were"
    else
        fail "babeltrace2 reports the 17 lost events where they were"
        sed 's/^/#   | /' "$tmp/bt.err" | head -n 5
    fi
fi

# Format files made to break the CTF metadata: names sanitised, clashes avoided, a format
# with a field named twice refused.
if command -v babeltrace2 >/dev/null; then
    python3 "$here/tkconvert_capture.py" "$tmp/hostile.cap" --hostile || exit 1
    "$tool" --ctf "$tmp/hctf" "$tmp/hostile.cap" > "$tmp/hctf.txt" 2>&1
    babeltrace2 "$tmp/hctf" > "$tmp/hbt.txt" 2> "$tmp/hbt.err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c '^\[' "$tmp/hbt.txt")" = 2 ] &&
        grep -qF 'we_ird_sys:ev_il___event__: { cpu_id = 0 }, { common_pid = 3, __buf_length = 3, buf = [ [0] = 0x1, [1] = 0x2, [2] = 0x3 ], buf_length = -5 }' "$tmp/hbt.txt" &&
        grep -qF 'x:bare: { cpu_id = 0 }, { }' "$tmp/hbt.txt" &&
        grep -qF 'events/x/dup/format: line 6: a field name given twice; its events are left out' "$tmp/hctf.txt"; then
        pass "hostile format files: babeltrace2 still reads the CTF metadata"
    else
        fail "hostile format files: babeltrace2 still reads the CTF metadata (exit $rc)"
        sed 's/^/#   | /' "$tmp/hbt.txt" "$tmp/hbt.err" "$tmp/hctf.txt" | head -n 20
    fi
fi

# Times that go back between pages: the CTF stream's times never do (babeltrace2 stops at
# a stream whose time goes back).
if command -v babeltrace2 >/dev/null; then
    python3 "$here/tkconvert_capture.py" "$tmp/back.cap" --backwards || exit 1
    "$tool" --ctf "$tmp/bctf" "$tmp/back.cap" > "$tmp/bctf.txt" 2>&1
    babeltrace2 "$tmp/bctf" > "$tmp/bbt.txt" 2> "$tmp/bbt.err"
    rc=$?
    times=$(sed -n 's/^\[00:00:00\.\([0-9]*\)\].*buf = "\(.\)".*/\1\2/p' "$tmp/bbt.txt" | tr '\n' ' ')
    if [ $rc -eq 0 ] && [ "$times" = "000005000a 000006000b 000006000c 000007000d " ]; then
        pass "pages whose times go back: babeltrace2 reads every event, times raised in order"
    else
        fail "pages whose times go back: babeltrace2 reads every event (exit $rc: $times)"
        sed 's/^/#   | /' "$tmp/bbt.err" | head -n 5
    fi
fi

# --tracedat, read by trace-cmd (tracedat.c: trace-cmd restore)
if ! command -v trace-cmd >/dev/null; then
    fail "trace-cmd is installed (tools/install-deps.sh)"
else
    "$tool" --tracedat "$tmp/trace.dat" "$tmp/good.cap" > "$tmp/tracedat.txt" 2>&1 ||
        { fail "--tracedat exits 0"; sed 's/^/#   | /' "$tmp/tracedat.txt"; }
    trace-cmd report "$tmp/trace.dat" > "$tmp/report.txt" 2>&1
    n=$(grep -cE '^ +[a-z]+-[0-9]+ +\[00[01]\]' "$tmp/report.txt")
    if [ "$n" = 17 ] && grep -qxF "CPU:0 [17 EVENTS DROPPED]" "$tmp/report.txt"; then
        pass "trace-cmd report reads --tracedat's file: 17 events and the 17 dropped"
    else
        fail "trace-cmd report reads --tracedat's file: 17 events and the 17 dropped ($n events)"
        sed 's/^/#   | /' "$tmp/report.txt" | head -n 30
    fi
    ls /tmp | grep -q "^tkconvert\.$" && fail "--tracedat left its temporary directory"
fi

exit $((failed > 0))
