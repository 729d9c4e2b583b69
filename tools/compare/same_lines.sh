# same_lines.sh - sourced by the side-by-side scripts (abi_diff.sh, pcidev_diff.sh): one
# verdict on what Linux 6.1 and tracekern printed.
#
# same_lines TOOL WHAT LINUX_LINES TRACEKERN_LINES LOGDIR: fails (exit 1) when either file
# is empty (a kernel printed none of the lines looked for) or when they differ (the diff is
# printed, < Linux, > tracekern); otherwise says how many lines were the same.
same_lines() {
    local tool=$1 what=$2 linux=$3 tracekern=$4 logs=$5
    if [ ! -s "$linux" ] || [ ! -s "$tracekern" ]; then
        echo "$tool: a kernel printed none of $what; see the logs in $logs" >&2
        exit 1
    fi
    if diff "$linux" "$tracekern"; then
        echo "$tool: $what: the same $(wc -l < "$tracekern") lines on Linux 6.1 and tracekern"
    else
        echo "$tool: $what differ (< Linux 6.1, > tracekern); logs in $logs" >&2
        exit 1
    fi
}
