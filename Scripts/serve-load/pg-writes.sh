#!/usr/bin/env bash
# Updates (PATCH /v1/facts/{id}) on one `mnemo serve` node over PostgreSQL, for one user and
# spread over sixteen, on several builds with the rounds interleaved, with where the time goes:
# the node's and PostgreSQL's CPU per update (from /proc, Linux). Usage:
#   Scripts/serve-load/pg-writes.sh ROUNDS SECONDS MNEMO_A [MNEMO_B…]
# A build may carry serve options: ".build/release/mnemo --write-group-max 1" commits each
# update alone (the write path before group commit), against the default in the same run.
# It starts a throwaway PostgreSQL 15 cluster of its own (Scripts/postgres/cluster.sh, fsync off)
# on a free port, ingests the fixtures (349 lines) for `alice` and for `user01`…`user16` with the
# hashing embedder (an update does not embed), and runs `wrk -t2 -c64 --latency` after a 2 s
# warm-up. Prints, per round, build and case: updates/s, p50, p99, errors (non-2xx, socket
# errors, timeouts), and the node's and PostgreSQL's CPU per update in milliseconds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
rounds="$1"; seconds="$2"; shift 2
tick=$(getconf CLK_TCK)
work="$(mktemp -d)"
chmod 755 "$work"
port=$((25000 + RANDOM % 4000))
spid=""
cleanup() {
  [ -n "$spid" ] && kill "$spid" 2>/dev/null || true
  "$root/Scripts/postgres/cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
url=$("$root/Scripts/postgres/cluster.sh" start "$work/pg" "$port")
export MNEMO_MODEL="$work/no-model" # the hashing embedder, for ingest and nodes alike
read -ra first <<< "$1"
users=(alice $(seq -f 'user%02g' 1 16))
: > "$work/tokens.txt"
for user in "${users[@]}"; do
  "${first[0]}" ingest "$root/Fixtures/knowledge.jsonl" --db "$url" --namespace "$user" >/dev/null 2>&1
  echo "tok-$user $user" >> "$work/tokens.txt"
done

cpu_of() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
postgres_cpu() {
  local total=0 pid
  for pid in $(pgrep -u postgres postgres); do total=$((total + $(cpu_of "$pid"))); done
  echo "$total"
}

measure() {
  local mnemo node_port=$((8300 + RANDOM % 600))
  read -ra mnemo <<< "$1"
  "${mnemo[0]}" serve --db "$url" --port "$node_port" --auth tokens --tokens-file "$work/tokens.txt" \
    "${mnemo[@]:1}" 2>"$work/node.log" &
  spid=$!
  for _ in $(seq 200); do curl -sf "localhost:$node_port/healthz" >/dev/null && break; sleep 0.2; done
  # "token id" lines: alice's for one user, everyone else's for sixteen.
  : > "$work/one.txt"; : > "$work/sixteen.txt"
  for user in "${users[@]}"; do
    curl -sf -H "Authorization: Bearer tok-$user" "localhost:$node_port/v1/users/$user/facts?limit=500" |
      python3 -c "
import json, sys
for f in json.load(sys.stdin)['facts']: print('tok-$user', f['id'])" > "$work/ids-$user.txt"
    if [ "$user" = alice ]; then cat "$work/ids-$user.txt" >> "$work/one.txt"; else cat "$work/ids-$user.txt" >> "$work/sixteen.txt"; fi
  done
  for case in one sixteen; do
    IDS="$work/$case.txt" wrk -t1 -c8 -d2s -s "$here/patch-users.lua" "http://127.0.0.1:$node_port" >/dev/null
    local node_before pg_before node_after pg_after out
    node_before=$(cpu_of "$spid"); pg_before=$(postgres_cpu)
    out=$(IDS="$work/$case.txt" wrk -t2 -c64 -d"${seconds}s" --latency -s "$here/patch-users.lua" \
      "http://127.0.0.1:$node_port")
    node_after=$(cpu_of "$spid"); pg_after=$(postgres_cpu)
    echo "$out" | awk -v name="$case" -v node=$((node_after - node_before)) -v pg=$((pg_after - pg_before)) \
      -v tick="$tick" '
      /requests in/ { n = $1 } /Requests\/sec/ { rps = $2 } / 50%/ { p50 = $2 } / 99%/ { p99 = $2 }
      /Non-2xx/ { non2xx = $NF } /Socket errors/ { sock = $0 }
      END { printf "  %-8s %7.0f updates/s  p50 %-8s p99 %-8s node %.2f ms  PostgreSQL %.2f ms CPU/update%s%s\n",
            name == "one" ? "1 user" : "16 users", rps, p50, p99, node / tick * 1e3 / n, pg / tick * 1e3 / n,
            non2xx ? "  non-2xx " non2xx : "", sock ? "  " sock : "" }'
  done
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  spid=""
}

echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; PostgreSQL $url"
for round in $(seq "$rounds"); do
  for mnemo in "$@"; do
    echo "round $round · $mnemo · load $(cut -d' ' -f1-3 /proc/loadavg)"
    measure "$mnemo"
  done
done
