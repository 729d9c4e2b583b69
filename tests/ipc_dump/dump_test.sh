#!/usr/bin/env bash
# dump_test.sh - IPC logs outlive a hung kernel: what the live `log` file printed before
# the hang is what tools/ipc_log_extract finds again in a dump of the machine's memory.
#
# usage: tests/ipc_dump/dump_test.sh [BUILD_DIR]   (default: build; needs tracekern.elf,
#        tools/qemu_run and tools/ipc_log_extract in it)
#
# Each run boots the kernel with a boot script that logs COUNT lines into the context
# "demo" (two pages, so the oldest lines are dropped: the dump must show the wrap too),
# runs IPC traffic between two user programs (ipc_ping and ipc_pong: every message goes into
# the context "ipc", which wraps as well), prints `cat /sys/kernel/debug/ipc_logging/demo/log` and `.../ipc/log`, then
# runs `hang`: interrupts off, spinning. When the
# console shows hang's line, qemu_run has QEMU's monitor stop the guest, save its physical
# memory and quit. The extracted "demo" and "ipc" contexts must equal the live lines exactly,
# and every event of every context (demo, ipc, pci, serial) must be a string event as
# Qualcomm's ipc_logging.c defines it, the only kind Qualcomm's ipc_logging.py reads. This
# is done twice: with a raw dump (pmemsave) and with an ELF core (dump-guest-memory).
#
# Prints one "ok - ..." or "not ok - ..." line per check (with a diff or the console's end
# under a failing one) and exits non-zero if any check failed. Logs stay in
# BUILD_DIR/test-logs/ipc_dump/.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
logs=$build/test-logs/ipc_dump
count=300
failed=0
mkdir -p "$logs"

pass() { echo "ok - ipc dump: $1"; }
fail() { failed=$((failed + 1)); echo "not ok - ipc dump: $1"; }
show() { sed 's/^/#   | /' | tail -n 25; }

for f in tracekern.elf tools/qemu_run tools/ipc_log_extract user/ipc_ping user/ipc_pong; do
    if [ ! -x "$build/$f" ] && [ ! -f "$build/$f" ]; then
        echo "not ok - ipc dump: $build/$f is not built"
        exit 1
    fi
done

rounds=700 # the ipc context (16 pages) holds about 480 round trips
cat > "$logs/session.txt" <<EOF
ipc_log_demo $count
run ipc_pong &
run ipc_ping $rounds
sleep 0.1
cat /sys/kernel/debug/ipc_logging/demo/log
cat /sys/kernel/debug/ipc_logging/ipc/log
hang
EOF

# Boots, dumps into $1, and compares; $2 names the dump kind in the messages.
check_dump() { # dump-file kind
    local dump=$1 kind=$2 name
    name=$(basename "$dump")
    rm -f "$dump"
    if ! "$build/tools/qemu_run" --kernel "$build/tracekern.elf" \
        --initrd "$logs/session.txt,$build/user/ipc_ping,$build/user/ipc_pong" \
        --timeout 120 --console "$logs/$name.console" --quiet --expect-exit 0 \
        --monitor-dump "$dump" --dump-on "hang: spinning with interrupts off" \
        > /dev/null 2> "$logs/$name.qemu_run"; then
        fail "$kind: boot, log, hang and dump"
        show < "$logs/$name.qemu_run"
        return
    fi
    pass "$kind: boot, log, hang and dump ($(( $(stat -c %s "$dump") >> 20 )) MiB)"

    compare_context "$kind" "$name" "$dump" demo
    compare_context "$kind" "$name" "$dump" ipc
    check_all_string_events "$kind" "$name" "$dump"
}

# Every event of every context in the dump is a string event as Qualcomm's IPC logging layout
# defines it (type 2: TIMESTAMP, QTIMER, BYTE_ARRAY), the only kind its ipc_logging.py
# decodes: ipc_log_extract, over all contexts, notes no other event. An ELF core is noted as
# what that parser cannot read, a raw dump is not.
check_all_string_events() { # kind dump-name dump-file
    local kind=$1 name=$2 dump=$3 out=$logs/$name.all err=$logs/$name.all.err
    "$build/tools/ipc_log_extract" "$dump" > "$out" 2> "$err"
    local contexts summary
    contexts=$(sed -n 's/^=== \([^:]*\): .*/\1/p' "$out" | tr '\n' ' ')
    summary=$(grep -E '^ipc_log_extract: .*: [0-9]+ contexts, [0-9]+ events, 0 problems$' "$err")
    if [ "$contexts" = "demo ipc pci serial " ] && [ -n "$summary" ] &&
        ! grep -q 'not string events' "$err"; then
        pass "$kind: every event in every context is a string event of the original layout (${summary#*: *: })"
    else
        fail "$kind: every event in every context is a string event of the original layout (contexts: $contexts)"
        show < "$err"
    fi
    local elf_note=false want
    grep -q "is an ELF core; Qualcomm's ipc_logging.py cannot read it" "$err" && elf_note=true
    case $dump in
    *.elf) want=true ;;
    *) want=false ;;
    esac
    if [ "$elf_note" = "$want" ]; then
        pass "$kind: ipc_log_extract says whether Qualcomm's parser can read this dump"
    else
        fail "$kind: ipc_log_extract says whether Qualcomm's parser can read this dump"
        show < "$err"
    fi
}

# Compares one context's live lines (what `cat /sys/kernel/debug/ipc_logging/CTX/log` printed, between its
# command line and the next prompt) with what ipc_log_extract finds of it in the dump.
compare_context() { # kind dump-name dump-file context
    local kind=$1 name=$2 dump=$3 ctx=$4 lines
    local live=$logs/$name.$ctx.live events=$logs/$name.$ctx.events err=$logs/$name.$ctx.err
    awk -v cmd="tracekern> cat /sys/kernel/debug/ipc_logging/$ctx/log" '$0 == cmd { on = 1; next }
        /^tracekern> / { on = 0 } on' "$logs/$name.console" > "$live"
    if ! "$build/tools/ipc_log_extract" -c "$ctx" "$dump" > "$events.all" 2> "$err"; then
        fail "$kind: ipc_log_extract finds the $ctx context"
        show < "$err"
        return
    fi
    tail -n +2 "$events.all" > "$events"
    lines=$(wc -l < "$live")
    local shape_ok=false
    case $ctx in
    demo) [ "$lines" -gt 0 ] && [ "$lines" -lt "$count" ] &&
              tail -n 1 "$live" | grep -q "demo line $((count - 1)) of $count\$" && shape_ok=true ;;
    ipc) # wrapped too: more round trips than the pages hold, the newest ones all there
        local replies
        replies=$(grep -c '\[ipc_reply\] call: .* = [0-9]* [0-9]* [0-9]* 1 16 1 16$' "$live")
        [ "$replies" -gt 300 ] && [ "$replies" -lt "$rounds" ] && shape_ok=true ;;
    esac
    if $shape_ok && cmp -s "$live" "$events"; then
        pass "$kind: the extracted $ctx log is the live one ($lines lines)"
    else
        fail "$kind: the extracted $ctx log is the live one ($lines lines live)"
        diff "$live" "$events" | show
    fi
    if grep -q ' 0 problems$' "$err"; then
        pass "$kind: no damage reported in $ctx"
    else
        fail "$kind: no damage reported in $ctx"
        show < "$err"
    fi
}

check_dump "$logs/memory.raw" "raw memory (pmemsave)"
check_dump "$logs/memory.elf" "ELF core (dump-guest-memory)"
rm -f "$logs/memory.raw" "$logs/memory.elf" # 128 MiB each
[ "$failed" -eq 0 ]
