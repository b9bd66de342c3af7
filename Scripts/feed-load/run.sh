#!/usr/bin/env bash
# The change feed under load: Server-Sent Events clients on `mnemo serve` while writes stream in
# (Scripts/feed-load/feed_load.py). Usage: Scripts/feed-load/run.sh [MNEMO_BINARY] [CLIENTS] [PROBES]
#   MNEMO_LOAD_DB=postgres://…   two nodes of that store: writes on one, clients on the other
# Prints the loader's JSON report; the figures of the "Following changes" article come from it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mnemo="${1:-.build/release/mnemo}"; clients="${2:-1000}"; probes="${3:-200}"
work="$(mktemp -d)"; pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
ulimit -n 65536 2>/dev/null || true
db="${MNEMO_LOAD_DB:-$work/kb.sqlite}"
"$mnemo" ingest "$here/../../Fixtures/knowledge.jsonl" --db "$db" --namespace alice >/dev/null
printf 'tok-alice alice\n' > "$work/tokens.txt"
nodes=1; [[ "$db" == postgres* ]] && nodes=2
for node in $(seq "$nodes"); do
  "$mnemo" serve --db "$db" --port "808$node" --auth tokens --tokens-file "$work/tokens.txt" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "localhost:808$node/healthz" >/dev/null && break; sleep 0.2; done
done
if [ "$nodes" = 2 ]; then
  python3 "$here/feed_load.py" --read-port 8082 --write-port 8081 --token tok-alice --user alice \
    --clients "$clients" --probes "$probes" --server-pid "${pids[1]}"
else
  python3 "$here/feed_load.py" --read-port 8081 --token tok-alice --user alice \
    --clients "$clients" --probes "$probes" --server-pid "${pids[0]}"
fi
