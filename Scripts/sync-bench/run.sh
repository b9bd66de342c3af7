#!/usr/bin/env bash
# Measures sync over loopback with real processes: the first sync of a new device from a
# server namespace of N facts, with the server's vectors shipped (same model) and embedded on the
# device (`--embed-locally`); the bytes per fact of the first sync and of an incremental pull
# (new facts, importance edits), with and without vectors; and one change pushed by a device and
# pulled by another (each a `mnemo sync` process, so process start and model load included); a
# push of OFFLINE facts (1,500 unless given) added on a synced device while offline, and the
# `mnemo sync --verify` that follows.
# Usage: Scripts/sync-bench/run.sh [MNEMO_BINARY] [FACTS] [ROUNDS] [OFFLINE]
set -euo pipefail
mnemo="${1:-.build/release/mnemo}"
facts="${2:-10000}"
rounds="${3:-20}"
offline="${4:-1500}"
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
sync() {
    "$mnemo" sync --server "http://127.0.0.1:$port" --token-file "$work/token" --namespace bench --db "$1" "${@:2}" \
        >/dev/null
}
start=$(date +%s.%N)
sync "$work/phone.sqlite"
echo "first sync of a new device ($facts facts, vectors shipped): $(echo "$(date +%s.%N) - $start" | bc) s"
start=$(date +%s.%N)
sync "$work/laptop.sqlite" --embed-locally
echo "first sync of a new device ($facts facts, embedded on the device): $(echo "$(date +%s.%N) - $start" | bc) s"
sync "$work/tablet.sqlite"
get() { curl -s "http://127.0.0.1:$port/v1/users/bench/sync/$1" -H "Authorization: Bearer tok"; }
model="model=sentence-transformers/all-MiniLM-L6-v2&dimension=384"
plain=$(get snapshot | wc -c)
vectors=$(get "snapshot?$model" | wc -c)
echo "first sync, bytes per fact: $((plain / facts)) without vectors, $((vectors / facts)) with vectors"
# An incremental pull: the tablet's cursor, then 100 new facts and 100 importance edits on the phone.
link=$(python3 -c 'import sqlite3, sys; print("since=%s&server=%s" % sqlite3.connect(sys.argv[1]).execute(
    "SELECT cursor, server FROM sync_link").fetchone())' "$work/tablet.sqlite")
for i in $(seq 100); do echo "{\"topic\": \"New\", \"content\": \"Later note $i about item $((i * 31))\"}"; done \
    > "$work/new.jsonl"
"$mnemo" ingest "$work/new.jsonl" --db "$work/phone.sqlite" --namespace bench >/dev/null
sync "$work/phone.sqlite"
added=$(get "changes?$link&limit=1000" | wc -c)
added_vectors=$(get "changes?$link&limit=1000&$model" | wc -c)
echo "incremental pull, bytes per new fact: $((added / 100)) without vectors, $((added_vectors / 100)) with vectors"
link=$(python3 -c 'import json, sys; print("since=%s&server=%s" % (json.load(sys.stdin)["next"], sys.argv[1]))' \
    "$(echo "$link" | sed 's/.*server=//')" < <(get "changes?$link&limit=1000"))
for id in $(seq 1 100); do
    "$mnemo" fact update "$id" --importance high --db "$work/phone.sqlite" --namespace bench >/dev/null
done
sync "$work/phone.sqlite"
edited=$(get "changes?$link&limit=1000" | wc -c)
edited_vectors=$(get "changes?$link&limit=1000&$model" | wc -c)
echo "incremental pull, bytes per importance edit: $((edited / 100)) without vectors, $((edited_vectors / 100)) with vectors"
for device in tablet laptop; do
    start=$(date +%s.%N)
    sync "$work/$device.sqlite" $([ "$device" = laptop ] && echo --embed-locally)
    echo "incremental pull of 100 new facts and 100 edits, $device ($([ "$device" = laptop ] && echo embedded || echo shipped)): $(echo "$(date +%s.%N) - $start" | bc) s"
done
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
# Offline work: facts added on the synced tablet while it had no network, then one `mnemo sync`.
for i in $(seq "$offline"); do
    echo "{\"topic\": \"Offline/Day $((i % 30))\", \"content\": \"Offline note $i: the user said item $((i * 104729 % 1000003))\"}"
done > "$work/offline.jsonl"
"$mnemo" ingest "$work/offline.jsonl" --db "$work/tablet.sqlite" --namespace bench >/dev/null
"$mnemo" sync --status --db "$work/tablet.sqlite" --namespace bench
start=$(date +%s.%N)
sync "$work/tablet.sqlite"
echo "push of $offline facts added offline (one mnemo sync process): $(echo "$(date +%s.%N) - $start" | bc) s"
start=$(date +%s.%N)
sync "$work/tablet.sqlite" --verify
echo "mnemo sync --verify of the tablet ($((facts + offline + 100)) facts): $(echo "$(date +%s.%N) - $start" | bc) s"
