// mcp-trust canonicalize: the RFC 8785 bytes of a JSON text, exactly (no trailing newline), so
// `mcp-trust canonicalize f | sha256sum` agrees with `mcp-trust hash f`.
#include <memory>

#include "cli_io.hpp"
#include "commands.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp::cli {

Command add_canonicalize(CLI::App& parent) {
  auto file = std::make_shared<std::string>();
  CLI::App* app = parent.add_subcommand("canonicalize", "Print the RFC 8785 canonical bytes of a JSON file");
  app->footer(
      "Print the RFC 8785 (JCS) canonical form of a JSON text, with no trailing newline. Duplicate\n"
      "member names, lone surrogates, invalid UTF-8 and numbers beyond IEEE-754 doubles are errors.");
  app->add_option("file", *file, "JSON file, or - for standard input")->required();
  return {app, [file]() -> int {
            auto text = read_input(*file);
            if (!text) { report("canonicalize", text.error().message); return kExitError; }
            auto canon = trust::canonicalize_text(*text);
            if (!canon) { report("canonicalize", canon.error().message); return kExitError; }
            if (!write_stdout(*canon)) { report("canonicalize", "cannot write to standard output"); return kExitError; }
            return kExitOk;
          }};
}

}  // namespace mcp::cli
