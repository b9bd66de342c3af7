# Sourced by run.sh and cpu.sh: `load_inputs MNEMO DB WORK` ingests the fixtures for user alice
# into DB and writes WORK/tokens.txt (alice's bearer token) and WORK/queries.txt (the 60 fixture
# questions the search routes rotate over).
load_inputs() {
  local mnemo="$1" db="$2" work="$3" fixtures
  fixtures="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../Fixtures" && pwd)"
  "$mnemo" ingest "$fixtures/knowledge.jsonl" --db "$db" --namespace alice >/dev/null
  printf 'tok-alice alice\n' > "$work/tokens.txt"
  python3 -c "
import json
q = json.load(open('$fixtures/queries.json'))
for kind in ('keyword', 'paraphrase'):
    for item in q[kind]: print(item['query'])" > "$work/queries.txt"
}
