"""Per-query candidate lists and fusion candidates, evaluated on BEIR sets and the fixture query sets."""
import math, sys
import numpy as np
from data import *

K1, B = 1.2, 0.75

class Prepared:
    """Per-query: cosine of every fact, the text list with BM25, the query's BM25 upper bound."""
    def __init__(self, ds, stop=STOP, fts_columns=None, doc_texts=None, depth=303):
        self.ds = ds
        db = ds.fts(fts_columns)
        n_docs = len(ds.facts)
        docvec = ds.vectors(doc_texts or ds.facts)
        qvec = ds.vectors([t for _, t in ds.queries])
        self.cos = qvec @ docvec.T
        self.text = []
        self.bound = []
        self.cover_count, self.cover_idf = [], []
        self.phr = []
        for qid, t in ds.queries:
            ph = phrases(t, stop)
            self.phr.append(ph)
            pat = pattern(ph) if ph else None
            self.text.append(bm25_list(db, pat, 100000))  # all matches, ranked
            # the best BM25 a fact could get: every phrase at its IDF, saturated tf -> (k1+1)... per phrase idf
            bound = 0.0
            nz_all = []
            if ph:
                for p in ph:
                    try:
                        n = db.execute('select count(*) from fact_fts where fact_fts match ?', ('"' + ' '.join(p) + '"',)).fetchone()[0]
                    except Exception:
                        n = 0
                    nz_all.append(n)
                    if n == 0: continue
                    idf = math.log((n_docs - n + 0.5) / (n + 0.5))
                    if idf <= 0: idf = 1e-6
                    bound += idf * (K1 + 1)
            self.bound.append(bound)
            idfs = [max(math.log((n_docs - n + 0.5) / (n + 0.5)), 1e-6) for n in nz_all]
            self.cover_count.append(sum(1 for n in nz_all if n > 0) / len(nz_all) if nz_all else 0)
            self.cover_idf.append(sum(i for i, n in zip(idfs, nz_all) if n > 0) / sum(idfs) if nz_all else 0)
        self.qids = [q for q, _ in ds.queries]

def run(prep, fuse, depth=303, limit=101, mode='hybrid', subset=None):
    rankings = {}
    for qi, qid in enumerate(prep.qids):
        if subset and not subset(qid): continue
        cos = prep.cos[qi]
        text = prep.text[qi]
        if mode == 'text':
            rankings[qid] = text[:limit]; continue
        sem_order = np.argsort(-cos, kind='stable')
        if mode == 'semantic':
            rankings[qid] = [(int(f), float(cos[f])) for f in sem_order[:limit]]; continue
        tl = text[:depth]
        cand = {}
        for r, f in enumerate(sem_order[:depth]): cand[int(f)] = [float(cos[f]), r + 1, None, 0.0]
        for r, (f, s) in enumerate(tl):
            c = cand.setdefault(f, [float(cos[f]), None, None, 0.0]); c[2] = r + 1; c[3] = s
        ids = np.array(list(cand.keys()))
        arr = np.array([cand[i] for i in ids], dtype=object)
        c_ = np.array([v[0] for v in arr], float)
        srank = np.array([v[1] if v[1] else 0 for v in arr], float)
        trank = np.array([v[2] if v[2] else 0 for v in arr], float)
        b_ = np.array([v[3] for v in arr], float)
        fuse.ids = ids  # for fusions that look candidates up (matched.py)
        score = fuse(c_, b_, srank, trank, prep.bound[qi], qi)
        order = sorted(range(len(ids)), key=lambda i: (-score[i], ids[i]))
        rankings[qid] = [(int(ids[i]), float(score[i])) for i in order[:limit]]
    return rankings

def metrics(prep, rankings, subset=None):
    ds = prep.ds
    saved = ds.qrels
    if subset: ds.qrels = {q: j for q, j in saved.items() if subset(q)}
    m, per = evaluate(ds, rankings)
    ds.qrels = saved
    return m, per

# --- fusions -------------------------------------------------------------------------------
def rrf(k=60):
    def f(c, b, sr, tr, bound, qi):
        return np.where(sr > 0, 1 / (k + sr), 0) + np.where(tr > 0, 1 / (k + tr), 0)
    return f

def saturated(w=0.6, s=32):
    return lambda c, b, sr, tr, bound, qi: c + w * np.maximum(b, 0) / (np.maximum(b, 0) + s)

def maxnorm(w):  # (1-w)·cos + w·bm25/max
    def f(c, b, sr, tr, bound, qi):
        m = b.max()
        return (1 - w) * c + w * (b / m if m > 0 else 0 * b)
    return f

def maxnorm_both(w):
    def f(c, b, sr, tr, bound, qi):
        m = b.max(); cm = c.max()
        return (1 - w) * c / cm + w * (b / m if m > 0 else 0 * b)
    return f

def minmax(w, over='list'):
    def f(c, b, sr, tr, bound, qi):
        cl = c[sr > 0] if over == 'list' else c
        cn = (c - cl.min()) / (cl.max() - cl.min() + 1e-12)
        m = b.max()
        bl = b[tr > 0]
        if m > 0 and len(bl) > 1:
            bn = np.where(tr > 0, (b - bl.min()) / (m - bl.min() + 1e-12), 0)
        else:
            bn = np.where(tr > 0, 1.0, 0.0) if m > 0 else 0 * b
        return (1 - w) * cn + w * bn
    return f

