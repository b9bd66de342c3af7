"""Evidence recall at a budget when a context re-ranks the hybrid hits with signals the search does not
use: pseudo-relevance feedback on the vectors, maximal marginal relevance on the fused score, and a
learned re-ranker (logistic regression on the fused score, rank, cosine, word share and line length,
fitted on two sets and scored on the third). Each order is packed as the context packer packs
(`pack.py`); the first row is the top-k baseline of `mnemo eval --context-budget`.

    python3 Scripts/relevance-fit/rerank.py LOCOMO_DIR SCIFACT_DIR FIXTURES_DIR

Needs the eval's embedding cache of each folder (see pairs.py) and
`Scripts/fusion-study/make_fixtures_beir.py FIXTURES_DIR` for the fixtures."""
import os, sys
import numpy as np
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'fusion-study'))
from fusion import Dataset, Prepared, covered
from matched import matched_shares
from pack import estimate

BUDGETS = [256, 512, 1024, 2048]
W = 0.35  # the standard fusion, matched.hit(0.35)


class Set:
    def __init__(self, folder, pattern):
        ds = Dataset(folder, pattern)
        self.P = P = Prepared(ds)
        covered.P = P
        matched_shares(P)
        self.name, self.docs = ds.name, ds.fact_docs
        self.vectors = ds.vectors(ds.facts)
        self.tokens = [estimate(f"- {' '.join(x.strip() for x in c.splitlines())} (fact, stated 2023-05-08)\n")
                       for c in ds.facts]
        self.heading = estimate(f'## BEIR/{ds.name}\n')
        self.evidence = [{d for d, g in ds.qrels.get(q, {}).items() if g > 0} for q in P.qids]
        self.judged = [qi for qi, e in enumerate(self.evidence) if e]

    def fused(self, qi, cos, depth=303, limit=101):
        """The hybrid ranking (fusion.run with matched.hit(0.35)) for a given cosine row."""
        P = self.P
        cand = {int(f): [float(cos[f]), 0.0] for f in np.argsort(-cos, kind='stable')[:depth]}
        for f, s in P.text[qi][:depth]:
            cand.setdefault(f, [float(cos[f]), 0.0])[1] = s
        ids = list(cand)
        c = np.array([cand[i][0] for i in ids]); b = np.array([cand[i][1] for i in ids])
        k = P.cover_idf[qi] ** 2
        score = c / c.max()
        if b.max() > 0:
            share = np.array([P.match[qi].get(i, 0.0) for i in ids])
            best = share.max()
            score = (1 - W * k) * score + W * k * (b / b.max() * (share / best if best > 0 else 0))
        order = sorted(range(len(ids)), key=lambda i: (-score[i], ids[i]))[:limit]
        return [ids[i] for i in order], score[order]

    def recall(self, qi, order, budget):
        used, got = self.heading, set()
        for f in order:
            if used + self.tokens[f] <= budget:
                used += self.tokens[f]; got |= self.evidence[qi] & set(self.docs[f])
        return len(got) / len(self.evidence[qi])

    def evaluate(self, strategy):
        orders = {qi: strategy(self, qi) for qi in self.judged}
        return [np.mean([self.recall(qi, orders[qi], b) for qi in self.judged]) for b in BUDGETS]


def rank_order(s, qi):
    return s.fused(qi, s.P.cos[qi])[0]


def feedback(alpha, m=3):
    """Rocchio on the vectors: the query's cosines blended with the cosines to its first m hits' centroid."""
    def order(s, qi):
        top = rank_order(s, qi)[:m]
        centroid = s.vectors[top].mean(0)
        centroid /= np.linalg.norm(centroid)
        return s.fused(qi, (1 - alpha) * s.P.cos[qi] + alpha * (s.vectors @ centroid))[0]
    return order


def marginal(lam):
    """Maximal marginal relevance on the fused score: score − λ × the highest cosine to a hit picked before."""
    def order(s, qi):
        ids, score = s.fused(qi, s.P.cos[qi])
        similar = s.vectors[ids] @ s.vectors[ids].T
        closest, left, picked = np.zeros(len(ids)), list(range(len(ids))), []
        while left:
            best = max(left, key=lambda i: (score[i] - lam * closest[i], -ids[i]))
            left.remove(best); picked.append(ids[best])
            closest = np.maximum(closest, similar[:, best])
        return picked
    return order


def features(s, qi):
    ids, score = s.fused(qi, s.P.cos[qi])
    cos = s.P.cos[qi][ids]
    share = np.array([s.P.match[qi].get(f, 0.0) for f in ids])
    tokens = np.array([s.tokens[f] for f in ids], float)
    X = np.stack([score, np.log(np.arange(1, len(ids) + 1)), cos, share, np.log(tokens)], 1)
    y = np.array([float(bool(s.evidence[qi] & set(s.docs[f]))) for f in ids])
    return ids, X, y


def learned(sets, held):
    """Each set weighs the same; Newton's method with a small ridge; fitted without the held-out set."""
    train = [[features(s, qi) for qi in s.judged] for s in sets if s is not held]
    X = np.concatenate([x for rows in train for _, x, _ in rows])
    y = np.concatenate([t for rows in train for _, _, t in rows])
    w = np.concatenate([np.full(sum(len(t) for *_, t in rows), 1 / sum(len(t) for *_, t in rows)) for rows in train])
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = np.hstack([np.ones((len(X), 1)), (X - mu) / sd])
    beta = np.zeros(Z.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-Z @ beta))
        H = (Z * (w * p * (1 - p))[:, None]).T @ Z + 1e-4 * np.eye(len(beta))
        beta += np.linalg.solve(H, Z.T @ (w * (y - p)) - 1e-4 * beta)

    def order(s, qi):
        ids, X, _ = features(s, qi)
        p = np.hstack([np.ones((len(X), 1)), (X - mu) / sd]) @ beta
        return [ids[i] for i in sorted(range(len(ids)), key=lambda i: (-p[i], ids[i]))]
    return order


def main():
    sets = [Set(sys.argv[1], 'locomo-dev-*'), Set(sys.argv[2], 'scifact-*'), Set(sys.argv[3], 'fixtures-beir-*')]
    rows = [('rank order (top-k, the context)', lambda s: rank_order)]
    rows += [(f'vector feedback α={a}', lambda s, a=a: feedback(a)) for a in (0.3, 0.5)]
    rows += [(f'marginal relevance λ={l}', lambda s, l=l: marginal(l)) for l in (0.05, 0.1, 0.2)]
    rows += [('learned re-ranker (held out)', lambda s: learned(sets, s))]
    print(f'{"order":<34}' + ' | '.join(f'{s.name} ' + ' / '.join(map(str, BUDGETS)) for s in sets))
    for label, make in rows:
        print(f'{label:<34}' + ' | '.join(' / '.join(f'{x:.3f}' for x in s.evaluate(make(s))) for s in sets), flush=True)


if __name__ == '__main__':
    main()
