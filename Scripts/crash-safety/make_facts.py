#!/usr/bin/env python3
"""Writes a deterministic JSONL input for the crash test: facts in topics with spelling variants
(for dedupe and merge to fold), exact duplicates and paraphrase pairs (for near-duplicate
merging), every record dated so that runs compare byte for byte.

usage: make_facts.py COUNT > facts.jsonl
"""
import json
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
rng = random.Random(14)
topics = ["Health & Fitness/Running", "Health and Fitness/Running", "Health and Fitness/Yoga",
          "Technology/iOS Development", "Technology/iOS development", "Food/Drinks", "Travel",
          "Family", "Work/Projects", "Hobbies/Climbing", "Hobbies/climbing"]
subjects = ["tea", "coffee", "Porto", "Lisbon", "SwiftUI", "Rust", "climbing", "sailing", "yoga",
            "chess", "jazz", "pottery", "Braga", "Kyoto", "marathons", "sourdough"]
verbs = ["likes", "dislikes", "wants to learn", "talked about", "visited", "practises", "read about"]
types = ["fact", "preference", "goal", "experience"]
importances = ["high", "medium", "low", "none"]
seen = []
for i in range(count):
    if seen and rng.random() < 0.05:
        record = dict(rng.choice(seen))  # an exact duplicate, maybe with new punctuation
        record["content"] = record["content"].rstrip(".") + ("." if rng.random() < 0.5 else "")
    elif seen and rng.random() < 0.05:
        record = dict(rng.choice(seen))  # a paraphrase: same words, different wrapper
        record["content"] = "The user " + record["content"][0].lower() + record["content"][1:]
    else:
        record = {
            "topic": rng.choice(topics),
            "content": f"{rng.choice(['User', 'She', 'He'])} {rng.choice(verbs)} {rng.choice(subjects)} "
                       f"(note {i}, day {rng.randint(1, 28)})",
            "type": rng.choice(types),
            "importance": rng.choice(importances),
            "confidence": round(rng.uniform(0.3, 1.0), 2),
            "source": f"conv-{i % 97}",
            "created_at": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:{i % 60:02d}:00Z",
        }
        seen.append(record)
    print(json.dumps(record, ensure_ascii=False))
