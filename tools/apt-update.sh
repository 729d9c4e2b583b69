#!/bin/sh
# apt-update.sh - `apt-get update` that a half-synced mirror does not stop. apt exits 100
# when any one list fails ("File has unexpected size ... Mirror sync in progress?"), even
# though the other lists, and the packages the build wants from them, were updated. So
# the update is tried up to three times, and a last failure is only a warning: the caller
# goes on, and its own apt-get install or download says clearly if a package is missing.
# Runs as root, or through sudo when SUDO=sudo is in the environment.
for try in 1 2 3; do
    ${SUDO:-} apt-get update -qq && exit 0
    echo "apt-update: apt-get update failed (try $try of 3)" >&2
    [ "$try" -eq 3 ] || sleep 5
done
echo "apt-update: going on with the package lists apt has" >&2
exit 0
