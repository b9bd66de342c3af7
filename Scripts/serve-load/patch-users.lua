-- Fact updates of several users: PATCH /v1/facts/{id} over the "token id" lines of $IDS, each
-- request with its user's token, raising and lowering confidence.
local rows = {}
for line in io.lines(os.getenv("IDS")) do
  local token, id = line:match("^(%S+) (%S+)$")
  rows[#rows + 1] = {token, id}
end
local n = 0
local shift = math.random(#rows)
request = function()
  n = n + 1
  local row = rows[((n + shift) % #rows) + 1]
  local body = string.format('{"confidence": %.2f}', 0.5 + (n % 50) / 100)
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. row[1]}
  return wrk.format("PATCH", "/v1/facts/" .. row[2], headers, body)
end