def zscore(w):
    def f(c, b, sr, tr, bound, qi):
        cl = c[sr > 0]
        cn = (c - cl.mean()) / (cl.std() + 1e-12)
        bl = b[tr > 0]
        if len(bl) > 1:
            bn = np.where(tr > 0, (b - bl.mean()) / (bl.std() + 1e-12), (0 - bl.mean()) / (bl.std() + 1e-12))
            bn = np.where(tr > 0, bn, np.minimum(bn, bn[tr > 0].min()))
        else:
            bn = 0 * b
        return (1 - w) * cn + w * bn
    return f

def dbsf(w):  # distribution-based score fusion: mu ± 3 sigma, clipped
    def f(c, b, sr, tr, bound, qi):
        def norm(x, lst):
            mu, sd = lst.mean(), lst.std()
            lo, hi = mu - 3 * sd, mu + 3 * sd
            return np.clip((x - lo) / (hi - lo + 1e-12), 0, 1)
        cn = norm(c, c[sr > 0])
        bl = b[tr > 0]
        bn = np.where(tr > 0, norm(b, bl), 0) if len(bl) > 1 else np.where(tr > 0, 1.0, 0.0)
        return (1 - w) * cn + w * bn
    return f

def boundnorm(w):  # (1-w)·cos + w·bm25/(query's attainable bound)
    def f(c, b, sr, tr, bound, qi):
        return (1 - w) * c + w * (b / bound if bound > 0 else 0 * b)
    return f

def mult(w):
    def f(c, b, sr, tr, bound, qi):
        m = b.max()
        return c * (1 + w * (b / m if m > 0 else 0 * b))
    return f

def gated(w):  # text bonus scaled by the hit's cosine relative to the query's best cosine
    def f(c, b, sr, tr, bound, qi):
        m = b.max(); cm = c.max()
        return (1 - w) * c + w * (b / m if m > 0 else 0 * b) * np.clip(c / cm, 0, 1)
    return f

def maxnorm_sat(w):  # bm25/max but saturated with the query's own bound
    def f(c, b, sr, tr, bound, qi):
        m = b.max()
        return (1 - w) * c + w * (b / (b + bound / 2) if bound > 0 else 0 * b)
    return f

def wrrf(wt, k=60):  # weighted reciprocal rank
    def f(c, b, sr, tr, bound, qi):
        return (1 - wt) * np.where(sr > 0, 1 / (k + sr), 0) + wt * np.where(tr > 0, 1 / (k + tr), 0)
    return f

def floored(w, lam, cosnorm=False):  # bm25 / max(best bm25, lam × attainable bound)
    def f(c, b, sr, tr, bound, qi):
        d = max(b.max(), lam * bound)
        cc = c / c.max() if cosnorm else c
        return (1 - w) * cc + w * (b / d if d > 0 else 0 * b)
    return f

def mm(w, win=50, bmin=True):
    """min-max over each list's top `win`: cosine over the semantic top win, bm25 over the text top win."""
    def f(c, b, sr, tr, bound, qi):
        cl = c[(sr > 0) & (sr <= win)]
        lo, hi = cl.min(), cl.max()
        cn = np.clip((c - lo) / (hi - lo + 1e-12), 0, None)
        bl = b[(tr > 0) & (tr <= win)]
        if len(bl) == 0: bn = 0 * b
        else:
            blo = bl.min() if (bmin and len(bl) > 1) else 0.0
            bn = np.where(tr > 0, np.clip((b - blo) / (bl.max() - blo + 1e-12), 0, None), 0)
        return (1 - w) * cn + w * bn
    return f

def covered(w, kind='count', cosnorm=False):
    def f(c, b, sr, tr, bound, qi):
        P = covered.P
        cov = (P.cover_count if kind == 'count' else P.cover_idf)[qi]
        m = b.max()
        cc = c / c.max() if cosnorm else c
        return (1 - w * cov) * cc + w * cov * (b / m if m > 0 else 0 * b)
    return f

def satbound(w, kappa):  # cos + w·b/(b + κ·bound): saturation at the query's own attainable score
    return lambda c, b, sr, tr, bound, qi: c + w * b / (b + kappa * bound + 1e-12)

def gen(w, cn='max', bn='max', cov='idf', p=1.0, win=50):
    def f(c, b, sr, tr, bound, qi):
        P = covered.P
        k = 1.0 if cov == 'none' else (P.cover_count if cov == 'count' else P.cover_idf)[qi] ** p
        if cn == 'raw': cc = c
        elif cn == 'max': cc = c / c.max()
        else:
            cl = c[(sr > 0) & (sr <= win)]; cc = (c - cl.min()) / (cl.max() - cl.min() + 1e-12)
        m = b.max()
        if m <= 0: bb = 0 * b
        elif bn == 'max': bb = b / m
        else:
            bl = b[(tr > 0) & (tr <= win)]
            lo = bl.min() if len(bl) > 1 else 0
            bb = np.where(tr > 0, np.clip((b - lo) / (m - lo + 1e-12), 0, None), 0)
        return (1 - w * k) * cc + w * k * bb
    return f
