#!/usr/bin/env bash
# The memory page's views of a 10,000-fact namespace under wrk over loopback: p50 and p99 per
# view, next to the JSON route that reads the same data (the baseline of the same run).
# Usage: Scripts/page-check/speed.sh [MNEMO_BINARY] [SECONDS] [CONNECTIONS]
# One connection measures what a view costs to render; eight add the queueing of a busy server.
# Hashing embedder (no model) so that the 10,000 facts ingest in seconds; the figures in
# Sources/Mnemo/Mnemo.docc/MemoryPage.md come from it.
set -euo pipefail
mnemo="${1:-.build/release/mnemo}"; seconds="${2:-10}"; connections="${3:-8}"
work="$(mktemp -d)"; server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
export MNEMO_MODEL="$work/no-model"
python3 - "$work/facts.jsonl" <<'PY'
import json, sys
topics = [f"Area {a}/Subject {s}" for a in range(10) for s in range(10)]
kinds = ["fact", "preference", "goal", "experience"]
with open(sys.argv[1], "w") as out:
    for n in range(10_000):
        out.write(json.dumps({"topic": topics[n % 100], "type": kinds[n % 4],
                              "importance": ["high", "medium", "low"][n % 3],
                              "content": f"Remembered item {n}: likes walk {n % 97} and tea blend {n % 89} in town {n % 83}",
                              "created_at": f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T10:00:00Z"}) + "\n")
PY
"$mnemo" ingest "$work/facts.jsonl" --db "$work/kb.sqlite" --namespace default >/dev/null 2>&1
"$mnemo" serve --db "$work/kb.sqlite" --port 18097 2>/dev/null &
server=$!
for _ in $(seq 100); do curl -sf localhost:18097/healthz >/dev/null && break; sleep 0.2; done
cookie="$(curl -si localhost:18097/ui | sed -n 's/^Set-Cookie: \(mnemo_session=[0-9a-f]*\).*/\1/p')"
area="$(curl -s localhost:18097/api/topics | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')"
echo "facts: $("$mnemo" stats --db "$work/kb.sqlite" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["facts"])')"
run() {
  echo "== $1"
  wrk -t2 -c"$connections" -d"${seconds}s" --latency -H "Cookie: $cookie" "http://127.0.0.1:18097$2" \
    | grep -E 'Requests/sec| 50%| 99%|Non-2xx'
}
run "page: topic tree (/ui)" "/ui"
run "json: topic tree (/api/topics)" "/api/topics"
run "page: topic with 1,000 facts, first 50 (/ui/topics/$area)" "/ui/topics/$area"
run "json: the same topic, 50 facts (/api/topics/$area?limit=50)" "/api/topics/$area?limit=50"
run "page: filtered list, page 3 (/ui/search?type=goal&importance=high&offset=100)" "/ui/search?type=goal&importance=high&offset=100"
run "page: hybrid search (/ui/search?q=tea+blend+42)" "/ui/search?q=tea+blend+42"
run "json: hybrid search, 50 hits (/api/topics/search?q=tea+blend+42&limit=50)" "/api/topics/search?q=tea+blend+42&limit=50"
run "page: stats (/ui/stats)" "/ui/stats"
