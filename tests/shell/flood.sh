#!/usr/bin/env bash
# flood.sh - the kernel under a flood of trace events with the COM2 stream on: the timer
# keeps its rate, ^C ends the flood within two ticks, and every event is either streamed or
# counted as lost. usage: flood.sh QEMU_RUN KERNEL LOGDIR PROGRAMS (an -initrd list)
#
# irq_rate (user/programs/irq_rate.c) runs in the background and reads the timer's count in
# /proc/interrupts against CLOCK_MONOTONIC over four 500 ms intervals of guest time while the
# shell writes markers as fast as it can; when it is done, ^C is typed into the flood.
#
# The rate must be 85..110 per second, against TICK_HZ = 100: the count and the clock are
# read a system call apart, so each interval edge can be a tick off (2 in 50: 4%), and QEMU
# without -icount may deliver a PIT interrupt late on a busy host. A starved tick (34/s when
# the stream's tick share was 256 events, whatever they cost) is far outside. The ^C latency
# is the kernel's own: from the COM1 interrupt that brought the key to the command's end.
set -u
source "$(dirname "$0")/typed_checks.sh"
qemu_run=$1 kernel=$2 logs=$3 programs=$4
log=$logs/flood.log com2=$logs/flood.com2
FLOOD=100000000 # more than the flood can write before irq_rate is done: ^C must end it

"$qemu_run" --kernel "$kernel" --initrd "$programs" --quiet --timeout 120 --console "$log" \
    --com2 "$com2" \
    --send-on-prompt 'echo 1 > options/stream_com2' \
    --send-on-prompt 'run irq_rate 500 4 &' \
    --send-on-prompt "markers $FLOOD flood" \
    --send-on-output 'irq_rate: done' $'\x03' \
    --send-on-prompt 'cat /proc/interrupts' \
    --send-on-prompt 'poweroff' > /dev/null 2>&1
rc=$?

checks_begin
rates=$(tr -d '\r' < "$log" | sed -n 's|^irq_rate: timer +[0-9]* in [0-9]* us: \([0-9]*\)\.[0-9]/s$|\1|p')
[ "$(echo "$rates" | grep -c .)" -eq 4 ] || problems+=("irq_rate did not report 4 intervals")
for r in $rates; do
    [ "$r" -ge 85 ] && [ "$r" -le 110 ] || problems+=("timer at $r/s during the flood (want 85..110)")
done
written=$(tr -d '\r' < "$log" | sed -n "s|^markers: wrote \([0-9]*\) of $FLOOD\$|\1|p")
[ -n "$written" ] || problems+=("^C did not end the flood (no 'markers: wrote N of $FLOOD')")
latency=$(tr -d '\r' < "$log" | sed -n 's|^markers: interrupted by ^C, stopped \([0-9]*\)\.[0-9]* ms after the key$|\1|p')
if [ -z "$latency" ]; then
    problems+=("no 'markers: interrupted by ^C' line")
elif [ "$latency" -ge 20 ]; then
    problems+=("the flood stopped $latency ms after ^C (want less than two 10 ms ticks)")
fi
grep -Eq '^ +0: +[0-9]+ .*timer' "$log" || problems+=("the shell did not answer after the flood")
# Every marker written reached COM2 or is counted in a LOST line.
streamed=$(grep -c 'tracing_mark_write: flood [0-9]*$' "$com2")
lost=$(awk '/\[LOST [0-9]+ EVENTS\]/ { for (i = 1; i <= NF; i++) if ($i == "[LOST") s += $(i + 1) } END { print s + 0 }' "$com2")
[ -n "$written" ] && [ $((streamed + lost)) -ne "$written" ] &&
    problems+=("$written markers written, but $streamed streamed + $lost counted lost")

if [ ${#problems[@]} -eq 0 ]; then
    echo "# flood: timer at $(echo $rates | tr ' ' '/') per s, ^C stopped it in $latency ms;" \
        "$written markers: $streamed streamed, $lost lost"
    exit 0
fi
checks_report
echo "#   --- last lines of $log:"
tail -n 20 "$log" | sed 's/^/#   | /'
exit 1
