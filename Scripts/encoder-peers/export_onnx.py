"""Exports a sentence-transformers BERT folder's transformer to ONNX (last hidden state, dynamic batch
and length), for peers.py; then checks that ONNX Runtime gives sentence-transformers' vectors.

Usage: export_onnx.py MODEL_DIR OUT.onnx
"""
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy
import onnxruntime
import torch
from sentence_transformers import SentenceTransformer
from transformers import AutoModel, AutoTokenizer

model_dir, out = sys.argv[1], sys.argv[2]
model = AutoModel.from_pretrained(model_dir).eval()
tokenizer = AutoTokenizer.from_pretrained(model_dir)
sample = tokenizer(["a short text", "and a somewhat longer one to pad the other"], padding=True, return_tensors="pt")
names = [name for name in ("input_ids", "attention_mask", "token_type_ids") if name in sample]
dynamic = {name: {0: "batch", 1: "sequence"} for name in names}
dynamic["last_hidden_state"] = {0: "batch", 1: "sequence"}


class Hidden(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, *inputs):
        return self.model(**dict(zip(names, inputs))).last_hidden_state


with torch.inference_mode():
    torch.onnx.export(Hidden(model), tuple(sample[n] for n in names), out, input_names=names,
                      output_names=["last_hidden_state"], dynamic_axes=dynamic, opset_version=17, dynamo=False)

# The exported graph must give the reference's vectors.
texts = ["I drink tea instead of coffee", "my aunt lives in Braga and visits every summer", "ok"]
reference = SentenceTransformer(model_dir, device="cpu").encode(texts, normalize_embeddings=True)
session = onnxruntime.InferenceSession(out, providers=["CPUExecutionProvider"])
batch = tokenizer(texts, padding=True, return_tensors="np")
hidden = session.run(None, {n: batch[n].astype(numpy.int64) for n in names})[0]
mask = batch["attention_mask"][..., None].astype(numpy.float32)
pooled = (hidden * mask).sum(axis=1) / mask.sum(axis=1)
pooled /= numpy.linalg.norm(pooled, axis=1, keepdims=True)
cosines = (pooled * reference).sum(axis=1)
assert cosines.min() > 0.9999, f"the ONNX export does not match sentence-transformers: cosines {cosines}"
print(f"exported {out}; cosine with sentence-transformers ≥ {cosines.min():.6f}")
