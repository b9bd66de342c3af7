#!/usr/bin/env bash
# Interleaved A/B rounds of the kernel paths in one release build: the portable Swift path
# (MNEMO_KERNELS=portable, the encoder and scan as they were before MnemoKernels) against the
# AVX2 and AVX-512 paths (KERNEL_PATHS="portable avx2" picks others; a path this CPU cannot run
# fails). Per round and path: `mnemo bench --encoder` (fixture facts, batch 32), the int8 and
# float semantic search on 100k synthetic facts, and the ingest of Fixtures/knowledge.jsonl with
# embeddings into a fresh database.
# Usage: Scripts/embedding-bench/kernels-ab.sh [ROUNDS]   (after: swift build -c release --product mnemo)
set -euo pipefail
rounds=${1:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
mnemo="$root/.build/release/mnemo"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for round in $(seq "$rounds"); do
  echo "round $round, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  for path in ${KERNEL_PATHS:-portable avx2 avx512}; do
    encoder=$(MNEMO_KERNELS=$path "$mnemo" bench --encoder --rounds 3 --json | python3 -c '
import json, sys; e = json.load(sys.stdin)["encoder"]
print("%.1f sentences/s, single p50 %.2f ms" % (e["sentences_per_second"], e["single_p50_ms"]))')
    scan=$(MNEMO_KERNELS=$path "$mnemo" bench --facts 100000 --queries 200 --only semantic_int8 --only semantic \
      --no-numpy --no-bandwidth --json | python3 -c '
import json, sys; b = json.load(sys.stdin)
print("int8 p50 %.2f ms, float p50 %.2f ms" % (b["semantic_int8"]["p50_ms"], b["semantic"]["p50_ms"]))')
    rm -f "$scratch/kb.sqlite"*
    start=$(date +%s.%N)
    MNEMO_KERNELS=$path "$mnemo" ingest "$root/Fixtures/knowledge.jsonl" --db "$scratch/kb.sqlite" > /dev/null 2>&1
    ingest=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)")
    printf '  %-8s encoder %s; search 100k: %s; ingest fixtures with embeddings %s s\n' "$path" "$encoder" "$scan" "$ingest"
  done
done
