#!/usr/bin/env bash
# busybox_interactive.sh - busybox's ash as an interactive shell on the console, typed at as
# a person would: line editing (Left and insert, Backspace, history with Up), the tracing
# files read and written from ash, ^C ending a program ash runs in the foreground, and
# `exit` back to the kernel's shell. What each line prints is what it prints on Linux.
# usage: busybox_interactive.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list, with
# build/busybox/busybox among them)
set -u
source "$(dirname "$0")/typed_checks.sh"
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/busybox_interactive.log

# The stream is off so that the marker stays in the buffer for `busybox cat trace`.
# ash's prompt is PS1's default "\w \$ ": the directory, then "# " for root. Each line for
# ash is typed when the prompt has been printed again (--send-on-output ' # ').
# The ^C: ash gives the terminal to the job it starts; the job prints "sleeping" once it
# runs in the foreground (the line typed says sl""eeping, so its echo is no trigger), and
# only then is ^C typed, so it reaches the job and not ash.
LEFT=$'\x1b[D' UP=$'\x1b[A' BS=$'\x7f'
"$qemu_run" --kernel "$kernel" --initrd "$programs" --quiet --timeout 90 --console "$log" \
    --send-on-prompt 'echo 0 > options/stream_com2' \
    --send-on-prompt 'run busybox sh' \
    --send-on-output ' # ' "echo wrld$LEFT$LEFT${LEFT}o"$'\r' \
    --send-on-output ' # ' "echo typx${BS}ed"$'\r' \
    --send-on-output ' # ' "$UP"$'\r' \
    --send-on-output ' # ' $'echo hi from ash > /sys/kernel/tracing/trace_marker\r' \
    --send-on-output ' # ' $'echo "markers: $(busybox cat /sys/kernel/tracing/trace | busybox grep -c "hi from ash")"\r' \
    --send-on-output ' # ' $'busybox ls /sys/kernel/tracing | busybox grep -x trace_marker\r' \
    --send-on-output ' # ' $'busybox sh -c \'echo sl""eeping; exec busybox sleep 10\'\r' \
    --send-on-output 'sleeping' $'\x03' \
    --send-on-output ' # ' $'echo "sleep ended with $?"\r' \
    --send-on-output ' # ' $'exit\r' \
    --send-on-prompt 'echo back in the kernel shell' \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?

checks_begin
clean=$(sed 's/\x1b\[[0-9;]*[A-Za-z]//g' <<< "$text")
grep -q ' # ' <<< "$clean" || problems+=("ash printed no prompt")
grep -qx 'world' <<< "$clean" || problems+=("Left + typing did not insert in the middle ('echo world')")
[ "$(grep -cx 'typed' <<< "$clean")" -eq 2 ] ||
    problems+=("'echo typed' did not run twice (Backspace or Up in ash's history broken)")
grep -qx 'markers: 1' <<< "$clean" || problems+=("the marker ash wrote is not in trace once (busybox cat | grep -c)")
grep -qx 'trace_marker' <<< "$clean" || problems+=("busybox ls /sys/kernel/tracing did not list trace_marker")
grep -qx 'sleep ended with 130' <<< "$clean" ||
    problems+=("^C did not end 'busybox sleep 10' with SIGINT (\$? is not 130)")
grep -qx 'back in the kernel shell' <<< "$clean" || problems+=("exit did not return to the kernel's shell")

if [ ${#problems[@]} -eq 0 ]; then
    exit 0
fi
checks_report
echo "#   --- last lines of $log:"
tail -n 30 "$log" | sed 's/^/#   | /'
exit 1
