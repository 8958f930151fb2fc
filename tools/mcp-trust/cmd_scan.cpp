// mcp-trust scan: connect to a server, list everything it offers, and write the capability
// signature of what was observed: a starting point for a server that has none.
//
//   mcp-trust scan -- COMMAND ARGS... --out signature.json     (or --out FILE before --)
//   mcp-trust scan --url http://host:port/mcp --out signature.json
#include <iostream>
#include <memory>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "mcp/signature/derive.hpp"

namespace mcp::cli {
namespace {

struct ScanCliOptions {
  std::string out;
  std::string url;
  std::vector<std::string> tokens;
};

int run_scan(ScanCliOptions& o) {
  std::string out = o.out;
  if (auto trailing = take_trailing_out(o.tokens)) {
    if (!out.empty()) { report("scan", "give --out once"); return kExitUsage; }
    out = *trailing;
  }
  if (out.empty()) { report("scan", "--out FILE is required (- for standard output)"); return kExitUsage; }
  if (o.tokens.empty() == o.url.empty()) {
    report("scan", "give the server to run after -- (mcp-trust scan -- COMMAND ARGS... --out FILE), or --url URL, not both");
    return kExitUsage;
  }
  quiet_sdk_logs();

  Client client;
  auto init = o.url.empty() ? connect_child(client, o.tokens) : connect_url(client, o.url);
  if (!init) { report("scan", init.error().message); return kExitError; }
  std::vector<Tool> tools;
  std::vector<Prompt> prompts;
  std::vector<Resource> resources;
  std::vector<ResourceTemplate> templates;
  auto fetch = [&](auto& into, auto list) -> bool {
    auto r = list();
    if (!r) { report("scan", r.error().message); return false; }
    into = std::move(*r);
    return true;
  };
  if (client.server_supports("tools") && !fetch(tools, [&] { return client.list_all_tools(); })) return kExitError;
  if (client.server_supports("prompts") && !fetch(prompts, [&] { return client.list_all_prompts(); })) return kExitError;
  if (client.server_supports("resources") &&
      (!fetch(resources, [&] { return client.list_all_resources(); }) ||
       !fetch(templates, [&] { return client.list_all_resource_templates(); })))
    return kExitError;
  client.close();

  const ServerSignature sig = derive_signature(tools, prompts, resources, templates);
  const std::string text = pretty_json(to_json(sig));
  if (out == "-") {
    if (!write_stdout(text)) return kExitError;
  } else if (auto w = write_public_file(out, text); !w) {
    report("scan", w.error().message);
    return kExitError;
  }
  std::cerr << "mcp-trust scan: " << (out == "-" ? std::string("wrote") : "wrote " + out + ":") << " "
            << sig.tools.size() << " tools, " << sig.prompts.size() << " prompts, " << sig.resources.size()
            << " resources, " << sig.resource_templates.size() << " resource templates, as listed now.\n"
            << "  Add what this session did not list (tools not yet available, other annotation variants)\n"
            << "  before relying on it: a signature must declare everything the server could ever offer.\n";
  if (init->extra.contains("signature"))
    std::cerr << "  Note: this server declares a signature of its own in initialize.\n";
  return kExitOk;
}

}  // namespace

Command add_scan(CLI::App& parent) {
  auto o = std::make_shared<ScanCliOptions>();
  CLI::App* app = parent.add_subcommand("scan", "Write the capability signature of what a server lists");
  app->footer(
      "Runs the server as a child over stdio (or connects to --url), lists its tools, prompts, resources and resource templates,\n"
      "and writes a capability signature (SEP-2091) declaring exactly what was listed, each tool with the\n"
      "annotations it was listed with. Edit it to add what the server may offer later.\n"
      "Example: mcp-trust scan -- file-manager --out signature.json");
  app->add_option("--out", o->out, "Where to write the signature (- for standard output)");
  app->add_option("--url", o->url, "Scan a Streamable HTTP endpoint (http://host:port/mcp) instead of a child");
  app->add_option("command", o->tokens, "-- COMMAND ARGS... [--out FILE]");
  return {app, [o] { return run_scan(*o); }};
}

}  // namespace mcp::cli
