# cpus.sh - sourced by the .check scripts whose output depends on how many CPUs the session
# booted with (run_all.sh's "# smp: N" header): the count the kernel printed at boot
# ("smp: N CPUs online"), and the "#P:" of every trace header checked against it.

# The number of CPUs the kernel brought up, from the console log's text; empty if the
# boot line is missing.
cpus_online() { # log-text
    sed -nE 's/^(\[ *[0-9.]+\] )?smp: ([0-9]+) CPUs? online.*/\2/p' <<< "$1" | head -n 1
}

# Prints a problem and fails unless the log has at least `least` trace headers with "#P:"
# and each says #P:N, N the number of CPUs online (Linux's count of per-CPU buffers).
headers_count_cpus() { # log-text least
    local n headers bad
    n=$(cpus_online "$1")
    [ -n "$n" ] || { echo "no 'smp: N CPUs online' line in the log"; return 1; }
    headers=$(grep -oE '#P:[0-9]+' <<< "$1")
    bad=$(grep -vx "#P:$n" <<< "$headers" | sort -u | tr '\n' ' ')
    if [ "$(grep -c . <<< "$headers")" -lt "$2" ] || [ -n "$bad" ]; then
        echo "trace headers: $(grep -c . <<< "$headers") with #P:, expected $2 or more, each #P:$n (not: $bad)"
        return 1
    fi
}
