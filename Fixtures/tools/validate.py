#!/usr/bin/env python3
"""Checks the hand-written fixtures in Fixtures/ for internal consistency.

Run from anywhere: python3 Fixtures/tools/validate.py
Exits non-zero and prints every problem if something is off.
"""
import collections
import json
import re
import sys
import unicodedata
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPES = {"fact", "preference", "goal", "experience"}
IMPORTANCES = {"high", "medium", "low", "none"}
MAX_CONTENT = 4096
problems = []


def fail(msg):
    problems.append(msg)


def fold(text):
    """Lower-case, strip diacritics, collapse whitespace."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.lower().split())


def norm_content(text):
    """Normalization used for exact duplicates: fold + drop trailing punctuation."""
    return re.sub(r"[\s.!?;:,]+$", "", fold(text))


def norm_topic(path):
    return "/".join(fold(seg) for seg in path.split("/"))


def parse_date(value):
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- knowledge.jsonl
KEYS = ["topic", "content", "type", "importance", "confidence", "source", "created_at"]
facts = []
for n, line in enumerate((ROOT / "knowledge.jsonl").read_text(encoding="utf-8").splitlines(), 1):
    obj = json.loads(line)
    facts.append(obj)
    if list(obj) != KEYS:
        fail(f"knowledge.jsonl:{n}: keys {list(obj)}")
    if obj["type"] not in TYPES or obj["importance"] not in IMPORTANCES:
        fail(f"knowledge.jsonl:{n}: bad type/importance")
    c = obj["confidence"]
    if not (isinstance(c, float) and 0 <= c <= 1 and round(c, 2) == c):
        fail(f"knowledge.jsonl:{n}: confidence {c}")
    d = parse_date(obj["created_at"])
    if not d or d.year != 2025:
        fail(f"knowledge.jsonl:{n}: created_at {obj['created_at']}")
    if not re.fullmatch(r"conv-\d{3}", obj["source"]):
        fail(f"knowledge.jsonl:{n}: source {obj['source']}")
    segs = obj["topic"].split("/")
    if not 1 <= len(segs) <= 3 or any(not s.strip() for s in segs):
        fail(f"knowledge.jsonl:{n}: topic {obj['topic']}")
    words = len(obj["content"].split())
    if not 5 <= words <= 40:
        fail(f"knowledge.jsonl:{n}: {words} words")

contents = [f["content"] for f in facts]
index = {c: i for i, c in enumerate(contents)}
if len(index) != len(contents):
    fail("knowledge.jsonl: a content string occurs twice verbatim")
topics = {norm_topic(f["topic"]) for f in facts}
types = collections.Counter(f["type"] for f in facts)
imps = collections.Counter(f["importance"] for f in facts)
if len(facts) < 330:
    fail(f"knowledge.jsonl: only {len(facts)} facts")
if len(topics) < 32:
    fail(f"knowledge.jsonl: only {len(topics)} topics")
if set(types) != TYPES or min(types.values()) < 30:
    fail(f"knowledge.jsonl: types {types}")
if set(imps) != IMPORTANCES or min(imps.values()) < 30:
    fail(f"knowledge.jsonl: importances {imps}")
if sum("swiftui" in c.lower() for c in contents) < 3:
    fail("knowledge.jsonl: fewer than 3 facts mention SwiftUI")
if sorted(f["created_at"] for f in facts) != [f["created_at"] for f in facts]:
    fail("knowledge.jsonl: lines are not in created_at order")

# ---------------------------------------------------------------- duplicates.json
dups = json.loads((ROOT / "duplicates.json").read_text(encoding="utf-8"))
expected_counts = {"exact": 6, "paraphrases": 12, "distinct": 12}
seen_in_pairs = set()
for kind, count in expected_counts.items():
    if len(dups[kind]) != count:
        fail(f"duplicates.json: {kind} has {len(dups[kind])} pairs")
    for a, b in dups[kind]:
        if a not in index or b not in index:
            fail(f"duplicates.json: {kind} pair not in knowledge.jsonl: {a!r} / {b!r}")
            continue
        fa, fb = facts[index[a]], facts[index[b]]
        if index[a] >= index[b]:
            fail(f"duplicates.json: second of pair comes first: {b!r}")
        if fa["type"] != fb["type"]:
            fail(f"duplicates.json: {kind} pair with different types: {a!r}")
        if fa["source"] == fb["source"]:
            fail(f"duplicates.json: pair from the same conversation: {a!r}")
        same = norm_content(a) == norm_content(b)
        if same != (kind == "exact"):
            fail(f"duplicates.json: {kind} pair normalizes {'differently' if kind == 'exact' else 'equally'}: {a!r} / {b!r}")
        if kind == "exact" and a == b:
            fail(f"duplicates.json: exact pair is byte-identical: {a!r}")
        for c in (a, b):
            if c in seen_in_pairs:
                fail(f"duplicates.json: content used in two pairs: {c!r}")
            seen_in_pairs.add(c)
all_norm = collections.Counter(norm_content(c) for c in contents)
if sum(v - 1 for v in all_norm.values()) != len(dups["exact"]):
    fail("knowledge.jsonl: exact duplicates other than the planted ones")
topic_paths = {f["topic"] for f in facts}
for a, b in dups["topic_variants"]:
    if a not in topic_paths or b not in topic_paths or norm_topic(a) == norm_topic(b):
        fail(f"duplicates.json: topic variant {a!r} / {b!r}")

# ---------------------------------------------------------------- queries.json
STOP3 = {"the", "and", "for", "you", "how", "did", "was", "are", "who", "not", "its",
         "has", "had", "but", "any", "can", "all", "our", "out", "she", "him", "his",
         "her", "get", "got", "per", "off", "one", "own", "too", "why", "use"}


def brief_words(text):
    """Words of length >= 4 after stripping s/es/ing/ed (the fixtures' rule for shared words)."""
    out = set()
    for w in re.findall(r"[a-z0-9]+", fold(text)):
        for suf in ("ing", "ed", "es", "s"):
            if w.endswith(suf) and len(w) > len(suf) + 1:
                w = w[: -len(suf)]
                break
        if len(w) >= 4:
            out.add(w)
    return out


def stem(w):
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    else:
        for suf in ("ing", "ed", "es", "s"):
            if w.endswith(suf) and len(w) - len(suf) >= 3:
                w = w[: -len(suf)]
                break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


def strict_words(text):
    """Stricter: also 3-letter stems ("run" vs "running"), numbers, e-dropping."""
    out = set()
    for w in re.findall(r"[a-z0-9]+", fold(text)):
        s = stem(w)
        if len(w) >= 4 or (len(s) >= 3 and w not in STOP3) or w.isdigit():
            out.add(s)
    return out


queries = json.loads((ROOT / "queries.json").read_text(encoding="utf-8"))
merged_away = {c for k in ("exact", "paraphrases") for pair in dups[k] for c in pair}
for kind in ("keyword", "paraphrase"):
    if len(queries[kind]) < 25:
        fail(f"queries.json: only {len(queries[kind])} {kind} queries")
    for q in queries[kind]:
        exp = q["expected"]
        if not 1 <= len(exp) <= 3:
            fail(f"queries.json: {q['query']!r} has {len(exp)} expected")
        for e in exp:
            if e not in index:
                fail(f"queries.json: expected not in knowledge.jsonl: {e!r}")
            if e in merged_away:
                fail(f"queries.json: expected is a planted duplicate: {e!r}")
            shared = (brief_words(q["query"]) | strict_words(q["query"])) & (brief_words(e) | strict_words(e))
            if kind == "paraphrase" and shared:
                fail(f"queries.json: paraphrase {q['query']!r} shares {shared} with {e!r}")
            if kind == "keyword" and not strict_words(q["query"]) & strict_words(e):
                fail(f"queries.json: keyword {q['query']!r} shares nothing with {e!r}")
    if len({q["query"] for q in queries[kind]}) != len(queries[kind]):
        fail(f"queries.json: repeated {kind} query")

# ---------------------------------------------------------------- samples
S = ROOT / "samples"
ext = json.loads((S / "extracted.json").read_text(encoding="utf-8"))["extracted"]
arr = json.loads((S / "extracted_array.json").read_text(encoding="utf-8"))
for rec in ext + arr:
    if not isinstance(rec.get("content"), str) or not rec["content"].strip():
        fail(f"extracted: bad content {rec}")
    if not isinstance(rec.get("category"), str) or not 0 <= rec.get("confidence", -1) <= 1:
        fail(f"extracted: bad record {rec}")
    if rec.get("type", "fact") not in TYPES or rec.get("importance", "low") not in IMPORTANCES:
        fail(f"extracted: bad type/importance {rec}")

tree = json.loads((S / "topics.json").read_text(encoding="utf-8"))
tree_facts = 0


def walk(node, depth):
    global tree_facts
    if depth > 3:
        fail(f"topics.json: depth {depth} at {node.get('name') or node.get('path')}")
    for f in node.get("facts", []):
        tree_facts += 1
        if f.get("type", "fact") not in TYPES or f.get("importance", "low") not in IMPORTANCES:
            fail(f"topics.json: bad fact {f}")
    for child in node.get("children", []):
        if "/" in child["name"]:
            fail(f"topics.json: child name with '/': {child['name']}")
        walk(child, depth + 1)


for top in tree["topics"]:
    walk(top, len(top["path"].split("/")))

sample_lines = [json.loads(l) for l in (S / "facts.jsonl").read_text(encoding="utf-8").splitlines()]
known = set(KEYS) | {"namespace"}
if sum(r.get("namespace") == "user-2" for r in sample_lines) != 2:
    fail("facts.jsonl: expected two user-2 lines")
if sum(bool(set(r) - known) for r in sample_lines) != 1:
    fail("facts.jsonl: expected one line with an unknown field")


# ---------------------------------------------------------------- bad records
def verdict(raw: bytes):
    """Reference classification of one jsonl line (one fault per bad line)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "invalid_utf8"
    if not text.strip():
        return "blank"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return "invalid_json"
    if not isinstance(obj, dict):
        return "not_an_object"
    if "content" not in obj:
        return "missing_content"
    c = obj["content"]
    if not isinstance(c, str):
        return "wrong_field_type"
    if not c.strip():
        return "empty_content"
    if len(c) > MAX_CONTENT:
        return "content_too_long"
    for key in ("topic", "type", "importance", "source", "namespace", "created_at"):
        if key in obj and not isinstance(obj[key], str):
            return "wrong_field_type"
    if "type" in obj and obj["type"] not in TYPES:
        return "unknown_type"
    if "importance" in obj and obj["importance"] not in IMPORTANCES:
        return "unknown_importance"
    if "confidence" in obj:
        v = obj["confidence"]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return "confidence_not_number"
        if not 0 <= v <= 1:
            return "confidence_out_of_range"
    if "created_at" in obj and not parse_date(obj["created_at"]):
        return "bad_date"
    if "topic" in obj and (not obj["topic"].strip() or any(not s.strip() for s in obj["topic"].split("/"))):
        return "bad_topic"
    return "ok"


CODES = {"ok", "blank", "invalid_json", "not_an_object", "missing_content", "empty_content",
         "content_too_long", "wrong_field_type", "unknown_type", "unknown_importance",
         "confidence_out_of_range", "confidence_not_number", "bad_date", "bad_topic", "invalid_utf8"}
for name in ("bad_records", "bad_utf8"):
    raw_lines = (S / f"{name}.jsonl").read_bytes().split(b"\n")
    if raw_lines[-1] == b"":
        raw_lines.pop()
    exp = json.loads((S / f"{name}.expected.json").read_text(encoding="utf-8"))
    got = {str(i): verdict(l) for i, l in enumerate(raw_lines, 1)}
    if got != exp["lines"]:
        for k in sorted(set(got) | set(exp["lines"]), key=int):
            if got.get(k) != exp["lines"].get(k):
                fail(f"{name}: line {k}: expected {exp['lines'].get(k)}, reference says {got.get(k)}")
    if exp["good"] != sum(v == "ok" for v in got.values()):
        fail(f"{name}: good count")
    if set(exp["lines"].values()) - CODES:
        fail(f"{name}: unknown codes {set(exp['lines'].values()) - CODES}")
bad_codes = set(json.loads((S / "bad_records.expected.json").read_text())["lines"].values())
missing = CODES - bad_codes - {"invalid_utf8"}
if missing:
    fail(f"bad_records: no line for {missing}")

# ---------------------------------------------------------------- report
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"knowledge.jsonl: {len(facts)} facts, {len(topics)} topics, types {dict(types)}, importance {dict(imps)}")
print(f"duplicates.json: {', '.join(f'{k} {len(v)}' for k, v in dups.items())}")
print(f"queries.json: keyword {len(queries['keyword'])}, paraphrase {len(queries['paraphrase'])}")
print(f"samples: extracted {len(ext)} + array {len(arr)}, topics tree {tree_facts} facts, facts.jsonl {len(sample_lines)} lines")
print("all fixtures OK")
