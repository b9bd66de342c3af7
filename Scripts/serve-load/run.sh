#!/usr/bin/env bash
# Load on `mnemo serve` over loopback with wrk: text search, hybrid search, fact listing and fact
# updates, 64 connections each. Usage: Scripts/serve-load/run.sh [MNEMO_BINARY] [SECONDS]
# Prints wrk's summary per route; the "Load" table of the Serving article
# (Sources/Mnemo/Mnemo.docc/Serving.md) comes from it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mnemo="${1:-.build/release/mnemo}"; seconds="${2:-15}"
work="$(mktemp -d)"; trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/kb.sqlite"
"$mnemo" ingest "$here/../../Fixtures/knowledge.jsonl" --db "$db" --namespace alice >/dev/null
printf 'tok-alice alice\n' > "$work/tokens.txt"
python3 -c "
import json, sys
q = json.load(open('$here/../../Fixtures/queries.json'))
for kind in ('keyword', 'paraphrase'):
    for item in q[kind]: print(item['query'])" > "$work/queries.txt"
"$mnemo" serve --db "$db" --port 18181 --auth tokens --tokens-file "$work/tokens.txt" &
server=$!
for _ in $(seq 100); do curl -sf localhost:18181/healthz >/dev/null && break; sleep 0.2; done
auth='Authorization: Bearer tok-alice'
curl -sf -H "$auth" 'localhost:18181/v1/users/alice/facts?limit=500' \
  | python3 -c "import json,sys; d=json.load(sys.stdin); [print(f['id']) for f in (d['facts'] if isinstance(d, dict) else d)]" > "$work/ids.txt"
run() { echo "== $1"; shift; wrk -t2 -c64 -d"${seconds}s" --latency -H "$auth" "$@" | grep -E 'Requests/sec|99%|50%|Non-2xx|Socket errors|requests in'; }
cd "$work"
QUERIES=queries.txt MODE=text run "text search (MindChat /api/topics/search, mode=text)" -s "$here/queries.lua" http://127.0.0.1:18181
QUERIES=queries.txt MODE=hybrid run "hybrid search (MindChat /api/topics/search, mode=hybrid)" -s "$here/queries.lua" http://127.0.0.1:18181
run "fact listing (Lucid /v1/users/alice/facts?limit=50)" 'http://127.0.0.1:18181/v1/users/alice/facts?limit=50&offset=0'
IDS=ids.txt run "fact updates (Lucid PATCH /v1/facts/{id})" -s "$here/patch.lua" http://127.0.0.1:18181
