"""Writes Fixtures/knowledge.jsonl and queries.json as a BEIR folder (the one given, default .build/fusion-study/fixtures-beir), as the
fixture knowledge base stores them: the second fact of each planted exact-duplicate and paraphrase pair is
left out (ingest merges it into the first). `mnemo eval --beir OUT --mode semantic` then caches its vectors."""
import json, os, sys
root = os.path.join(os.path.dirname(__file__), '..', '..', 'Fixtures')
out = sys.argv[1] if len(sys.argv) > 1 else '.build/fusion-study/fixtures-beir'
facts = [json.loads(l) for l in open(f'{root}/knowledge.jsonl')]
queries = json.load(open(f'{root}/queries.json'))
pairs = json.load(open(f'{root}/duplicates.json'))
merged = {b for a, b in pairs['exact'] + pairs['paraphrases']}
os.makedirs(out + '/qrels', exist_ok=True)
ids = {}
with open(out + '/corpus.jsonl', 'w') as f:
    for i, fact in enumerate(facts):
        if fact['content'] in merged: continue
        ids.setdefault(fact['content'], f'f{i + 1}')
        f.write(json.dumps({'_id': f'f{i + 1}', 'title': '', 'text': fact['content'], 'topic': fact['topic']}) + '\n')
with open(out + '/queries.jsonl', 'w') as f, open(out + '/qrels/test.tsv', 'w') as t:
    t.write('query-id\tcorpus-id\tscore\n')
    for kind in ['keyword', 'paraphrase']:
        for i, q in enumerate(queries[kind]):
            f.write(json.dumps({'_id': f'{kind}-{i}', 'text': q['query']}) + '\n')
            for e in q['expected']: t.write(f'{kind}-{i}\t{ids[e]}\t1\n')
