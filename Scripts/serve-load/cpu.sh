#!/usr/bin/env bash
# The server's CPU time per request, per route, under the load of run.sh (64 connections), for
# several builds with the rounds interleaved. Throughput on a shared 2-core machine moves by a
# third from run to run; the server's own CPU per request (from /proc, Linux) moves far less, so
# it is what tells two builds apart. Usage:
#   Scripts/serve-load/cpu.sh ROUNDS SECONDS MNEMO_A [MNEMO_B…]
#   ROUTES="text hybrid list patch" (the default) picks the routes.
# Prints, per round, build and route: requests per second, p99, and server CPU µs per request.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rounds="$1"; seconds="$2"; shift 2
routes="${ROUTES:-text hybrid list patch}"
tick=$(getconf CLK_TCK)
source "$here/inputs.sh"

measure() {
  local mnemo="$1" work port spid
  work="$(mktemp -d)"
  load_inputs "$mnemo" "$work/kb.sqlite" "$work"
  port=$((8100 + RANDOM % 800))
  "$mnemo" serve --db "$work/kb.sqlite" --port "$port" --auth tokens --tokens-file "$work/tokens.txt" 2>/dev/null &
  spid=$!
  for _ in $(seq 100); do curl -sf "localhost:$port/healthz" >/dev/null && break; sleep 0.2; done
  local auth='Authorization: Bearer tok-alice'
  curl -sf -H "$auth" "localhost:$port/v1/users/alice/facts?limit=500" | python3 -c "
import json, sys
d = json.load(sys.stdin)
for f in (d['facts'] if isinstance(d, dict) else d): print(f['id'])" > "$work/ids.txt"
  (
    cd "$work"
    for route in $routes; do
      case "$route" in
        text | hybrid) args=(-s "$here/queries.lua" "http://127.0.0.1:$port"); export QUERIES=queries.txt MODE=$route ;;
        list) args=("http://127.0.0.1:$port/v1/users/alice/facts?limit=50&offset=0") ;;
        patch) args=(-s "$here/patch.lua" "http://127.0.0.1:$port"); export IDS=ids.txt ;;
      esac
      wrk -t1 -c8 -d2s -H "$auth" "${args[@]}" >/dev/null # warm: statements, caches, query vectors
      before=$(awk '{print $14 + $15}' "/proc/$spid/stat")
      out=$(wrk -t2 -c64 -d"${seconds}s" --latency -H "$auth" "${args[@]}")
      after=$(awk '{print $14 + $15}' "/proc/$spid/stat")
      echo "$out" | awk -v route="$route" -v ticks=$((after - before)) -v tick="$tick" '
        /requests in/ { n = $1 } /Requests\/sec/ { rps = $2 } / 99%/ { p99 = $2 } /Non-2xx/ { errors = $NF }
        END { printf "  %-7s %8.0f req/s  p99 %-9s server CPU %6.1f µs/request%s\n", route, rps, p99,
              ticks / tick * 1e6 / n, errors ? "  non-2xx " errors : "" }'
    done
  )
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  rm -rf "$work"
}

for round in $(seq "$rounds"); do
  for mnemo in "$@"; do
    echo "round $round · $mnemo · load $(cut -d' ' -f1-3 /proc/loadavg)"
    measure "$mnemo"
  done
done
