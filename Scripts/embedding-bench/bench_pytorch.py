"""PyTorch sentence-transformers throughput on facts.txt, for comparison with the Swift encoder.

Usage: python bench_pytorch.py MODEL_DIR [THREADS] [BATCH]
Prints sentences/second (best and median of 5 runs of encoding all facts) after one warm-up run,
and the mean time to encode one fact alone.
"""
import sys, time
import torch
from sentence_transformers import SentenceTransformer

model_dir = sys.argv[1]
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
batch = int(sys.argv[3]) if len(sys.argv) > 3 else 32
torch.set_num_threads(threads)
facts = [l.rstrip("\n") for l in open(__file__.rsplit("/", 1)[0] + "/facts.txt", encoding="utf-8") if l.strip()]
model = SentenceTransformer(model_dir, device="cpu")
tokens = sum(len(model.tokenize([f])["input_ids"][0]) for f in facts)
with torch.inference_mode():
    model.encode(facts, batch_size=batch, normalize_embeddings=True)
    times = []
    for _ in range(5):
        t = time.perf_counter()
        model.encode(facts, batch_size=batch, normalize_embeddings=True)
        times.append(time.perf_counter() - t)
    start = time.perf_counter()
    for fact in facts[:32]:
        model.encode([fact], normalize_embeddings=True)
    single = (time.perf_counter() - start) / 32
best = min(times)
print(f"pytorch {torch.__version__} threads={threads} batch={batch} facts={len(facts)} tokens={tokens} "
      f"best={best*1000:.1f} ms median={sorted(times)[2]*1000:.1f} ms -> {len(facts)/best:.1f} sentences/s "
      f"(median {len(facts)/sorted(times)[2]:.1f}); one text alone: {single*1000:.2f} ms")
