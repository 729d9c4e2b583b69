#!/usr/bin/env bash
# interactive.sh - types at the console as a person would: line editing with the arrow keys,
# Home, End and Delete, ^C, history, and checks that keystrokes arrived by interrupt, and that
# ^C ends a program running in the foreground and every shell command that loops or waits. usage: interactive.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list)
set -u
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/interactive.log

# "run spin" then ^C in one go: the shell reads the line, starts spin, and the ^C waits in
# the input queue for the foreground wait to see it. The commands that loop or wait get their
# ^C once their line has been echoed (--send-on-output), while they run.
LEFT=$'\x1b[D' HOME=$'\x1b[H' END=$'\x1bOF' DEL=$'\x1b[3~' UP=$'\x1b[A' DOWN=$'\x1b[B'
"$qemu_run" --kernel "$kernel" --initrd "$programs" --quiet --timeout 60 --console "$log" \
    --send-on-prompt $'ech\x7fho typed' \
    --send-on-prompt $'garbage\x03' \
    --send-on-prompt "$UP" \
    --send-on-prompt $'nosuch' \
    --send-on-prompt 'cat /proc/interrupts' \
    --send-on-prompt "echo wrld$LEFT$LEFT${LEFT}o" \
    --send-on-prompt "cho home${HOME}e$END!" \
    --send-on-prompt "echo dxel$LEFT$LEFT$LEFT$DEL" \
    --send-on-prompt $'echo ctrl\x1b[1;5Cok' \
    --send-on-prompt $'\x1becho esc' \
    --send-on-prompt "$UP$UP$DOWN" \
    --send-on-prompt $'run spin\r\x03' \
    --send-on-prompt 'ps' \
    --send-on-prompt 'ipc_log_demo 100000000' --send-on-output 'ipc_log_demo 100000000' $'\x03' \
    --send-on-prompt 'sleep 1000' --send-on-output 'sleep 1000' $'\x03' \
    --send-on-prompt 'cat trace_pipe' --send-on-output 'cat trace_pipe' $'\x03' \
    --send-on-prompt 'markers 100000000 > /dev/null' --send-on-output 'markers 100000000 > /dev/null' $'\x03' \
    --send-on-prompt 'echo still here' \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?

problems=()
[ "$rc" -eq 0 ] || problems+=("QEMU did not exit through poweroff (qemu_run status $rc)")
# Backspace: "ech" DEL "ho typed" is "echo typed"; history: Up runs it a second time.
[ "$(grep -c '^typed$' "$log")" -eq 2 ] || problems+=("'echo typed' did not run twice (backspace or history broken)")
grep -q '\^C' "$log" || problems+=("^C was not echoed")
grep -q 'garbage: command not found' "$log" && problems+=("a line cancelled by ^C was run")
grep -q 'nosuch: command not found (type' "$log" || problems+=("unknown command gave no error")
grep -Eq '^ +4 +[1-9][0-9]* +COM1 console' "$log" || problems+=("no COM1 interrupts counted")
grep -Eq '^\[[0-9]+\] spin: killed by \^C \(SIGINT\)' "$log" || problems+=("^C did not end the foreground program")
grep -Eq '^ +[0-9]+ +[a-z]+ +[0-9]+ +[0-9]+ +[0-9.]+ spin' "$log" && problems+=("spin still listed by ps after ^C")
# The line editor at the real console: Left and insert, Home/End, Delete, an unknown
# sequence, a stray ESC, and Up Up Down through history.
grep -qx 'world' "$log" || problems+=("Left + typing did not insert in the middle ('echo world')")
grep -qx 'home!' "$log" || problems+=("Home/End did not move the cursor ('echo home!')")
grep -qx 'del' "$log" || problems+=("Delete did not remove the character under the cursor ('echo del')")
grep -qx 'ctrlok' "$log" || problems+=("ESC [ 1 ; 5 C was not consumed whole ('echo ctrlok')")
grep -q 'cho: command not found' "$log" && problems+=("a stray ESC swallowed the next key")
[ "$(grep -cx 'esc' "$log")" -eq 2 ] || problems+=("'echo esc' did not run twice (Up Up Down broken)")
# ^C ends every command that loops or waits, while it runs.
grep -Eq '^ipc_log_demo: wrote [0-9]+ of 100000000' "$log" || problems+=("^C did not stop ipc_log_demo")
grep -q '^ipc_log_demo: interrupted by \^C' "$log" || problems+=("ipc_log_demo did not report its ^C")
grep -q '^sleep: interrupted by \^C' "$log" || problems+=("^C did not stop sleep")
grep -q '^markers: interrupted by \^C' "$log" || problems+=("^C did not stop a redirected markers")
grep -qx 'still here' "$log" || problems+=("the shell did not come back after ^C ended cat trace_pipe")

if [ ${#problems[@]} -eq 0 ]; then
    exit 0
fi
for p in "${problems[@]}"; do echo "#   $p"; done
echo "#   --- last lines of $log:"
tail -n 30 "$log" | sed 's/^/#   | /'
exit 1
