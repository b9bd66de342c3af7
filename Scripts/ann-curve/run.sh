#!/usr/bin/env bash
# The graph index's recall-latency curve beside faiss's and usearch's HNSW from the same run, drawn
# as ann-benchmarks draws results: `mnemo bench --json` at FACTS facts (the semantic variant for
# the exact scan and its top 10, semantic_ann for the graph and its curve, the peers through
# --peers-python), then plot.py into SVG.
#
# Usage: Scripts/ann-curve/run.sh [FACTS] [QUERIES] [SVG]
#   FACTS    facts of the synthetic corpus (default 100000)
#   QUERIES  timed queries per point (default 500)
#   SVG      the figure (default Sources/Mnemo/Mnemo.docc/Resources/ann-curve-FACTS.svg)
# Environment: VENV (a virtualenv with faiss-cpu, usearch, matplotlib and numpy; made in
#   /tmp/ann-venv when missing), MNEMO_BINARY (default the release build's), OUT (where the bench's
#   JSON is kept, default a temporary file), CPU_LABEL (the CPU in the title; default the bench
#   JSON's machine).
# Needs a release build: swift build -c release --build-tests -Xswiftc -enable-testing
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
facts=${1:-100000}
queries=${2:-500}
svg=${3:-$root/Sources/Mnemo/Mnemo.docc/Resources/ann-curve-$((facts / 1000))k.svg}
venv=${VENV:-/tmp/ann-venv}
mnemo=${MNEMO_BINARY:-$root/.build/release/mnemo}
[ -x "$mnemo" ] || { echo "build first: swift build -c release --build-tests -Xswiftc -enable-testing" >&2; exit 1; }
json=${OUT:-$(mktemp --suffix=.json)}

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q faiss-cpu usearch matplotlib numpy
fi

"$mnemo" bench --facts "$facts" --queries "$queries" --only semantic --only semantic_ann \
  --no-numpy --no-bandwidth --peers-python "$venv/bin/python" --json > "$json"
"$venv/bin/python" "$root/Scripts/ann-curve/plot.py" "$json" "$svg" ${CPU_LABEL:+--cpu "$CPU_LABEL"}
echo "bench JSON: $json" >&2
echo "figure: $svg" >&2
