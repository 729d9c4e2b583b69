#!/usr/bin/env bash
# interactive.sh - types at the console as a person would: line editing, ^C, history, and
# checks that keystrokes arrived by interrupt, and that ^C ends a program running in the
# foreground. usage: interactive.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list)
set -u
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/interactive.log

# "run spin" then ^C in one go: the shell reads the line, starts spin, and the ^C waits in
# the input queue for the foreground wait to see it.
"$qemu_run" --kernel "$kernel" --initrd "$programs" --quiet --timeout 30 --console "$log" \
    --send-on-prompt $'ech\x7fho typed' \
    --send-on-prompt $'garbage\x03' \
    --send-on-prompt $'\x1b[A' \
    --send-on-prompt $'nosuch' \
    --send-on-prompt 'cat /proc/interrupts' \
    --send-on-prompt $'run spin\r\x03' \
    --send-on-prompt 'ps' \
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

if [ ${#problems[@]} -eq 0 ]; then
    exit 0
fi
for p in "${problems[@]}"; do echo "#   $p"; done
echo "#   --- last lines of $log:"
tail -n 30 "$log" | sed 's/^/#   | /'
exit 1
