"""One round of the encoder's peers on a file of texts, as `mnemo bench --encoder --json` times Mnemo.

Usage: peers.py (torch|onnx) MODEL_DIR TEXTS_FILE ONNX_FILE [--threads N] [--batch N] [--rounds N]

`torch` is sentence-transformers on PyTorch; `onnx` is the same model exported to ONNX (by
export_onnx.py) in ONNX Runtime with full graph optimisation, its tokenizer the model folder's fast
tokenizer, mean pooling and normalisation in numpy. Both run one untimed pass, `--rounds` timed
passes over all the texts in batches (tokenizing included, as in Mnemo), then every text alone.
Prints one JSON object: sentences/s of the best and median round, and the p50/p95 of one text.
"""
import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("peer", choices=["torch", "onnx"])
    parser.add_argument("model")
    parser.add_argument("texts")
    parser.add_argument("onnx_file")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    return parser.parse_args()


def torch_encoder(args):
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(args.threads)
    model = SentenceTransformer(args.model, device="cpu")

    def encode(texts):
        with torch.inference_mode():
            return model.encode(texts, batch_size=args.batch, normalize_embeddings=True)

    return encode, f"torch {torch.__version__}"


def onnx_encoder(args):
    import numpy
    import onnxruntime
    from transformers import AutoTokenizer

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = onnxruntime.InferenceSession(args.onnx_file, options, providers=["CPUExecutionProvider"])
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    names = {i.name for i in session.get_inputs()}

    def encode(texts):
        vectors = []
        for start in range(0, len(texts), args.batch):
            batch = tokenizer(texts[start : start + args.batch], padding=True, truncation=True, max_length=256,
                              return_tensors="np")
            feeds = {k: v.astype(numpy.int64) for k, v in batch.items() if k in names}
            hidden = session.run(None, feeds)[0]
            mask = batch["attention_mask"][..., None].astype(numpy.float32)
            pooled = (hidden * mask).sum(axis=1) / numpy.maximum(mask.sum(axis=1), 1e-9)
            vectors.append(pooled / numpy.linalg.norm(pooled, axis=1, keepdims=True))
        return numpy.concatenate(vectors)

    return encode, f"onnxruntime {onnxruntime.__version__}"


def main():
    args = parse()
    texts = [line.strip() for line in open(args.texts, encoding="utf-8") if line.strip()]
    encode, version = (torch_encoder if args.peer == "torch" else onnx_encoder)(args)
    encode(texts)
    rounds = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        encode(texts)
        rounds.append(time.perf_counter() - start)
    single = []
    for text in texts:
        start = time.perf_counter()
        encode([text])
        single.append((time.perf_counter() - start) * 1000)
    single.sort()
    json.dump({
        "peer": args.peer, "version": version, "texts": len(texts), "threads": args.threads, "batch": args.batch,
        "best_sentences_per_second": len(texts) / min(rounds),
        "sentences_per_second": len(texts) / statistics.median(rounds),
        "single_p50_ms": single[(len(single) - 1) // 2], "single_p95_ms": single[int(0.95 * (len(single) - 1))],
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()
