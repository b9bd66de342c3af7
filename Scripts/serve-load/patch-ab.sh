#!/usr/bin/env bash
# PATCH /v1/facts/{id} on two builds of `mnemo serve`, rounds interleaved, so that a change to the
# write path is measured against the build before it on the same (noisy) machine.
# Usage: Scripts/serve-load/patch-ab.sh MNEMO_A MNEMO_B [ROUNDS] [SECONDS]
# Prints one line per round, connections and build: requests per second.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rounds="${3:-3}"; seconds="${4:-8}"
work="$(mktemp -d)"; pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
printf 'tok-alice alice\n' > "$work/tokens.txt"
auth='Authorization: Bearer tok-alice'
ports=(8191 8192)
for index in 0 1; do
  mnemo=$([ "$index" = 0 ] && echo "$1" || echo "$2"); port=${ports[$index]}
  "$mnemo" ingest "$here/../../Fixtures/knowledge.jsonl" --db "$work/$port.sqlite" --namespace alice >/dev/null
  "$mnemo" serve --db "$work/$port.sqlite" --port "$port" --auth tokens --tokens-file "$work/tokens.txt" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "localhost:$port/healthz" >/dev/null && break; sleep 0.2; done
done
# The fixture gives both files the same ids.
curl -sf -H "$auth" "localhost:${ports[0]}/v1/users/alice/facts?limit=500" \
  | python3 -c "import json,sys; [print(f['id']) for f in json.load(sys.stdin)['facts']]" > "$work/ids.txt"
cd "$work"
for round in $(seq "$rounds"); do
  for connections in 1 64; do
    for index in 0 1; do
      rate=$(IDS=ids.txt wrk -t1 -c"$connections" -d"${seconds}s" -H "$auth" -s "$here/patch.lua" \
        "http://127.0.0.1:${ports[$index]}" | awk '/Requests\/sec/ {print $2}')
      echo "round $round, c$connections, $([ "$index" = 0 ] && echo A || echo B): $rate/s"
    done
  done
done
