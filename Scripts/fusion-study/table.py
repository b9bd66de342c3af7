"""Every candidate on every set: SciFact and LoCoMo (nDCG@10 / Recall@10, eval depth 303 of 101), fixture keyword and
paraphrase (recall@10 / MRR@10, depth 50 of 10, as FixtureRetrievalTests)."""
import sys
from fusion import *
which = sys.argv[1]
cands = [('text only', None, 'text'), ('semantic only', None, 'semantic'),
         ('rrf k=60', 'rrf(60)', 'hybrid'), ('cos + 0.6·bm25/(bm25+32) (old standard)', 'saturated()', 'hybrid'),
         ('cos + 0.2·bm25/(bm25+16)', 'saturated(0.2,16)', 'hybrid'),
         ('0.7·cos + 0.3·bm25/max (reference proposed at the start)', 'maxnorm(0.3)', 'hybrid'),
         ('min-max both lists, w 0.5', 'mm(0.5)', 'hybrid'),
         ('z-score, w 0.4', 'zscore(0.4)', 'hybrid'),
         ('distribution-based (μ±3σ), w 0.3', 'dbsf(0.3)', 'hybrid'),
         ('cos/max + bm25/max, w 0.35', 'gen(0.35,cov="none")', 'hybrid'),
         ('… × coverage (count), w 0.35', 'gen(0.35,cov="count")', 'hybrid'),
         ('… × coverage (IDF), w 0.35', 'gen(0.35)', 'hybrid'),
         ('… × coverage² (IDF), w 0.3', 'gen(0.3,p=2)', 'hybrid'),
         ('… × coverage² (IDF), w 0.35 (new standard)', 'gen(0.35,p=2)', 'hybrid'),
         ('… × coverage² (IDF), w 0.4', 'gen(0.4,p=2)', 'hybrid')]
if which == 'fixtures':
    P = Prepared(Dataset(beir_folder('fixtures'), 'fixtures-beir-*')); covered.P = P
    for name, spec, mode in cands:
        out = []
        for sub in [lambda q: q.startswith('keyword'), lambda q: q.startswith('paraphrase')]:
            m, _ = metrics(P, run(P, eval(spec) if spec else None, depth=50, limit=10, mode=mode, subset=sub), subset=sub)
            out.append('%.3f / %.3f' % (m[1], m[3]))
        print(name, '|', ' | '.join(out), flush=True)
else:
    folder = beir_folder(which)
    P = Prepared(Dataset(folder, which.replace('locomo', 'locomo-dev') + '-*')); covered.P = P
    for name, spec, mode in cands:
        m, _ = metrics(P, run(P, eval(spec) if spec else None, mode=mode))
        print(name, '|', '%.3f / %.3f' % (m[0], m[1]), flush=True)
