# typed_checks.sh - what the tests that type at the console share (interactive.sh, tty.sh,
# hostile_tty.sh, busybox_interactive.sh, flood.sh). Sourced; each runs qemu_run with the
# console in $log and its status in $rc, then:
#   checks_begin      starts the list of problems, the first being a QEMU that did not end
#                     through `poweroff`, and reads the console, without carriage returns,
#                     into $text
#   want LINE WHY     a problem unless LINE is a whole line of $text
#   checks_report     prints each problem as a "#   " line for the runner
checks_begin() {
    problems=()
    [ "$rc" -eq 0 ] || problems+=("QEMU did not exit through poweroff (qemu_run status $rc)")
    text=$(tr -d '\r' < "$log")
}

want() { grep -qxF "$1" <<< "$text" || problems+=("$2: no line '$1'"); }

checks_report() {
    local p
    for p in "${problems[@]}"; do echo "#   $p"; done
}
