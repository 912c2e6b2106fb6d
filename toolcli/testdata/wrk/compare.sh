#!/bin/sh
# Throughput of `cgt serve` against the bare JSON-RPC handler (toolcli/internal/barerpc),
# both under wrk with the same script, interleaved: ROUNDS rounds of bare then cgt serve,
# CONNS connections for DURATION each. Prints each run's calls/s and failures and the ratio.
# Usage: compare.sh BINDIR (holding cgt-serve and barerpc)
set -eu
bin=${1:?usage: compare.sh BINDIR}
rounds=${ROUNDS:-3}
conns=${CONNS:-64}
duration=${DURATION:-5s}
threads=${THREADS:-2}
here=$(cd "$(dirname "$0")" && pwd)
token=wrk-bench-token
port_cgt=${PORT_CGT:-7191}
port_bare=${PORT_BARE:-7192}

"$bin/cgt-serve" --port "$port_cgt" --token "$token" > /dev/null &
cgt_pid=$!
"$bin/barerpc" --port "$port_bare" &
bare_pid=$!
trap 'kill $cgt_pid $bare_pid 2>/dev/null' EXIT INT TERM
sleep 1
# one call first, so that the in-process MCP server is started before timing
TOOL_CLI_TOKEN=$token wrk -t1 -c1 -d1s -s "$here/calltool.lua" "http://127.0.0.1:$port_cgt/" > /dev/null

run() { # name port
  out=$(TOOL_CLI_TOKEN=$token wrk -t"$threads" -c"$conns" -d"$duration" -s "$here/calltool.lua" "http://127.0.0.1:$2/")
  rate=$(echo "$out" | sed -n 's/^calls\/s: //p')
  failed=$(echo "$out" | sed -n 's/^failed calls: //p')
  echo "$1 $rate $failed"
}
i=1
while [ "$i" -le "$rounds" ]; do
  b=$(run bare "$port_bare")
  c=$(run cgt "$port_cgt")
  echo "$b $c" | awk '{printf "round '"$i"': bare %s calls/s (%s failed), cgt serve %s calls/s (%s failed), ratio %.2f\n", $2, $3, $5, $6, $5/$2}'
  i=$((i + 1))
done
