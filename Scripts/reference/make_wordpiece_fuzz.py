"""Writes Fixtures/reference/wordpiece_fuzz.json: random mixed-script strings with the token ids
the Hugging Face fast tokenizer of all-MiniLM-L6-v2 gives them (no special tokens, no truncation).

Usage: python make_wordpiece_fuzz.py MODEL_DIR OUT_JSON   (needs the `tokenizers` package)
"""
import json, random, sys
from tokenizers import Tokenizer

model_dir, out = sys.argv[1], sys.argv[2]
tok = Tokenizer.from_file(model_dir + "/tokenizer.json")
tok.no_padding(); tok.no_truncation()
rng = random.Random(7)
pools = [
    (0x20, 0x7E), (0x00, 0x20), (0xA0, 0x17F), (0x300, 0x36F), (0x370, 0x3FF), (0x400, 0x4FF),
    (0x590, 0x6FF), (0x900, 0x97F), (0xE00, 0xE7F), (0x1100, 0x11FF), (0x2000, 0x206F),
    (0x20A0, 0x20CF), (0x2100, 0x214F), (0x2190, 0x22FF), (0x3000, 0x30FF), (0x4E00, 0x4E80),
    (0xAC00, 0xAC80), (0xFB00, 0xFB4F), (0xFE00, 0xFE6F), (0xFF00, 0xFFEF), (0xFFF0, 0xFFFF),
    (0x1D400, 0x1D4FF), (0x1F300, 0x1F6FF), (0x1F900, 0x1FAFF), (0xE0000, 0xE007F), (0xE000, 0xE010),
]
words = ["the", "user", "prefers", "coffee", "Braga", "naïve", "ÉCOLE", "don't", "e-mail", "2024-03-15"]
items = []
for i in range(600):
    parts = []
    for _ in range(rng.randint(1, 12)):
        if rng.random() < 0.35:
            parts.append(rng.choice(words))
        else:
            lo, hi = rng.choice(pools)
            parts.append("".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 6))))
        parts.append(rng.choice([" ", "", "  ", "\t", "\u00a0"]))
    text = "".join(parts)
    text = "".join(c for c in text if not (0xD800 <= ord(c) <= 0xDFFF))
    items.append({"text": text, "ids": tok.encode(text, add_special_tokens=False).ids})
json.dump({"generator": "Scripts/reference/make_wordpiece_fuzz.py", "tokenizer": "tokenizers " + __import__("tokenizers").__version__,
           "items": items}, open(out, "w", encoding="utf-8"), ensure_ascii=False, indent=0)
print(len(items), "items")
