#!/usr/bin/env bash
# test_mmio_tools.sh - runs mmio_annotate and mmio_replay on a hand-written mmiotrace log
# (sample.log: edu and pci-testdev sessions, an HPET mapping no BAR holds, an UNKNOWN record,
# the extension's port, interrupt and DMA lines, a loss record and one malformed line) and
# compares what they print, exactly, with the
# expected files next to it.
#
# usage: tests/tools/test_mmio_tools.sh [MMIO_ANNOTATE MMIO_REPLAY]
#        (default: build/tools/mmio_annotate build/tools/mmio_replay)
#
# Prints one "ok - ..." or "not ok - ..." line per check (a diff, prefixed with "#   ",
# under a failing one) and exits non-zero if any check failed. To accept a deliberate change
# of the output, regenerate the expected files as the commands below make them, and read the
# diff before committing it.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
annotate=${1:-$root/build/tools/mmio_annotate}
replay=${2:-$root/build/tools/mmio_replay}
regs=("$root/tools/regs/edu.regs" "$root/tools/regs/pci-testdev.regs")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

for tool in "$annotate" "$replay"; do
    if [ ! -x "$tool" ]; then
        echo "not ok - mmio tools: $tool is not built"
        exit 1
    fi
done

pass() { echo "ok - mmio tools: $1"; }
fail() { failed=$((failed + 1)); echo "not ok - mmio tools: $1"; }

# Passes if the file holds exactly what was expected; otherwise fails with a diff.
same() { # name expected-file actual-file
    if cmp -s "$2" "$3"; then
        pass "$1"
    else
        fail "$1"
        diff -u "$2" "$3" | head -n 40 | sed 's/^/#   /'
    fi
}

# Passes if the exit status is the one expected.
status() { # name expected actual
    if [ "$2" -eq "$3" ]; then pass "$1"; else fail "$1 (exit status $3, expected $2)"; fi
}

# The log and its expected outputs; the replay is run from the log's folder, as a user would.
log=$here/sample.log

"$annotate" "${regs[@]}" < "$log" > "$tmp/annotated" 2> "$tmp/annotate.err"
status "mmio_annotate exits 1 when the log has a malformed line" 1 $?
same "mmio_annotate names registers and decodes bit fields" "$here/sample.annotated" "$tmp/annotated"
same "mmio_annotate reports the malformed line on stderr" "$here/sample.annotate.err" "$tmp/annotate.err"

# A capture from a serial port ends its lines with \r\n; they must stay so.
sed 's/$/\r/' "$log" > "$tmp/crlf.log"
sed 's/$/\r/' "$here/sample.annotated" > "$tmp/crlf.expected"
"$annotate" "${regs[@]}" < "$tmp/crlf.log" > "$tmp/crlf.annotated" 2> /dev/null
same "mmio_annotate keeps \\r\\n line endings" "$tmp/crlf.expected" "$tmp/crlf.annotated"

grep -v '^R 4 5.121$' "$log" > "$tmp/clean.log"
"$annotate" "${regs[@]}" < "$tmp/clean.log" > /dev/null 2> "$tmp/clean.err"
status "mmio_annotate exits 0 on a log without malformed lines" 0 $?
same "mmio_annotate is silent on a log without malformed lines" /dev/null "$tmp/clean.err"

printf 'device broken 1234:5678\nbits 0x20 0 COMPUTING\n' > "$tmp/broken.regs"
"$annotate" "$tmp/broken.regs" < "$log" > /dev/null 2> "$tmp/broken.err"
rc=$?
echo "mmio_annotate: $tmp/broken.regs:2: bits: no reg at 0x20 in BAR 0 (write the reg line first)" \
    > "$tmp/broken.expected"
status "mmio_annotate exits 2 on a bad register description" 2 $rc
same "mmio_annotate names the file and line of a bad description" "$tmp/broken.expected" "$tmp/broken.err"

(cd "$here" && "$replay" sample.log) > "$tmp/replay" 2> "$tmp/replay.err"
status "mmio_replay exits 1 when the log has a malformed line" 1 $?
same "mmio_replay writes a boot script of the writes" "$here/sample.replay" "$tmp/replay"
same "mmio_replay warns of what it skips" "$here/sample.replay.err" "$tmp/replay.err"

(cd "$here" && "$replay" --check-reads sample.log) > "$tmp/check" 2> "$tmp/check.err"
status "mmio_replay --check-reads exits 1 when the log has a malformed line" 1 $?
same "mmio_replay --check-reads adds the reads and their expected values" \
    "$here/sample.check-reads.replay" "$tmp/check"
same "mmio_replay --check-reads warns of what it skips" "$here/sample.check-reads.err" "$tmp/check.err"

# Every script line must be one tracekern's shell takes: printable ASCII, at most 255 bytes.
if LC_ALL=C grep -qn -e '[^ -~]' -e '^.\{256,\}' "$tmp/replay" "$tmp/check"; then
    fail "replay scripts hold only lines the console shell accepts"
    LC_ALL=C grep -n -e '[^ -~]' -e '^.\{256,\}' "$tmp/replay" "$tmp/check" | sed 's/^/#   /'
else
    pass "replay scripts hold only lines the console shell accepts"
fi

"$replay" "$tmp/clean.log" > /dev/null 2> /dev/null
status "mmio_replay exits 0 on a log without malformed lines" 0 $?
"$replay" > /dev/null 2>&1
status "mmio_replay without a log is a usage error" 2 $?
"$replay" "$tmp/no-such.log" > /dev/null 2>&1
status "mmio_replay of a missing log fails" 2 $?

echo "# mmio tools: $failed failed"
[ "$failed" -eq 0 ]
