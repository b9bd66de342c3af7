#!/usr/bin/env bash
# Load on `mnemo serve` over loopback with wrk: text search, hybrid search, fact listing and fact
# updates, 64 connections each. Usage: Scripts/serve-load/run.sh [MNEMO_BINARY] [SECONDS]
#   MNEMO_LOAD_DB=postgres://…   serve from PostgreSQL instead of a fresh SQLite file
#   MNEMO_LOAD_NODES=2           two nodes (ports 8081, 8082) behind nginx on 8080
#                                (Scripts/postgres/nginx.conf; needs MNEMO_LOAD_DB)
# Prints wrk's summary per route; the "Load" tables of the Serving article
# (Sources/Mnemo/Mnemo.docc/Serving.md) come from it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mnemo="${1:-.build/release/mnemo}"; seconds="${2:-15}"
work="$(mktemp -d)"; pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
db="${MNEMO_LOAD_DB:-$work/kb.sqlite}"; nodes="${MNEMO_LOAD_NODES:-1}"
source "$here/inputs.sh"
load_inputs "$mnemo" "$db" "$work"
for node in $(seq "$nodes"); do
  "$mnemo" serve --db "$db" --port "808$node" --auth tokens --tokens-file "$work/tokens.txt" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "localhost:808$node/healthz" >/dev/null && break; sleep 0.2; done
done
port=8081
if [ "$nodes" = 2 ]; then
  nginx -p "$work" -c "$here/../postgres/nginx.conf" &
  pids+=($!)
  port=8080
  for _ in $(seq 100); do curl -sf "localhost:$port/healthz" >/dev/null && break; sleep 0.2; done
fi
auth='Authorization: Bearer tok-alice'
curl -sf -H "$auth" "localhost:$port/v1/users/alice/facts?limit=500" \
  | python3 -c "import json,sys; d=json.load(sys.stdin); [print(f['id']) for f in (d['facts'] if isinstance(d, dict) else d)]" > "$work/ids.txt"
# Each route is warmed for 2 s first (prepared statements, the query cache's 60 vectors), so the
# figures are the steady state a server spends its life in.
run() {
  echo "== $1"; shift
  wrk -t1 -c8 -d2s -H "$auth" "$@" >/dev/null
  wrk -t2 -c64 -d"${seconds}s" --latency -H "$auth" "$@" | grep -E 'Requests/sec|99%|50%|Non-2xx|Socket errors|requests in'
}
cd "$work"
QUERIES=queries.txt MODE=text run "text search (MindChat /api/topics/search, mode=text)" -s "$here/queries.lua" http://127.0.0.1:$port
QUERIES=queries.txt MODE=hybrid run "hybrid search (MindChat /api/topics/search, mode=hybrid)" -s "$here/queries.lua" http://127.0.0.1:$port
run "fact listing (Lucid /v1/users/alice/facts?limit=50)" "http://127.0.0.1:$port/v1/users/alice/facts?limit=50&offset=0"
IDS=ids.txt run "fact updates (Lucid PATCH /v1/facts/{id})" -s "$here/patch.lua" http://127.0.0.1:$port
