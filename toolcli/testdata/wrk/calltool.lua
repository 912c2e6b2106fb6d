-- wrk script: a tool-cli callTool of cgt's get_fx_rate, with the bearer token from
-- TOOL_CLI_TOKEN. Every answer must be 200 and carry a result (not a JSON-RPC error);
-- done() prints the calls that failed either way ("failed calls: N").
local token = os.getenv("TOOL_CLI_TOKEN") or "token"
local args = os.getenv("CGT_WRK_ARGS") or '{"currency":"USD","year":2024,"month":3}'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"callTool","params":{"server":"cgt","tool":"get_fx_rate","arguments":' .. args .. '}}'

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init()
  failed = 0
end

function response(status, headers, body)
  if status ~= 200 or not body:find('"result"', 1, true) or body:find('"isError":true', 1, true) then
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do
    n = n + t:get("failed")
  end
  io.write(string.format("calls/s: %.0f\nfailed calls: %d\n", summary.requests / (summary.duration / 1e6), n + summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
