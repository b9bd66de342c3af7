#!/usr/bin/env bash
# Measures sync over loopback with real processes: the first sync of a new device from a
# server namespace of N facts with vectors (the server ships its vectors: same model), the bytes
# per fact of that snapshot with and without vectors, and one change pushed by a device and
# pulled by another (each a `mnemo sync` process, so process start and model load included).
# Usage: Scripts/sync-bench/run.sh [MNEMO_BINARY] [FACTS] [ROUNDS]
set -euo pipefail
mnemo="${1:-.build/release/mnemo}"
facts="${2:-10000}"
rounds="${3:-20}"
work="$(mktemp -d)"
port=18437
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$facts" > "$work/facts.jsonl" <<'PY'
import json, sys
n = int(sys.argv[1])
topics = ["Home", "Work", "Health", "Food", "Travel", "Music", "Books", "Sport"]
for i in range(n):
    print(json.dumps({"topic": topics[i % len(topics)] + "/Set " + str(i % 50),
                      "content": f"Note {i}: the user mentioned item {i * 7919 % 100003} in list {i % 97}",
                      "importance": ["high", "medium", "low"][i % 3]}))
PY
start=$(date +%s.%N)
"$mnemo" ingest "$work/facts.jsonl" --db "$work/server.sqlite" --namespace bench >/dev/null
echo "server ingest of $facts facts with vectors: $(echo "$(date +%s.%N) - $start" | bc) s"
echo "tok bench" > "$work/tokens.txt"; echo tok > "$work/token"
"$mnemo" serve --db "$work/server.sqlite" --auth tokens --tokens-file "$work/tokens.txt" --port "$port" \
    > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
sync() { "$mnemo" sync --server "http://127.0.0.1:$port" --token-file "$work/token" --namespace bench --db "$1" >/dev/null; }
start=$(date +%s.%N)
sync "$work/phone.sqlite"
echo "first sync of a new device ($facts facts, vectors shipped): $(echo "$(date +%s.%N) - $start" | bc) s"
sync "$work/tablet.sqlite"
plain=$(curl -s "http://127.0.0.1:$port/v1/users/bench/sync/snapshot" -H "Authorization: Bearer tok" | wc -c)
model=$("$mnemo" stats --db "$work/server.sqlite" --namespace bench --json >/dev/null; echo "sentence-transformers/all-MiniLM-L6-v2")
vectors=$(curl -s "http://127.0.0.1:$port/v1/users/bench/sync/snapshot?model=$model&dimension=384" \
    -H "Authorization: Bearer tok" | wc -c)
echo "snapshot bytes per fact: $((plain / facts)) without vectors, $((vectors / facts)) with vectors"
times=()
for round in $(seq "$rounds"); do
    "$mnemo" fact update $(( (round % facts) + 1 )) --importance "$([ $((round % 2)) = 0 ] && echo high || echo low)" \
        --db "$work/phone.sqlite" --namespace bench >/dev/null
    start=$(date +%s%N)
    sync "$work/phone.sqlite"
    sync "$work/tablet.sqlite"
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "one change pushed by a device and pulled by another, two mnemo sync processes, p50: ${sorted[$((rounds / 2))]} ms"
