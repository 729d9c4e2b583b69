#!/usr/bin/env bash
# record_test.sh LOGS - `make record` of tests/record/sessions.script (one boot, one session
# per tracer), then each session's capture converted and compared with the guest's own
# `cat trace` of the same buffer: trace-cmd report of trace.dat, babeltrace2 of ctf/, and
# trace.json (tests/record/compare.py). One TAP line per check.
set -u
cd "$(dirname "$0")/../.."
LOGS=$1
OUT=$LOGS/record
mkdir -p "$LOGS"
HERE=tests/record
TKCONVERT=build/tools/tkconvert
# The sessions of sessions.script, in order: the guest prints one `cat trace` each.
SESSIONS=(nop function function_graph mmiotrace snapshot syscalls lost)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }

rm -rf "$OUT"
if make --no-print-directory record SCRIPT=$HERE/sessions.script OUT="$OUT" > "$LOGS/make_record.log" 2>&1 \
    && [ -s "$OUT/trace.dat" ] && [ -s "$OUT/ctf/metadata" ] && [ -s "$OUT/trace.json" ] \
    && [ -s "$OUT/console.log" ]; then
    ok "make record leaves capture.tkc, trace.dat, ctf/, trace.json and console.log"
else
    not_ok "make record leaves capture.tkc, trace.dat, ctf/, trace.json and console.log"
    tail -n 20 "$LOGS/make_record.log" | sed 's/^/#   /'
    echo "1..$n"
    exit 1
fi
if "$TKCONVERT" --check "$OUT/capture.tkc" > "$OUT/check.txt" 2>&1 && grep -qx 'damage found: 0' "$OUT/check.txt"; then
    ok "the capture is whole (tkconvert --check: damage found: 0)"
else
    not_ok "the capture is whole (tkconvert --check: damage found: 0)"
    sed 's/^/#   /' "$OUT/check.txt"
fi

# trace.dat's header describes the guest (i386: a 4-byte long, 4096-byte pages), not the
# host that ran trace-cmd restore (tools/tkconvert/tracedat.c).
trace-cmd dump --summary "$OUT/trace.dat" > "$OUT/dump.txt" 2>&1
if grep -qE '^\s*4\s+\[Bytes in a long\]' "$OUT/dump.txt" && grep -qE '^\s*4096\s+\[Page size, bytes\]' "$OUT/dump.txt" \
    && grep -qE '^\s*[67]\s+\[Version\]' "$OUT/dump.txt"; then
    ok "trace.dat (version $(awk '/\[Version\]/ { print $1 }' "$OUT/dump.txt")) says the guest's long is 4 bytes and its pages 4096"
else
    not_ok "trace.dat says the guest's long is 4 bytes and its pages 4096 (trace-cmd dump --summary)"
    head -n 8 "$OUT/dump.txt" | sed 's/^/#   /'
fi

# The captures, one per session (the first is the boot's, before the script turned the
# stream off), and the guest's `cat trace` texts, one per session.
mkdir -p "$OUT/sessions"
captures=$("$TKCONVERT" --check "$OUT/capture.tkc" | sed -n 's/^sessions: \([0-9]*\).*/\1/p')
[ -n "$captures" ] || captures=0
texts=$(python3 $HERE/guest_sections.py "$OUT/console.log" "$OUT/sessions") || texts=0
if [ "$texts" -eq "${#SESSIONS[@]}" ] && [ "$captures" -gt "$texts" ]; then
    ok "$texts sessions printed by the guest, $captures captures on COM2"
else
    not_ok "${#SESSIONS[@]} sessions printed by the guest (got $texts), one capture more on COM2 (got $captures)"
    echo "1..$n"
    exit 1
fi
first=$((captures - texts))
for i in "${!SESSIONS[@]}"; do
    name=${SESSIONS[$i]}
    dir=$OUT/sessions/$name
    guest=$OUT/sessions/guest-$((i + 1)).txt
    mkdir -p "$dir"
    if ! "$TKCONVERT" --session $((first + i + 1)) --unpack "$dir/unpacked" --tracedat "$dir/trace.dat" \
        --ctf "$dir/ctf" --json "$dir/trace.json" "$OUT/capture.tkc" > "$dir/tkconvert.txt" 2>&1; then
        not_ok "$name: tkconvert converts its capture"
        sed 's/^/#   /' "$dir/tkconvert.txt"
        continue
    fi
    for tool in tracecmd ctf json; do
        case $tool in
            tracecmd) what="trace-cmd report of trace.dat" input=("$dir/trace.dat") ;;
            ctf) what="babeltrace2 of ctf/" input=("$dir/ctf" "$dir/unpacked/proc/kallsyms") ;;
            json) what="trace.json" input=("$dir/trace.json") ;;
        esac
        if python3 $HERE/compare.py "$tool" "$guest" "${input[@]}" > "$dir/compare-$tool.txt" 2>&1; then
            ok "$name: $what shows the guest's events ($(tail -n 1 "$dir/compare-$tool.txt"))"
        else
            not_ok "$name: $what shows the guest's events"
            sed 's/^/#   /' "$dir/compare-$tool.txt" | tail -n 12
        fi
    done
done
echo "1..$n"
