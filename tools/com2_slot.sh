#!/usr/bin/env bash
# com2_slot.sh - runs a command whose COM2 output goes to a file no other run in this tree is
# writing: DIR/com2.txt, or while another run holds that one, DIR/com2-2.txt, -3, ... Each
# file has a lock (FILE.lock, flock) held for as long as the command runs.
# usage: com2_slot.sh DIR COMMAND [ARGS...]   (every argument @COM2@ becomes the file's name)
set -u
dir=$1
shift
n=1
com2=$dir/com2.txt
while :; do
    args=()
    for a in "$@"; do
        if [ "$a" = @COM2@ ]; then args+=("$com2"); else args+=("$a"); fi
    done
    flock -n -E 75 "$com2.lock" "${args[@]}"
    rc=$?
    [ "$rc" -ne 75 ] && exit "$rc" # 75: that file is taken; anything else is the command's
    n=$((n + 1))
    com2=$dir/com2-$n.txt
done
