#!/usr/bin/env bash
# Mnemo's encoder beside its peers on the same texts and threads: `mnemo bench --encoder` on each
# kernel path asked for, sentence-transformers on PyTorch, and all-MiniLM-L6-v2 exported to ONNX in
# ONNX Runtime. Rounds are interleaved (every runner once per round) so that they share the
# machine's conditions; the summary keeps the best of each. Prints the CPU first: figures differ
# by CPU.
#
# Usage: Scripts/encoder-peers/run.sh [ROUNDS] [KERNEL_PATHS...]
#   ROUNDS        interleaved rounds (default 3); each runs every runner's 5 timed passes
#   KERNEL_PATHS  Mnemo paths to time (default: avx512 avx2 portable, those this CPU runs)
# Environment: MNEMO_MODEL (default ~/.cache/mnemo/models/all-MiniLM-L6-v2), THREADS (2),
#   BATCH (32), TEXTS (Scripts/embedding-bench/facts.txt), VENV (a virtualenv with torch,
#   sentence-transformers, onnxruntime and onnx; made in /tmp/mnemo-peers-venv when missing),
#   OUT (folder for the raw JSON lines, default a temporary one), MNEMO_BINARY (default the
#   release build's), MNEMO_BASELINE (another mnemo binary, say main's, timed on the same paths
#   in every round, before or after MNEMO_BINARY in turn, and reported as `baseline PATH`),
#   PEERS (default "torch onnx"; empty to time Mnemo alone).
# Needs a release build: swift build -c release --product mnemo
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
shift || true
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(avx512 avx2 portable)
model=${MNEMO_MODEL:-$HOME/.cache/mnemo/models/all-MiniLM-L6-v2}
threads=${THREADS:-2} batch=${BATCH:-32}
texts=${TEXTS:-$root/Scripts/embedding-bench/facts.txt}
venv=${VENV:-/tmp/mnemo-peers-venv}
out=${OUT:-$(mktemp -d)}
mnemo=${MNEMO_BINARY:-$root/.build/release/mnemo}
[ -x "$mnemo" ] || { echo "build first: swift build -c release --product mnemo" >&2; exit 1; }
baseline=${MNEMO_BASELINE:-}
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "MNEMO_BASELINE=$baseline is not an executable" >&2; exit 1; }
export HF_HUB_OFFLINE=1

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  # PyPI's default torch wheel brings the CUDA libraries (gigabytes); a CPU wheel, when one is at
  # hand (TORCH_WHEEL), is enough here.
  "$venv/bin/pip" install -q ${TORCH_WHEEL:-torch} sentence-transformers onnxruntime onnx
fi
python=$venv/bin/python
peers=${PEERS-torch onnx}
onnx=$out/model.onnx
case " $peers " in
  *" onnx "*) "$python" "$root/Scripts/encoder-peers/export_onnx.py" "$model" "$onnx" 2>/dev/null ;;
esac

# Kernel paths this CPU does not run are left out (mnemo refuses them with an error).
runnable=()
for path in "${paths[@]}"; do
  if MNEMO_MODEL=$model "$mnemo" bench --encoder --kernels "$path" --texts "$texts" --rounds 1 --json \
      > /dev/null 2> "$out/check-$path.txt"; then
    runnable+=("$path")
  else
    echo "skipping $path: $(tail -1 "$out/check-$path.txt")"
  fi
done

# A virtual machine may hide the marketing name; family, model and stepping still tell the CPU.
field() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'; }
echo "cpu: $(field 'model name') (family $(field 'cpu family'), model $(field model), stepping $(field stepping)), $(nproc) cores"
echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512[a-z_0-9]*|avx_vnni|amx[a-z_0-9]*)$' | sort | tr '\n' ' ')"
echo "texts: $texts ($(grep -c . "$texts") lines), batch $batch, threads $threads, $rounds rounds"
for round in $(seq "$rounds"); do
  echo "round $round (load $(cut -d' ' -f1-3 /proc/loadavg))"
  # With a baseline, the two binaries take turns at going first.
  binaries=("mnemo=$mnemo")
  if [ -n "$baseline" ]; then
    if [ $((round % 2)) -eq 1 ]; then binaries+=("baseline=$baseline"); else binaries=("baseline=$baseline" "${binaries[@]}"); fi
  fi
  for path in "${runnable[@]}"; do
    for entry in "${binaries[@]}"; do
      MNEMO_MODEL=$model "${entry#*=}" bench --encoder --kernels "$path" --threads "$threads" --batch "$batch" \
        --texts "$texts" --json | LABEL=${entry%%=*} "$python" -c 'import json,os,sys; r=json.load(sys.stdin)["encoder"]; r["peer"]=os.environ["LABEL"]+" "+r["isa"]; print(json.dumps(r))' \
        | tee -a "$out/results.jsonl"
    done
  done
  for peer in $peers; do
    # A peer that fails (its error in $out) leaves its round out rather than stopping the others.
    if "$python" "$root/Scripts/encoder-peers/peers.py" "$peer" "$model" "$texts" "$onnx" --threads "$threads" \
        --batch "$batch" > "$out/$peer.json" 2> "$out/$peer-errors.txt"; then
      tee -a "$out/results.jsonl" < "$out/$peer.json"
    else
      echo "$peer failed: $(tail -1 "$out/$peer-errors.txt")"
    fi
  done
done

"$python" - "$out/results.jsonl" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    b = best.setdefault(r["peer"], {"rate": 0, "single": float("inf")})
    b["rate"] = max(b["rate"], r["best_sentences_per_second"])
    b["single"] = min(b["single"], r["single_p50_ms"])
peers = {k: v for k, v in best.items() if not k.startswith(("mnemo", "baseline"))}
fastest = max((v["rate"] for v in peers.values()), default=None)
ort = best.get("onnx", {}).get("single")
print(f"\n{'runner':<26} {'sentences/s':>12} {'× faster peer':>14} {'one text p50':>13} {'× ONNX Runtime':>15}")
for name, b in best.items():
    ratio = f"{b['single'] / ort:.2f}" if ort else "-"
    faster = f"{b['rate'] / fastest:.2f}" if fastest else "-"
    print(f"{name:<26} {b['rate']:>12.1f} {faster:>14} {b['single']:>10.2f} ms {ratio:>15}")
PY
echo "raw results: $out/results.jsonl"
