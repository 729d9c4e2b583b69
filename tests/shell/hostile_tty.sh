#!/usr/bin/env bash
# hostile_tty.sh - a background program of another user against the terminal of the
# foreground one (user/programs/hostile_fd.c, modes spy and victim): `run -u 1000 hostile_fd
# spy &` waits until `run hostile_fd victim` has the terminal, then tries to read it, to
# clear ISIG, resize, flush and make itself the foreground (each refused), and keeps reading.
# A line typed to the victim must reach it whole, the ^C typed next must still end it, and
# the kernel's shell reads what is typed to it afterwards: the spy never gets one byte.
# usage: hostile_tty.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list)
set -u
source "$(dirname "$0")/typed_checks.sh"
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/hostile_tty.log
"$qemu_run" --kernel "$kernel" --initrd "$programs" --quiet --timeout 60 --console "$log" \
    --send-on-prompt 'run -u 1000 hostile_fd spy &' \
    --send-on-prompt 'run hostile_fd victim' \
    --send-on-output 'hostile_fd spy: attacks done' $'the secret line\r' \
    --send-on-output 'hostile_fd victim: waiting for' $'\x03' \
    --send-on-prompt 'echo shell reads its own line' \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?
checks_begin
want 'ok 1 - spy: a background read while a program has the terminal -> EIO' "a background read"
want 'ok 2 - spy: FIONREAD -> EIO' "FIONREAD from the background"
want 'ok 3 - spy: TCSETS without ISIG -> EIO' "TCSETS from the background (SIGTTOU ignored, another session)"
want 'ok 4 - spy: TIOCSWINSZ -> EIO' "TIOCSWINSZ from the background"
want 'ok 5 - spy: TCFLSH -> EIO' "TCFLSH from the background"
want 'ok 6 - spy: TIOCSPGRP to its own group -> ENOTTY' "TIOCSPGRP from another session"
want 'ok 7 - spy: the foreground group is still the program'"'"'s' "the foreground group"
want 'hostile_fd victim: read 16: the secret line' "the foreground program gets every byte typed to it"
grep -Eq '^\[[0-9]+\] hostile_fd: Interrupt \(signal 2\)$' <<< "$text" ||
    problems+=("^C did not end the foreground program (no '[PID] hostile_fd: Interrupt (signal 2)')")
want 'shell reads its own line' "the kernel's shell after the program"
grep -q 'stole byte' <<< "$text" && problems+=("the background spy read bytes typed to others")
grep -q 'victim: the read returned' <<< "$text" && problems+=("^C came to the victim as data")
checks_report
[ "${#problems[@]}" -eq 0 ] || { echo "#   --- last lines of $log:"; tail -n 20 "$log" | sed 's/^/#   | /'; }
[ "${#problems[@]}" -eq 0 ]
