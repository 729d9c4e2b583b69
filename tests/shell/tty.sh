#!/usr/bin/env bash
# tty.sh - types at a program that reads the console as a terminal (user/programs/tty_test.c):
# a canonical line edited with DEL, a line killed with ^U, ^D at the start of a line (end of
# file), raw mode with ISIG off where ^C is the byte 03, VTIME's timeout, poll() for a
# line, and ^C during a blocking read ending the program; then the shell's own line editor
# works as before. usage: tty.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list)
set -u
source "$(dirname "$0")/typed_checks.sh"
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/tty.log
"$qemu_run" --kernel "$kernel" --initrd "$programs" --quiet --timeout 60 --console "$log" \
    --send-on-prompt 'run tty_test' \
    --send-on-output 'tty_test: type a line' $'abx\x7fc\r' \
    --send-on-output 'tty_test: type a killed line' $'gone\x15kept\r' \
    --send-on-output 'tty_test: type ^D' $'\x04' \
    --send-on-output 'tty_test: raw, 3 bytes' $'x\x03y' \
    --send-on-output 'tty_test: poll' $'z\r' \
    --send-on-output 'tty_test: blocking read, ^C ends it' $'\x03' \
    --send-on-prompt 'echo shell ok' \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?
checks_begin
want 'tty_test: read 4: 61 62 63 0a' "DEL erases a byte of a canonical line (abx DEL c -> abc)"
want 'tty_test: read 5: 6b 65 70 74 0a' "^U kills the line typed before it"
want 'tty_test: read 0:' "^D at the start of a line is end of file"
want 'tty_test: read 3: 78 03 79' "raw mode with ISIG off reads ^C as the byte 03"
want 'tty_test: read 0:' "VMIN 0, VTIME 2: read returns 0 after the timeout"
want 'tty_test: poll says 1, revents 0x1' "poll waits for a line"
want 'tty_test: read 2: 7a 0a' "the polled line is read"
grep -Eq '^\[[0-9]+\] tty_test: Interrupt \(signal 2\)$' <<< "$text" ||
    problems+=("^C did not end the blocking read with SIGINT (no '[PID] tty_test: Interrupt (signal 2)')")
grep -qx '\^C' <<< "$text" || problems+=("the terminal did not echo the ^C on a line of its own")
grep -q 'tty_test: the read returned' <<< "$text" && problems+=("the blocking read returned instead")
grep -q 'abxc' <<< "$text" && problems+=("DEL was not applied to the echo")
want 'shell ok' "the shell's line editor after the program"
checks_report
[ "${#problems[@]}" -eq 0 ]
