"""Per-hit word coverage: the IDF-weighted share of the query's words (phrases) a text hit itself
matches, as a second signal beside the query's coverage. Prints every candidate on every set:
SciFact and LoCoMo nDCG@10 / Recall@10, fixture keyword and paraphrase recall@10 / MRR@10."""
import sys
from fusion import *

def matched_shares(P):
    """P.match[qi]: fact index -> matched IDF share, for every fact matching any of the query's phrases."""
    db = P.ds.fts()
    n = len(P.ds.facts)
    P.match = []
    for qi, ph in enumerate(P.phr):
        shares = {}
        if ph:
            idfs, sets = [], []
            for p in ph:
                rows = [r[0] - 1 for r in db.execute('select rowid from fact_fts where fact_fts match ?', ('"' + ' '.join(p) + '"',))]
                m = len(rows)
                # As Mnemo's TextSearcher.wordCoverage: an absent word weighs ln((N + 0.5) / 0.5).
                idfs.append(max(math.log((n - m + 0.5) / (m + 0.5)), 1e-6))
                sets.append(rows)
            total = sum(idfs)
            for i, rows in zip(idfs, sets):
                for f in rows: shares[f] = shares.get(f, 0) + i / total
        P.match.append(shares)

def hit(w, p=2, q=1.0):
    """gen(w, p) with each text hit's bm25/best times (its matched share / the best share among text hits)^q."""
    def f(c, b, sr, tr, bound, qi):
        P = covered.P
        k = P.cover_idf[qi] ** p
        cc = c / c.max()
        m = b.max()
        if m <= 0: return cc
        ids = f.ids
        share = np.array([P.match[qi].get(int(i), 0.0) for i in ids])
        best = share.max()
        bb = b / m * ((share / best) ** q if best > 0 else 0)
        return (1 - w * k) * cc + w * k * bb
    return f

if __name__ != '__main__': cands = []
else: cands = sys.argv[2:] or ['gen(0.35,p=2)', 'hit(0.35)', 'hit(0.4)', 'hit(0.45)', 'hit(0.5)', 'hit(0.4,q=2)', 'hit(0.5,q=2)']
which = sys.argv[1] if __name__ == '__main__' else None
if which is None: pass
elif which == 'fixtures':
    P = Prepared(Dataset(beir_folder('fixtures'), 'fixtures-beir-*'))
else:
    folder = beir_folder(which)
    P = Prepared(Dataset(folder, which.replace('locomo', 'locomo-dev') + '-*'))
if which: covered.P = P; matched_shares(P)
for spec in cands:
    if which == 'fixtures':
        out = []
        for sub in [lambda q: q.startswith('keyword'), lambda q: q.startswith('paraphrase')]:
            m, _ = metrics(P, run(P, eval(spec), depth=50, limit=10, subset=sub), subset=sub)
            out.append('%.3f / %.3f' % (m[1], m[3]))
        print(spec, '|', ' | '.join(out), flush=True)
    else:
        m, _ = metrics(P, run(P, eval(spec)))
        print(spec, '|', '%.4f / %.4f' % (m[0], m[1]), flush=True)
