#!/usr/bin/env bash
# Interleaved throughput runs of the Swift encoder (default SSE2 build and an AVX2 build) and of
# PyTorch sentence-transformers, on Scripts/embedding-bench/facts.txt (320 facts, batch 32, 2 threads).
# Usage: Scripts/embedding-bench/compare.sh MODEL_DIR PYTHON_WITH_SENTENCE_TRANSFORMERS [ROUNDS]
# Builds must exist: swift test -c release (default) and
#   swift test -c release --scratch-path .build-avx2 -Xswiftc -target-cpu -Xswiftc haswell
set -euo pipefail
model=$1 python=$2 rounds=${3:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
for round in $(seq "$rounds"); do
  echo "round $round, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  MNEMO_BENCH=1 MNEMO_MODEL=$model "$root/.build/release/MnemoPackageTests.xctest" --testing-library swift-testing \
    --filter EncoderThroughput 2>&1 | grep '^swift' | sed 's/^/  default build: /'
  [ -x "$root/.build-avx2/release/MnemoPackageTests.xctest" ] && MNEMO_BENCH=1 MNEMO_MODEL=$model \
    "$root/.build-avx2/release/MnemoPackageTests.xctest" --testing-library swift-testing \
    --filter EncoderThroughput 2>&1 | grep '^swift' | sed 's/^/  avx2 build:    /'
  "$python" "$root/Scripts/embedding-bench/bench_pytorch.py" "$model" 2 32 2>/dev/null | grep '^pytorch' | sed 's/^/  /'
done
