#!/usr/bin/env bash
# Load test: readers searching in every mode while a writer ingests, in one process and across
# processes, and a writer blocked by another process's long transaction.
#
# usage: Scripts/concurrency/load-test.sh [FACTS] [READERS] [SECONDS_HELD]
#   FACTS         facts the writer ingests (default 50000)
#   READERS       searching processes in the two-process form (default 8)
#   SECONDS_HELD  how long another process holds the write lock in the last part (default 12,
#                 longer than the 10 s busy timeout)
# env: MNEMO (default .build/release/mnemo), MNEMO_MODEL (a missing folder: hashing embedder)
#
# Part 1 (one process, 8 tasks searching while one ingests) is `mnemo bench --concurrent`-like
# work done by the test suite's short form; here the readers are separate processes, which is
# the harder case: each has its own connections and vector index, and must catch up with the
# writer's commits through the change log.
set -euo pipefail
cd "$(dirname "$0")/../.."
facts=${1:-50000}
readers=${2:-8}
held=${3:-12}
mnemo=${MNEMO:-.build/release/mnemo}
work=$(mktemp -d "${TMPDIR:-/tmp}/mnemo-load.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/kb.sqlite"
unset MNEMO_DB

python3 - "$facts" > "$work/facts.jsonl" <<'PY'
import json, random, sys
rng = random.Random(6)
words = "tea coffee bees cello Porto Braga chess yoga sailing bread running swift rust jazz".split()
for i in range(int(sys.argv[1])):
    print(json.dumps({"content": f"Fact {i}: likes {rng.choice(words)} and {rng.choice(words)} on day {rng.randint(1, 365)}",
                      "topic": f"Topic {i % 40}/Sub {i % 7}", "importance": rng.choice(["high", "medium", "low"]),
                      "created_at": "2025-03-01T10:00:00Z"}))
PY
echo "seed" | "$mnemo" ingest - --db "$db" > /dev/null 2>&1 || true
printf '{"content": "Keeps bees on the roof", "topic": "Hobbies"}\n' | "$mnemo" ingest - --db "$db" > /dev/null

# Readers: a REPL each, fed searches in every mode as fast as it answers; every answer and
# error is counted from its output.
reader() {  # index
    python3 - "$mnemo" "$db" "$1" "$work/stop" > "$work/reader-$1.txt" 2>&1 <<'PY'
import subprocess, sys, os, time, json
mnemo, db, index, stop = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
modes = ["text", "semantic", "hybrid"]
queries = ["bees", "likes tea and chess", "Fact 123", "sailing on day 10", "what do I like"]
searches = errors = 0
locked = 0
start = time.time()
while not os.path.exists(stop):
    mode = modes[(index + searches) % 3]
    q = queries[(index + searches) % len(queries)]
    args = [mnemo, "search", q, "--mode", mode, "--db", db, "--json", "--limit", "5"]
    if searches % 4 == 0:
        args += ["--min-importance", "medium"]
    r = subprocess.run(args, capture_output=True, text=True)
    searches += 1
    if r.returncode != 0:
        errors += 1
        if "locked" in r.stderr or "busy" in r.stderr:
            locked += 1
        print("error:", r.stderr.strip()[:200], file=sys.stderr)
print(json.dumps({"searches": searches, "errors": errors, "locked": locked, "seconds": time.time() - start}))
PY
}

echo "part 1: $readers reader processes (one search per process, every mode) while one process ingests $facts facts"
for ((i = 0; i < readers; i++)); do reader "$i" & done
start=$(date +%s%N)
"$mnemo" ingest "$work/facts.jsonl" --db "$db" --json > "$work/ingest.json" 2> "$work/ingest.err"
ingest_seconds=$(python3 -c "print(($(date +%s%N) - $start) / 1e9)")
touch "$work/stop"; wait
python3 - "$work" "$readers" "$ingest_seconds" "$facts" <<'PY'
import json, sys
work, readers, seconds, facts = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
report = json.load(open(f"{work}/ingest.json"))
stats = [json.loads(open(f"{work}/reader-{i}.txt").read().strip().splitlines()[-1]) for i in range(readers)]
searches = sum(s["searches"] for s in stats); errors = sum(s["errors"] for s in stats); locked = sum(s["locked"] for s in stats)
print(f"  ingest: added {report['added']} in {seconds:.1f} s = {report['added'] / seconds:.0f} facts/s, rejected {report['rejected_count']}")
print(f"  readers: {searches} searches ({searches / seconds:.1f}/s), errors {errors}, 'database is locked' {locked}")
PY

echo "part 2: one long-lived REPL searching while another process ingests: it sees the new facts"
rm -f "$work/stop"
tail -n 200 "$work/facts.jsonl" | sed 's/Fact /Late fact /' > "$work/late.jsonl"
coproc REPL { "$mnemo" repl --db "$db" --mode semantic 2>&1; }
echo "Late fact 49999" >&"${REPL[1]}"
"$mnemo" ingest "$work/late.jsonl" --db "$db" > /dev/null
echo "Late fact" >&"${REPL[1]}"; echo ":quit" >&"${REPL[1]}"
timeout 60 cat <&"${REPL[0]}" > "$work/repl.txt" || true
grep -c "Late fact" "$work/repl.txt" | xargs -I{} echo "  REPL lines naming a late fact after the foreign ingest: {}"

echo "part 3: another process holds the write lock for ${held} s; a writer waits, then fails clearly"
python3 - "$db" "$held" & holder=$! <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE"); time.sleep(float(sys.argv[2])); db.execute("ROLLBACK")
PY
sleep 1
start=$(date +%s%N)
set +e
echo '{"content": "Written while locked", "topic": "Locks"}' | "$mnemo" ingest - --db "$db" > "$work/locked.out" 2> "$work/locked.err"
status=$?
set -e
echo "  writer exit $status after $(python3 -c "print(round(($(date +%s%N) - $start) / 1e9, 1))") s: $(grep -v '^note' "$work/locked.err" | head -1)"
wait "$holder"
"$mnemo" check --db "$db" > /dev/null && echo "  mnemo check: clean"
