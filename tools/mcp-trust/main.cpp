// mcp-trust: the command-line face of the trust primitives. This file only wires commands
// together; each lives in its own cmd_*.cpp (see commands.hpp for the exit codes).
#include <exception>
#include <iostream>
#include <vector>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace mcp::cli;
  CLI::App app{"mcp-trust: sign and verify MCP tool manifests (RFC 8785 canonical JSON, Ed25519)", "mcp-trust"};
  app.set_version_flag("--version", "mcp-trust 0.1.0");
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success (verify: valid), 1 error, 2 usage error, 4 verification failed.\n"
      "Run `mcp-trust <command> --help` for a command's options. `-` means standard input.");

  std::vector<Command> commands = {
      add_keygen(app), add_canonicalize(app), add_hash(app), add_sign(app), add_verify(app),
      add_client(app), add_scan(app), add_card(app), add_profiles(app), add_gateway(app), add_audit(app),
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0; everything else is a usage error.
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  try {
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const std::exception& e) {
    std::cerr << "mcp-trust: " << e.what() << "\n";
    return kExitError;
  }
  return kExitUsage;  // unreachable: require_subcommand(1)
}
