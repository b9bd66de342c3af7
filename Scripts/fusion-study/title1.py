from fusion import *
import re
loc = Dataset(beir_folder('locomo'), 'locomo-dev-*')
speaker = [t.split(' (')[0] for t in loc.fact_title]
variants = {
  'title in content (now)': (loc.facts, loc.fact_topic),
  'title in topic column': (loc.fact_text, loc.fact_title),
  'speaker in content, date in topic': ([s + ' ' + x for s, x in zip(speaker, loc.fact_text)], [t[len(s):] for s, t in zip(speaker, loc.fact_title)]),
  'speaker in content, no date': ([s + ' ' + x for s, x in zip(speaker, loc.fact_text)], ['' for _ in speaker]),
  'text only': (loc.fact_text, ['' for _ in speaker]),
}
for name, cols in variants.items():
    P = Prepared(loc, fts_columns=cols)
    t, _ = metrics(P, run(P, None, mode='text'))
    h1, _ = metrics(P, run(P, saturated()))
    h2, _ = metrics(P, run(P, maxnorm(0.3)))
    h3, _ = metrics(P, run(P, minmax(0.4)))
    print(f'{name:36s} text %.4f/%.4f  std %.4f/%.4f  max.3 %.4f/%.4f  minmax.4 %.4f/%.4f' % (t[0], t[1], h1[0], h1[1], h2[0], h2[1], h3[0], h3[1]), flush=True)
