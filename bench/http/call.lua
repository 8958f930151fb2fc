-- wrk script: POST tools/call echo with a unique JSON-RPC id per request (ids must not repeat
-- while in flight). The session id comes from the environment (run.sh initializes the session).
-- `tid` is a global set per thread by setup(); a top-level local would shadow it.
local counter = 0
local next_tid = 0
function setup(thread)
  next_tid = next_tid + 1
  thread:set("tid", next_tid)
end
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = os.getenv("BENCH_ACCEPT") or "application/json, text/event-stream"
  wrk.headers["Mcp-Session-Id"] = os.getenv("BENCH_SESSION")
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
end
function request()
  counter = counter + 1
  local body = string.format(
    '{"jsonrpc":"2.0","id":"%d-%d","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}',
    tid, counter)
  return wrk.format(nil, nil, nil, body)
end
function response(status, headers, body)
  if status ~= 200 then
    io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
  end
end
