"""Evidence recall of packing orders at token budgets, from the hybrid hits
`mnemo eval --relevance-pairs` writes: how a context could choose among the hits, against the
hits packed in rank order (the baseline of `mnemo eval --context-budget`).

    python3 Scripts/relevance-fit/pack.py PAIRS.jsonl [CATEGORIES.tsv] [a b c]

a b c: combined coefficients to score hits with (default: the relevance the file holds, else
Relevance.combinedCoefficients).
Each strategy orders the hits, then adds each that still fits (a line's tokens, one topic
heading first), as the context packer does."""
import json, sys
from collections import defaultdict
import numpy as np


def estimate(text):
    """Mnemo's TokenEstimator."""
    total = word = digits = spaces = 0
    def end(next_char):
        nonlocal total, word, digits, spaces
        if word: total += 20 + 4 * (word - 1); word = 0
        if digits: total += 20 * ((digits + 2) // 3); digits = 0
        if spaces:
            if not (spaces == 1 and next_char is not None and next_char.isascii() and next_char.isalpha()): total += 20
            spaces = 0
    for ch in text:
        if ch.isascii() and ch.isalpha():
            if word == 0: end(ch)
            word += 1
        elif '0' <= ch <= '9':
            if digits == 0: end(ch)
            digits += 1
        elif ch == ' ':
            if spaces == 0: end(ch)
            spaces += 1
        else:
            end(ch)
            n = len(ch.encode())
            total += {1: 20, 2: 25, 3: 40}.get(n, 60)
    end(None)
    return (total + 19) // 20


def pack(order, budget, heading):
    used, chosen = heading, []
    if heading > budget: return []
    for r in order:
        if used + r['tokens'] <= budget:
            used += r['tokens']; chosen.append(r)
    return chosen


def main():
    rows = [json.loads(l) for l in open(sys.argv[1])]
    rows = [r for r in rows if r['mode'] == 'hybrid']
    categories = {}
    if len(sys.argv) > 2 and sys.argv[2].endswith('.tsv'):
        for line in open(sys.argv[2]).read().splitlines()[1:]:
            f = line.split('\t'); categories[f[0]] = f[-1]
    coefficients = [float(x) for x in sys.argv[3:6]] if len(sys.argv) >= 6 else None
    name = rows[0]['set']
    heading = estimate(f'## BEIR/{name}\n')
    queries = defaultdict(list)
    for r in rows:
        if coefficients:
            a, b, c = coefficients
            r['p'] = 1 / (1 + np.exp(-(a + b * r['cosine'] + c * (r.get('share') or 0))))
        elif r.get('relevance') is not None:
            r['p'] = r['relevance']
        else:
            r['p'] = 1 / (1 + np.exp(-(-7.019 + 4.866 * r['cosine'] + 4.277 * (r.get('share') or 0))))
        queries[r['query']].append(r)
    for q in queries.values(): q.sort(key=lambda r: r['rank'])
    t = 0.2  # SearchHit.defaultRelevanceThreshold
    strategies = {
        'rank order (top-k, the context)': lambda q: q,
        'relevance order': lambda q: sorted(q, key=lambda r: -r['p']),
        'relevance / tokens (knapsack)': lambda q: sorted(q, key=lambda r: -r['p'] / r['tokens']),
        'relevance >= t first, then rank': lambda q: sorted([r for r in q if r['p'] >= t], key=lambda r: -r['p'])
            + [r for r in q if r['p'] < t],
        'only relevance >= t (the old part 2)': lambda q: sorted([r for r in q if r['p'] >= t], key=lambda r: -r['p']),
        'oracle (evidence first)': lambda q: sorted(q, key=lambda r: -r['label']),
    }
    budgets = [256, 512, 1024, 2048]
    print(f'{name}: {len(queries)} queries, heading {heading} tokens')
    print(f'{"strategy":<32}' + ''.join(f'{b:>8}' for b in budgets))
    results = {}
    for label, order in strategies.items():
        per = {b: {} for b in budgets}
        for qid, q in queries.items():
            judged = q[0]['judged']
            if judged == 0: continue
            for b in budgets:
                per[b][qid] = sum(r['evidence'] for r in pack(order(q), b, heading)) / judged
        results[label] = per
        print(f'{label:<32}' + ''.join(f'{np.mean(list(per[b].values())):8.3f}' for b in budgets))
    if categories:
        for category in sorted(set(categories.values())):
            print(f'-- {category}')
            for label, per in results.items():
                print(f'  {label:<30}' + ''.join(
                    f'{np.mean([v for k, v in per[b].items() if categories.get(k) == category]):8.3f}' for b in budgets))


if __name__ == '__main__':
    main()
