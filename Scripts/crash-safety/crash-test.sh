#!/usr/bin/env bash
# Crash safety: kills `mnemo ingest` (with embeddings), `dedupe`, `merge` and `reembed` with
# SIGKILL at random moments, runs `mnemo check` after every kill, then finishes the work and
# shows that the database converges to the same export as one clean run.
#
# usage: Scripts/crash-safety/crash-test.sh [KILLS] [FACTS]
#   KILLS  kills to attempt (default 60); FACTS  records in the input (default 2000)
# env:   MNEMO      the mnemo binary (default .build/release/mnemo)
#        MNEMO_MODEL the embedding model; point it at a missing folder for the fast hashing
#                   embedder (the CI short form does)
#        SEED       the random seed (default 1)
#        MAX_DELAY_MS  the latest moment of a kill after start (default 3000)
set -euo pipefail
cd "$(dirname "$0")/../.."

kills=${1:-60}
facts=${2:-2000}
mnemo=${MNEMO:-.build/release/mnemo}
RANDOM=${SEED:-1}
max_delay_ms=${MAX_DELAY_MS:-3000}
work=$(mktemp -d "${TMPDIR:-/tmp}/mnemo-crash.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset MNEMO_DB

python3 Scripts/crash-safety/make_facts.py "$facts" > "$work/facts.jsonl"

# The whole job, run to the end: what a user reruns after a crash.
operations=(ingest merge dedupe reembed)
operation_command() {  # db operation: sets `command` to the operation's argument list
    case $2 in
        ingest) command=("$mnemo" ingest "$work/facts.jsonl" --db "$1" --json) ;;
        merge) command=("$mnemo" merge "Health and Fitness" --into "Health & Fitness" --db "$1" --json) ;;
        dedupe) command=("$mnemo" dedupe --db "$1" --json) ;;
        reembed) command=("$mnemo" reembed --db "$1") ;;
    esac
}
run_operation() {  # db operation
    operation_command "$1" "$2"
    "${command[@]}"
}
# The merge fails harmlessly once its source topic is gone; everything else must succeed.
finish_job() {  # db
    for operation in "${operations[@]}"; do
        if ! run_operation "$1" "$operation" > "$work/out.txt" 2> "$work/err.txt"; then
            if [ "$operation" = merge ] && grep -q "no topic at" "$work/err.txt"; then continue; fi
            echo "FAIL: $operation exited non-zero: $(cat "$work/err.txt")"; exit 1
        fi
    done
}
# Exported facts minus what legitimately differs between runs: `updated_at` is the wall clock
# of merges, and `mention_count` counts every time a record was ingested, reruns included.
normalized_export() {  # db
    "$mnemo" export --all-namespaces --db "$1" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line); r.pop("updated_at"); r.pop("mention_count"); r.pop("uid")  # random where first written
    print(json.dumps(r, sort_keys=True))'
}

echo "clean run: $facts records"
start=$(date +%s%N)
finish_job "$work/clean.sqlite"
clean_seconds=$(( ($(date +%s%N) - start) / 1000000 ))ms
normalized_export "$work/clean.sqlite" > "$work/clean.jsonl"
echo "  $(wc -l < "$work/clean.jsonl") facts, ${clean_seconds}"

landed=0; finished=0; checks=0
declare -A landed_by=()
db="$work/crashed.sqlite"
for ((k = 1; k <= kills; k++)); do
    operation=${operations[$((RANDOM % ${#operations[@]}))]}
    delay_ms=$((RANDOM % max_delay_ms))
    # Started directly, not through a function, so that $! is mnemo itself and the signal
    # reaches it (killing a subshell would leave mnemo running).
    operation_command "$db" "$operation"
    "${command[@]}" > /dev/null 2> "$work/err.txt" &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    if kill -KILL "$pid" 2>/dev/null; then
        landed=$((landed + 1)); landed_by[$operation]=$(( ${landed_by[$operation]:-0} + 1 ))
    else
        finished=$((finished + 1))
    fi
    wait "$pid" 2>/dev/null || true
    # A kill before the first commit may leave no database at all, which is fine.
    [ -f "$db" ] || continue
    if ! "$mnemo" check --db "$db" > "$work/check.txt" 2>&1; then
        echo "FAIL: mnemo check after killing $operation at ${delay_ms} ms:"; cat "$work/check.txt"; exit 1
    fi
    checks=$((checks + 1))
done
echo "kills: $landed landed while running ($(for o in "${operations[@]}"; do printf '%s %s, ' "$o" "${landed_by[$o]:-0}"; done | sed 's/, $//')), $finished finished before the signal; mnemo check clean after all $checks"

finish_job "$db"
"$mnemo" check --db "$db" > /dev/null
normalized_export "$db" > "$work/crashed.jsonl"
if ! diff -q "$work/clean.jsonl" "$work/crashed.jsonl" > /dev/null; then
    echo "FAIL: the export after the kills and a rerun differs from the clean run:"
    diff "$work/clean.jsonl" "$work/crashed.jsonl" | head -20
    exit 1
fi
echo "converged: the export after $landed kills and a rerun equals the clean run's ($(wc -l < "$work/crashed.jsonl") facts)"
