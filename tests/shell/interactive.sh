#!/usr/bin/env bash
# interactive.sh - types at the console as a person would: line editing with the arrow keys,
# Tab completion, lines typed ahead while a command runs, a line too long,
# Home, End and Delete, ^C, history, and checks that keystrokes arrived by interrupt, and that
# ^C ends a program running in the foreground and every shell command that loops or waits. usage: interactive.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list)
set -u
source "$(dirname "$0")/typed_checks.sh"
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/interactive.log

# "run spin" then ^C in one go: the shell reads the line, starts spin, and the ^C waits in
# the input queue for the foreground wait to see it. The commands that loop or wait get their
# ^C once their line has been echoed (--send-on-output), while they run.
LEFT=$'\x1b[D' HOME=$'\x1b[H' END=$'\x1bOF' DEL=$'\x1b[3~' UP=$'\x1b[A' DOWN=$'\x1b[B'
TAB=$'\t'
# Type-ahead: lines typed while a command runs (triggered by its output, which the typed
# line's echo does not contain: 'wait'ing prints waiting) run after it. One of them is 600
# bytes, more than the old 256-byte input queue held; a 4100-byte line is too long.
LONG600=$(printf 'L%.0s' $(seq 600)) LONG4100=$(printf 'x%.0s' $(seq 4100))
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
    --send-on-prompt 'sleep 1000' --send-on-output 'sleep 1000' $'echo flushed\r\x03' \
    --send-on-prompt 'cat trace_pipe' --send-on-output 'cat trace_pipe' $'\x03' \
    --send-on-prompt 'markers 100000000 > /dev/null' --send-on-output 'markers 100000000 > /dev/null' $'\x03' \
    --send-on-prompt "echo 'wait'ing; sleep 1" --send-on-output 'waiting' $'echo ahead\r' \
    --send-on-prompt "echo 'nap'ping; sleep 0.5" --send-on-output 'napping' "echo $LONG600"$'\r' \
    --send-on-prompt "echo $LONG4100" \
    --send-on-prompt "ec${TAB}tabbed" \
    --send-on-prompt "echo tracing_o${TAB}" \
    --send-on-prompt "ls /pro${TAB}meminf${TAB}" \
    --send-on-prompt 'echo still here' \
    --send-on-prompt "m${TAB}${TAB}"$'\x15'"echo listed" \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?

checks_begin
# Backspace: "ech" DEL "ho typed" is "echo typed"; history: Up runs it a second time.
[ "$(grep -c '^typed$' "$log")" -eq 2 ] || problems+=("'echo typed' did not run twice (backspace or history broken)")
grep -q '\^C' "$log" || problems+=("^C was not echoed")
grep -q 'garbage: command not found' "$log" && problems+=("a line cancelled by ^C was run")
grep -q 'nosuch: command not found (type' "$log" || problems+=("unknown command gave no error")
grep -Eq '^ +4: +[1-9][0-9]* .*COM1 console' "$log" || problems+=("no COM1 interrupts counted")
grep -Eq '^\[[0-9]+\] spin: Interrupt \(signal 2\)' "$log" || problems+=("^C did not end the foreground program")
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
# ^C flushes what was typed before it, as Linux does.
grep -qx 'flushed' "$log" && problems+=("a line typed before ^C ran (^C must flush it)")
# Type-ahead: typed during sleep, run after it, once, in order.
clean=$text
grep -qx 'ahead' <<< "$clean" || problems+=("a line typed during 'sleep 1' did not run after it")
[ "$(grep -nx -e waiting -e ahead <<< "$clean" | cut -d: -f2 | tr '\n' ' ')" = 'waiting ahead ' ] ||
    problems+=("'echo ahead' did not run once, after sleep")
grep -qx "$LONG600" <<< "$clean" || problems+=("a 600-byte line typed during 'sleep 0.5' did not run")
# A line past 4096 bytes: one bell, one error, nothing run.
grep -qx 'shell: line too long (at most 4096 characters); nothing run' <<< "$clean" ||
    problems+=("a 4100-byte line gave no 'line too long' error")
grep -q 'xxxxxxxxxx$' <<< "$(grep -v '^tracekern> ' <<< "$clean")" &&
    problems+=("a 4100-byte line was run")
[ "$(grep "^tracekern> echo xxxx" <<< "$clean" | tr -cd '\a' | wc -c)" -eq 1 ] ||
    problems+=("a 4100-byte line did not ring the bell exactly once")
# Tab: a command, a file, a directory then a file in it, and the list of several.
grep -qx 'tabbed' <<< "$clean" || problems+=("Tab did not complete 'ec' to 'echo '")
grep -qx 'tracing_on' <<< "$clean" || problems+=("Tab did not complete the file name 'tracing_o'")
grep -qx 'meminfo' <<< "$clean" || problems+=("Tab did not complete '/pro' to '/proc/' and then 'meminf'")
grep -qx 'markers   mkdir     mmio      modprobe' <<< "$clean" ||
    problems+=("a second Tab did not list the commands starting with 'm'")
grep -qx 'listed' <<< "$clean" || problems+=("the line after a Tab listing did not run")

if [ ${#problems[@]} -eq 0 ]; then
    exit 0
fi
checks_report
echo "#   --- last lines of $log:"
tail -n 30 "$log" | sed 's/^/#   | /'
exit 1
