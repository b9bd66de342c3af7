-- Rotates over the fixture questions (written by run.sh into queries.txt), one per request, so a
-- run searches for many different texts rather than one cached query.
local queries = {}
for line in io.lines(os.getenv("QUERIES") or "queries.txt") do queries[#queries + 1] = line end
local mode = os.getenv("MODE") or "hybrid"
local n = 0
local function escape(s) return (s:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end)) end
request = function()
  n = n + 1
  local q = queries[(n % #queries) + 1]
  return wrk.format("GET", "/api/topics/search?limit=10&mode=" .. mode .. "&q=" .. escape(q))
end
