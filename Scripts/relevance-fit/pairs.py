"""Writes the labelled query-fact pairs of one BEIR set as `mnemo eval --relevance-pairs` does, from
the eval's embedding cache and the fusion study's reconstruction of Mnemo's searches (an FTS5 index
made like Mnemo's, the cached MiniLM vectors, the standard fusion `hit(0.35)`, each text hit's word
share): no Swift build needed. Its top-k packing reproduces `mnemo eval --context-budget`'s
`topk_evidence_recall` on LoCoMo to the last digit.

    python3 Scripts/relevance-fit/pairs.py BEIR_FOLDER CACHE_PATTERN OUT.jsonl
    # e.g. .../locomo-dev 'locomo-dev-*' locomo.jsonl; .../scifact 'scifact-*' scifact.jsonl;
    #      .build/fusion-study/fixtures-beir 'fixtures-beir-*' fixtures.jsonl

Run `mnemo eval --beir BEIR_FOLDER --mode semantic` once first: it fills the cache
(~/.cache/mnemo/eval). Rows: the 101 hybrid hits and the first 30 semantic and text hits of every
judged query, with cosine, word share, the cost of the fact's line in a context, and the label."""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'fusion-study'))
from fusion import *
from fusion import covered
from matched import matched_shares, hit
from pack import estimate

folder, cache_pattern, out = sys.argv[1], sys.argv[2], sys.argv[3]
ds = Dataset(folder, cache_pattern)
P = Prepared(ds)
covered.P = P
matched_shares(P)


def line_tokens(f):
    """The cost of the fact's context line; every date costs the same."""
    content = ' '.join(x.strip() for x in ds.facts[f].splitlines())
    return estimate(f'- {content} (fact, stated 2023-05-08)\n')


lists = {'hybrid': run(P, hit(0.35), limit=101), 'semantic': run(P, None, limit=30, mode='semantic'),
         'text': run(P, None, limit=30, mode='text')}
with open(out, 'w') as fh:
    for qi, (qid, _) in enumerate(ds.queries):
        evidence = {d for d, g in ds.qrels.get(qid, {}).items() if g > 0}
        for mode, rankings in lists.items():
            for rank, (f, score) in enumerate(rankings.get(qid, [])):
                matched = len(evidence & set(ds.fact_docs[f]))
                fh.write(json.dumps(dict(
                    set=ds.name, query=qid, mode=mode, rank=rank + 1, score=score, cosine=float(P.cos[qi][f]),
                    share=None if mode == 'semantic' else P.match[qi].get(f, 0.0), tokens=line_tokens(f),
                    label=int(matched > 0), evidence=matched, judged=len(evidence))) + '\n')
