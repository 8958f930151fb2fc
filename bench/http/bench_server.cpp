// A Streamable HTTP server with one `echo` tool, the same tool the reference TypeScript SDK server
// in tests/interop/node/ts_http_server.mjs exposes, for a like-for-like throughput comparison.
//   bench_http_server [--port N] [--json] [--threads N]
#include <iostream>
#include <string>

#include "mcp/http/server.hpp"

int main(int argc, char** argv) {
  mcp::http::HttpServerOptions ho;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json") ho.prefer_json_response = true;
    else if (a == "--port" && i + 1 < argc) ho.port = static_cast<unsigned short>(std::stoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) ho.io_threads = static_cast<std::size_t>(std::stoi(argv[++i]));
    else { std::cerr << "usage: bench_http_server [--port N] [--json] [--threads N]\n"; return 2; }
  }
  ho.max_streams_per_session = 256;
  mcp::ServerOptions so;
  so.info.name = "bench-http-server";
  auto server = std::make_shared<mcp::Server>(so);
  mcp::Tool echo;
  echo.name = "echo";
  echo.description = "Echoes its text";
  echo.input_schema = {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}, {"required", mcp::json::array{"text"}}};
  server->add_tool(echo, [](const mcp::json::object& args, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    auto t = args.if_contains("text");
    if (!t || !t->is_string()) return mcp::fail(mcp::Error::invalid_params("text must be a string"));
    mcp::CallToolResult r;
    r.content.push_back(mcp::TextContent{.text = std::string(t->get_string())});
    return r;
  }, {.non_blocking = true});
  mcp::http::HttpServer hs(server, ho);
  auto served = hs.serve_until_signalled(
      [](unsigned short port) { std::cout << "listening on http://127.0.0.1:" << port << "/mcp" << std::endl; });
  if (!served) {
    std::cerr << served.error().message << "\n";
    return 1;
  }
  return 0;
}
