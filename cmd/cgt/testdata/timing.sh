#!/bin/sh
# timing.sh ROUNDS 'LABEL COMMAND...' ... runs each command ROUNDS times, interleaved (A, B, C,
# A, B, C, ...), its output into a file (removed before each run, as a user writing a report
# would), and prints for each run the wall time, user and system CPU and the peak resident
# memory (GNU time) with the load average at its end; then, per label, the best and median
# wall time, the least CPU (user + system) and the largest peak. On a shared machine read the
# CPU time and the spread, not one number: a goal holds on a quiet machine (load average
# well under the number of processors).
set -eu
rounds=$1
shift
out=${TMPDIR:-/tmp}/cgt-timing.out
runs=${TMPDIR:-/tmp}/cgt-timing.runs
: > "$runs"
for round in $(seq "$rounds"); do
  for run in "$@"; do
    label=${run%% *}
    cmd=${run#* }
    rm -f "$out"
    # shellcheck disable=SC2086 # the command is split into its words on purpose
    /usr/bin/time -o "$runs.one" -f "$label %e %U %S %M" $cmd > "$out"
    read -r l wall user sys peak < "$runs.one"
    echo "$l $wall $user $sys $peak" >> "$runs"
    echo "$label: $wall s wall, $user s user, $sys s system, $peak KB peak (load average $(cut -d' ' -f1 /proc/loadavg))"
  done
done
rm -f "$out" "$runs.one"
echo "summary (best wall, median wall, least user + system CPU, largest peak):"
for run in "$@"; do
  label=${run%% *}
  awk -v l="$label" '$1 == l { n++; w[n] = $2; c = $3 + $4; if (n == 1 || c < cpu) cpu = c; if ($5 > peak) peak = $5 }
    END { for (i = 2; i <= n; i++) for (j = i; j > 1 && w[j - 1] > w[j]; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t }
      printf "  %s: %.2f s best, %.2f s median, %.2f s CPU, %.0f MiB peak\n", l, w[1], w[int((n + 1) / 2)], cpu, peak / 1024 }' "$runs"
done
rm -f "$runs"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) processors"
