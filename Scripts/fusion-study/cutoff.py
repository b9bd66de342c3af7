import sys
from fusion import *
import matched  # hit(): the standard fusion with per-hit word shares
from matched import hit, matched_shares
spec = sys.argv[1]
loc = Dataset(beir_folder('locomo'), 'locomo-dev-*'); fix = Dataset(beir_folder('fixtures'), 'fixtures-beir-*')
sets = [('locomo', Prepared(loc), None, 303, 101)]
PF = Prepared(fix)
sets += [('keyword', PF, lambda q: q.startswith('keyword'), 50, 10), ('paraphrase', PF, lambda q: q.startswith('paraphrase'), 50, 10)]
rhos = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
for mode in ['hybrid', 'semantic']:
    for name, P, sub, depth, limit in sets:
        covered.P = P
        if not hasattr(P, 'match'): matched_shares(P)
        r = run(P, eval(spec), depth=depth, limit=limit, mode=mode, subset=sub)
        rel_ratios, all_ratios = [], []
        for q, lst in r.items():
            top = lst[0][1] if lst else 0
            if top <= 0: continue
            for f, s in lst[:10]:
                ratio = s / top
                all_ratios.append(ratio)
                if any(P.ds.qrels[q].get(d, 0) > 0 for d in P.ds.fact_docs[f]): rel_ratios.append(ratio)
        rel_ratios, all_ratios = np.array(rel_ratios), np.array(all_ratios)
        print(mode, name, 'relevant in top10:', len(rel_ratios), ' '.join('ρ%.1f lose %.3f cut %.2f' % (rho, (rel_ratios < rho).mean(), (all_ratios < rho).mean()) for rho in rhos), flush=True)
