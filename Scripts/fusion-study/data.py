"""Loads a BEIR set as Mnemo's eval sees it, with cached MiniLM vectors and FTS5 BM25 lists."""
import json, os, re, sqlite3, struct, unicodedata, glob, math
import numpy as np

STOP = set("""a about above after again all am an and any are as at be been before being below between both but by can could did do
does doing down during each few for from further had has have having he her here hers herself him himself his how i if in
into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there these they this those through to
too under until up very was we were what when where which while who whom why will with would you your yours yourself
yourselves s t d ll m re ve""".split())

def fnv(text, state=0xCBF29CE484222325):
    for b in text.encode('utf-8'):
        state = ((state ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return state

def load_cache(pattern):
    files = sorted(glob.glob(os.path.expanduser('~/.cache/mnemo/eval/' + pattern)), key=os.path.getmtime)
    vecs = {}
    for path in files:
        data = open(path, 'rb').read()
        assert data[:8] == b'MNEMOEC1'
        dim, _, count = struct.unpack_from('<IIQ', data, 8)
        arr = np.frombuffer(data, dtype=np.uint8, offset=24).reshape(count, 8 + 4 * dim)
        keys = arr[:, :8].copy().view('<u8').ravel()
        v = arr[:, 8:].copy().view('<f4')
        for k, row in zip(keys, v): vecs[int(k)] = row
    return vecs

WORD_CATS = {'Lu','Ll','Lt','Lm','Lo','Nd','Nl','No','Mn','Mc','Me'}
def words(text):
    out, cur = [], []
    for ch in text:
        if unicodedata.category(ch) in WORD_CATS: cur.append(ch)
        elif cur: out.append(''.join(cur)); cur = []
    if cur: out.append(''.join(cur))
    return out

def phrases(text, stop=STOP):
    ph = []
    for i, span in enumerate(text.split('"')):
        w = words(span)
        if not w: continue
        if i % 2 == 1: ph.append(w)
        else: ph += [[x] for x in w]
    if not ph: return None
    meaningful = [p for p in ph if len(p) > 1 or p[0].lower() not in stop]
    return meaningful or ph

def pattern(ph):
    return ' OR '.join('"' + ' '.join(p) + '"' for p in ph)

def normalized(text):
    t = unicodedata.normalize('NFKD', text)
    t = ''.join(c for c in t if not unicodedata.combining(c)).lower()
    t = ' '.join(t.split())
    return t.rstrip('.!?;:,')

def truncated(text, limit=4096):
    if len(text) <= limit: return text
    p = text[:limit]
    cut = max(i for i, c in enumerate(p) if c.isspace()) if any(c.isspace() for c in p) else len(p)
    return p[:cut].strip()

class Dataset:
    def __init__(self, folder, cache_pattern, title_mode='content'):
        self.name = os.path.basename(folder.rstrip('/'))
        docs = [json.loads(l) for l in open(folder + '/corpus.jsonl') if l.strip()]
        qrels = {}
        for i, line in enumerate(open(folder + '/qrels/test.tsv')):
            f = line.rstrip('\n').split('\t')
            if i == 0 and not f[2].strip().lstrip('-').isdigit(): continue
            qrels.setdefault(f[0], {})[f[1]] = int(f[2])
        self.qrels = qrels
        self.queries = [(q['_id'], q['text']) for q in (json.loads(l) for l in open(folder + '/queries.jsonl') if l.strip()) if q['_id'] in qrels]
        # facts: content -> list of doc ids, insertion order
        self.facts, self.fact_docs, self.fact_topic, self.fact_title, self.fact_text = [], [], [], [], []
        seen = {}
        for d in docs:
            title, text = (d.get('title') or '').strip(), (d.get('text') or '').strip()
            content = truncated(' '.join(x for x in [title, text] if x))
            if not content: continue
            key = normalized(content)
            if key in seen:
                self.fact_docs[seen[key]].append(d['_id']); continue
            seen[key] = len(self.facts)
            self.facts.append(content); self.fact_docs.append([d['_id']])
            self.fact_topic.append(d.get('topic', 'BEIR/' + self.name)); self.fact_title.append(title); self.fact_text.append(text)
        self.cache = load_cache(cache_pattern)
        self.doc_vecs = None

    def vectors(self, texts):
        miss = [t for t in texts if fnv(t) not in self.cache]
        if miss: raise KeyError(f'{len(miss)} texts not cached, e.g. {miss[0][:60]!r}')
        return np.stack([self.cache[fnv(t)] for t in texts]).astype(np.float32)

    def fts(self, columns=None):
        """An FTS5 index like Mnemo's: content and topic, porter unicode61 remove_diacritics 2."""
        db = sqlite3.connect(':memory:')
        db.execute("create virtual table fact_fts using fts5(content, topic, tokenize='porter unicode61 remove_diacritics 2')")
        cols = columns or (self.facts, self.fact_topic)
        db.executemany('insert into fact_fts(rowid, content, topic) values (?,?,?)',
                       [(i + 1, c, t) for i, (c, t) in enumerate(zip(*cols))])
        db.execute("create virtual table vocab using fts5vocab(fact_fts, 'row')")
        return db

def bm25_list(db, pat, depth, weights=(1.0, 0.3)):
    if pat is None: return []
    rows = db.execute(f'select rowid, bm25(fact_fts, {weights[0]}, {weights[1]}) as r from fact_fts where fact_fts match ? order by r, rowid limit ?', (pat, depth)).fetchall()
    return [(rid - 1, -r) for rid, r in rows]

def evaluate(ds, rankings):
    """rankings: qid -> list of (fact index, score) best first (already cut to 101). BEIR metrics."""
    tot = np.zeros(4); per = {}
    for qid, judg in ds.qrels.items():
        if qid not in dict(ds.queries): continue
        ret = []
        seen = set()
        for f, s in rankings.get(qid, []):
            for d in ds.fact_docs[f]:
                if d not in seen: seen.add(d); ret.append((d, s))
        ret = [r for r in ret if r[0] != qid]
        trec = [d for d, s in sorted(ret, key=lambda x: (-x[1], tuple(-ord(c) for c in x[0])))]
        beir = [d for _, (d, s) in sorted(enumerate(ret), key=lambda x: (-x[1][1], x[0]))]
        ideal = sorted([g for g in judg.values() if g > 0], reverse=True)[:10]
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        dcg = sum(max(0, judg.get(d, 0)) / math.log2(i + 2) for i, d in enumerate(trec[:10]))
        rel = sum(1 for g in judg.values() if g > 0)
        r10 = len({d for d in trec[:10] if judg.get(d, 0) > 0}) / rel if rel else 0
        r100 = len({d for d in trec[:100] if judg.get(d, 0) > 0}) / rel if rel else 0
        mrr = next((1 / (i + 1) for i, d in enumerate(beir[:10]) if judg.get(d, 0) > 0), 0)
        nd = dcg / idcg if idcg else 0
        per[qid] = (nd, r10, r100, mrr)
        tot += (nd, r10, r100, mrr)
    n = len([q for q in ds.qrels if q in dict(ds.queries)])
    return tot / n, per
# Where each data set's BEIR folder is: an environment variable each, so that the study runs on
# any machine (see README.md).
BEIR_VARIABLES = {'locomo': 'LOCOMO_BEIR', 'scifact': 'SCIFACT_BEIR', 'fixtures': 'FIXTURES_BEIR'}


def beir_folder(name):
    """The BEIR folder of data set `name` (locomo, scifact or fixtures), from its environment variable."""
    variable = BEIR_VARIABLES[name]
    folder = os.environ.get(variable)
    if not folder:
        raise SystemExit(f'set {variable} to the BEIR folder of {name} (see Scripts/fusion-study/README.md)')
    return folder
