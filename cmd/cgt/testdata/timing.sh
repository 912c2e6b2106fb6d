#!/bin/sh
# timing.sh ROUNDS 'LABEL COMMAND...' ... runs each command ROUNDS times, interleaved (A, B, C,
# A, B, C, ...), its output into a file (removed before each run, as a user writing a report
# would), and prints for each run the wall time, user and system CPU and the peak resident
# memory (GNU time), then the load average: on a shared machine read the spread, not one number.
set -eu
rounds=$1
shift
out=${TMPDIR:-/tmp}/cgt-timing.out
for round in $(seq "$rounds"); do
  for run in "$@"; do
    label=${run%% *}
    cmd=${run#* }
    rm -f "$out"
    # shellcheck disable=SC2086 # the command is split into its words on purpose
    /usr/bin/time -f "$label: %e s wall, %U s user, %S s system, %M KB peak" $cmd > "$out"
  done
done
rm -f "$out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
