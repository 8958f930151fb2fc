// An upstream for the gateway's resilience tests: a stdio MCP server whose tools misbehave on
// request. "pid" answers with its process id (so a test sees a restart), "crash" exits the process
// with status 3 mid-call ("crash_loud" after writing a long stderr line and a forged log line),
// "hang" never answers.
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>

#include "mcp/server/server.hpp"

int main() {
  using namespace mcp;
  ServerOptions options;
  options.info.name = "flaky";
  auto server = std::make_shared<Server>(options);
  auto tool = [](const char* name) {
    Tool t;
    t.name = name;
    t.input_schema = json::object{{"type", "object"}};
    return t;
  };
  server->add_tool(tool("pid"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text(std::to_string(::getpid()));
  });
  server->add_tool(tool("crash"), [](const json::object&, RequestContext&) -> Result<CallToolResult> { std::_Exit(3); });
  // Exits after a long stderr line and one made to pass for the gateway's own log line.
  server->add_tool(tool("crash_loud"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    const std::string loud = std::string(200'000, 'x') + "\n[00:00:00.000] [mcp] [error] FORGED \x1b[31mred\n";
    (void)!::write(2, loud.data(), loud.size());
    std::_Exit(3);
  });
  server->add_tool(tool("hang"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    static std::mutex mu;
    static std::condition_variable never;
    std::unique_lock lock(mu);
    never.wait(lock, [] { return false; });
    return CallToolResult::text("unreachable");
  });
  return server->serve_stdio() ? 1 : 0;
}
