-- Fact updates: PATCH /v1/facts/{id} over the ids in ids.txt, raising and lowering confidence.
local ids = {}
for line in io.lines(os.getenv("IDS") or "ids.txt") do ids[#ids + 1] = line end
local n = 0
request = function()
  n = n + 1
  local body = string.format('{"confidence": %.2f}', 0.5 + (n % 50) / 100)
  -- wrk.format's headers replace wrk.headers (the -H ones, Authorization among them): copy them.
  local headers = {["Content-Type"] = "application/json"}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  return wrk.format("PATCH", "/v1/facts/" .. ids[(n % #ids) + 1], headers, body)
end
