// everything-server: the official conformance suite's fixture, served over stdio.
//
//   everything-server            serve on stdin/stdout (logs on stderr)
//
// Streamable HTTP (--http --port N) arrives with the HTTP transport (issue 3).
#include <cstdio>
#include <iostream>
#include <string_view>

#include "fixture.hpp"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << "usage: everything-server\n"
                   "Serves the MCP conformance fixture on stdin/stdout (MCP 2025-11-25).\n";
      return 0;
    }
    std::cerr << "everything-server: unknown argument '" << a << "' (try --help)\n";
    return 2;
  }
  mcp::ServerOptions opts;
  opts.info.name = "mcp-trust-everything-server";
  opts.info.version = "0.1.0";
  opts.instructions = "The MCP conformance fixture, served by mcp-trust.";
  mcp::Server server(opts);
  everything::add_tools(server);
  everything::add_resources(server);
  everything::add_prompts(server);
  everything::add_completion(server);
  auto reason = server.serve_stdio();
  if (reason) {
    std::cerr << "everything-server: " << reason->message << "\n";
    return 1;
  }
  return 0;
}
