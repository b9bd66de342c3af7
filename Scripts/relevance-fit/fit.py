"""Fits the logistic coefficients of Mnemo's `Relevance` (SearchHit.relevance) on labelled
query-fact pairs, and reports how well calibrated they are on each data set, held out.

Input: the JSON Lines `mnemo eval --beir DIR --relevance-pairs FILE` writes, one file per data set
(each row a hit of a text, semantic or hybrid search with its cosine, word share and label).

    python3 Scripts/relevance-fit/fit.py locomo.jsonl scifact.jsonl fixtures.jsonl

Three models, one per search mode, each fitted on that mode's hits:
  meaning   sigma(a + b*cosine)              semantic hits (the first 30 of each query)
  words     sigma(a + b*share)               text hits (the first 30)
  combined  sigma(a + b*cosine + c*share)    hybrid hits (the first 30 of the 101 written)
Every set weighs the same in the fit (each row weighs 1/rows of its set), so that the largest set
does not decide the scale alone. Calibration is the expected calibration error (ECE: the
row-weighted mean |mean label - mean prediction| over ten equal-width bins of the prediction) and
the Brier score, each on one set with coefficients fitted on the other two (held out), and with
the final coefficients fitted on all three (in sample); for the combined model, the F1 of each
threshold on each set (the default threshold is the one best on every set)."""
import json, sys
import numpy as np

DEPTH = 30


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [json.loads(line) for line in f]
    return rows


def features(rows, model):
    if model == 'meaning':
        return np.array([[r['cosine']] for r in rows])
    if model == 'words':
        return np.array([[r.get('share') or 0.0] for r in rows])
    return np.array([[r['cosine'], r.get('share') or 0.0] for r in rows])


MODES = {'meaning': 'semantic', 'words': 'text', 'combined': 'hybrid'}


def select(rows, model, sets=None):
    return [r for r in rows
            if r['mode'] == MODES[model] and r['rank'] <= DEPTH and (sets is None or r['set'] in sets)
            and (model != 'meaning' or r.get('cosine') is not None)
            and (model != 'combined' or r.get('cosine') is not None)]


def fit(rows, model, l2=1e-4):
    """Weighted logistic regression by Newton's method; every set weighs 1."""
    x = features(rows, model)
    x = np.hstack([np.ones((len(x), 1)), x])
    y = np.array([r['label'] for r in rows], dtype=float)
    counts = {}
    for r in rows:
        counts[r['set']] = counts.get(r['set'], 0) + 1
    w = np.array([1.0 / counts[r['set']] for r in rows])
    beta = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ beta))
        gradient = x.T @ (w * (y - p)) - l2 * beta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def predict(beta, rows, model):
    x = features(rows, model)
    return 1 / (1 + np.exp(-(beta[0] + x @ beta[1:])))


def calibration(beta, rows, model, bins=10):
    p = predict(beta, rows, model)
    y = np.array([r['label'] for r in rows], dtype=float)
    index = np.minimum((p * bins).astype(int), bins - 1)
    ece = sum(abs(y[index == b].mean() - p[index == b].mean()) * (index == b).sum()
              for b in range(bins) if (index == b).any()) / len(p)
    return ece, float(np.mean((p - y) ** 2)), float(y.mean()), float(p.mean())


def main(paths):
    rows = load(paths)
    sets = sorted({r['set'] for r in rows})
    for model in ['meaning', 'words', 'combined']:
        everything = select(rows, model)
        beta = fit(everything, model)
        names = {'meaning': ['intercept', 'cosine'], 'words': ['intercept', 'share'],
                 'combined': ['intercept', 'cosine', 'share']}[model]
        print(f'{model}: ' + ', '.join(f'{n} {b:.3f}' for n, b in zip(names, beta)))
        midpoint = -beta[0] / beta[1]
        print(f'  relevance 0.5 at {names[1]} {midpoint:.3f}' + (' (share 0)' if model == 'combined' else ''))
        print('  set          pairs  relevant  mean p  ECE held-out  Brier held-out  ECE in-sample  held-out fit')
        for held in sets:
            test = select(rows, model, {held})
            train = select(rows, model, set(sets) - {held})
            out = fit(train, model)
            ece, brier, rate, mean = calibration(out, test, model)
            ece_in, _, _, _ = calibration(beta, test, model)
            print(f'  {held:<12} {len(test):>5}  {rate:8.3f}  {mean:6.3f}  {ece:12.3f}  {brier:14.3f}  {ece_in:13.3f}'
                  f'  ' + ', '.join(f'{b:.2f}' for b in out))
        if model == 'combined':
            print('  F1 of "relevance >= t" (precision / recall), final coefficients:')
            for held in sets:
                test = select(rows, model, {held})
                p = predict(beta, test, model)
                y = np.array([r['label'] for r in test])
                cells = []
                for t in [0.1, 0.15, 0.2, 0.25, 0.3, 0.5]:
                    tp, fp = ((p >= t) & (y == 1)).sum(), ((p >= t) & (y == 0)).sum()
                    fn = ((p < t) & (y == 1)).sum()
                    precision, recall = tp / max(1, tp + fp), tp / max(1, tp + fn)
                    f1 = 2 * precision * recall / max(1e-9, precision + recall)
                    cells.append(f'{t}: {f1:.2f} ({precision:.2f}/{recall:.2f})')
                print(f'  {held:<12} ' + '  '.join(cells))
        print()


if __name__ == '__main__':
    main(sys.argv[1:])
