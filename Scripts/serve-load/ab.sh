#!/usr/bin/env bash
# `run.sh` (text and hybrid search, fact listing, updates) on several builds of `mnemo serve`,
# rounds interleaved, so that a change is measured against the build before it on the same
# (noisy) machine. Usage: Scripts/serve-load/ab.sh ROUNDS SECONDS MNEMO_A MNEMO_B [MNEMO_C…]
# Prints, per round and build, each route's requests per second with p50 and p99.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rounds="$1"; seconds="$2"; shift 2
for round in $(seq "$rounds"); do
  for mnemo in "$@"; do
    echo "round $round · $mnemo · load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$here/run.sh" "$mnemo" "$seconds" 2>&1 | awk '
      /^==/ { route = $2 " " $3 }
      /50%/ { p50 = $2 }
      /99%/ { p99 = $2 }
      /Non-2xx/ { print "  non-2xx answers: " $0 }
      /Requests\/sec/ { printf "  %-16s %9s req/s  p50 %-9s p99 %s\n", route, $2, p50, p99 }'
  done
done
