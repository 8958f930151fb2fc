-- wrk script: POST tools/call echo with a unique JSON-RPC id per request (ids must not repeat
-- while in flight). The session id comes from the environment (run.sh initializes the session).
-- `tid` is a global set per thread by setup(); a top-level local would shadow it.
-- A reply counts as a success only if it is HTTP 200 carrying the echo's result; a JSON-RPC error
-- inside a 200, or any other body, is a failure. done() prints both counts for run.sh.
local counter = 0
local next_tid = 0
local threads = {}
function setup(thread)
  next_tid = next_tid + 1
  thread:set("tid", next_tid)
  thread:set("rpc_errors", 0)
  thread:set("bad_status", 0)
  table.insert(threads, thread)
end
-- BENCH_STATELESS=1: MCP 2026-07-28, no session: the _meta envelope in every body and the
-- standard headers that mirror it.
local stateless = os.getenv("BENCH_STATELESS") == "1"
local meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' ..
  '"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"1"}}'
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = os.getenv("BENCH_ACCEPT") or "application/json, text/event-stream"
  if stateless then
    wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
    wrk.headers["Mcp-Method"] = "tools/call"
    wrk.headers["Mcp-Name"] = "echo"
  else
    wrk.headers["Mcp-Session-Id"] = os.getenv("BENCH_SESSION")
    wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
  end
  rpc_errors = 0
  bad_status = 0
end
function request()
  counter = counter + 1
  local body = string.format(
    '{"jsonrpc":"2.0","id":"%d-%d","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}%s}}',
    tid, counter, stateless and meta or "")
  return wrk.format(nil, nil, nil, body)
end
function response(status, headers, body)
  if status ~= 200 then
    bad_status = bad_status + 1
    if bad_status <= 3 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
  elseif not (string.find(body, '"result"', 1, true) and string.find(body, '"hello"', 1, true))
      or string.find(body, '"error"', 1, true) then
    rpc_errors = rpc_errors + 1
    if rpc_errors <= 3 then io.stderr:write("not an echo result: " .. string.sub(body, 1, 300) .. "\n") end
  end
end
function done(summary, latency, requests)
  local rpc, bad = 0, 0
  for _, t in ipairs(threads) do
    rpc = rpc + t:get("rpc_errors")
    bad = bad + t:get("bad_status")
  end
  io.write(string.format("failures: non-200 %d json-rpc %d\n", bad, rpc))
end
