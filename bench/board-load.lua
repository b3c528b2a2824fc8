-- wrk load for board reads: GET /v1/venues/:id/board as staff, rotating over the venues.
-- VENUES (comma-separated ids) and TOKEN come from the environment, as for join-load.lua.
local venues = {}
for v in string.gmatch(os.getenv("VENUES") or "", "[^,]+") do venues[#venues + 1] = v end
local token = os.getenv("TOKEN") or ""
local n = 0
function request()
  n = n + 1
  return wrk.format("GET", "/v1/venues/" .. venues[(n % #venues) + 1] .. "/board", { ["Authorization"] = "Bearer " .. token })
end
