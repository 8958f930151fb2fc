// mcp-trust hash: "sha256:<hex>" of a JSON text's canonical bytes. On a manifest object this is
// the proposal's manifestHash.
#include <memory>

#include "cli_io.hpp"
#include "commands.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::cli {

Command add_hash(CLI::App& parent) {
  auto file = std::make_shared<std::string>();
  CLI::App* app = parent.add_subcommand("hash", "Print sha256:<hex> of a JSON file's canonical bytes");
  app->footer(
      "Print \"sha256:\" and the hex SHA-256 of the RFC 8785 canonical bytes of a JSON text. Given a\n"
      "manifest object, this is its manifestHash.");
  app->add_option("file", *file, "JSON file, or - for standard input")->required();
  return {app, [file]() -> int {
            auto text = read_input(*file);
            if (!text) { report("hash", text.error().message); return kExitError; }
            auto canon = trust::canonicalize_text(*text);
            if (!canon) { report("hash", canon.error().message); return kExitError; }
            if (!write_stdout(trust::sha256_tag(std::string_view(*canon)) + "\n")) return kExitError;
            return kExitOk;
          }};
}

}  // namespace mcp::cli
