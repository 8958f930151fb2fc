// mcp-trust profiles: a server's profiles (GET /.well-known/mcp-profiles), validated and printed.
//
//   mcp-trust profiles [--json] URL
//
// URL is the MCP endpoint (http://host:port/mcp). Exit 0 when the document is valid (a server
// without profiles included: it prints none), 1 when it cannot be fetched or breaks the
// proposal's rules, 2 on usage errors.
#include <memory>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "mcp/http/profiles_fetch.hpp"

namespace mcp::cli {
namespace {

struct ProfilesCliOptions {
  std::string url;
  bool json_output = false;
};

int run_profiles(const ProfilesCliOptions& o) {
  quiet_sdk_logs();
  auto profiles = http::fetch_profiles(o.url);
  if (!profiles) {
    report("profiles", profiles.error().message);
    return kExitError;
  }
  if (o.json_output) return write_stdout(pretty_json(json::value(profiles_document(*profiles)))) ? kExitOk : kExitError;
  std::string s = "profiles: " + http::profiles_url(o.url) + "\n";
  if (profiles->empty()) s += "  (none: the server supports no profiles)\n";
  for (const auto& p : *profiles) {
    // Printed through peer_text: a URL from the server cannot forge lines or drive the terminal.
    s += "  " + peer_text(p.profile_url, 2048) + "  (MCP " + peer_text(p.min_mcp_version) + " or later" +
         (p.default_ ? ", default" : "") + ")\n";
  }
  return write_stdout(s) ? kExitOk : kExitError;
}

}  // namespace

Command add_profiles(CLI::App& parent) {
  auto o = std::make_shared<ProfilesCliOptions>();
  CLI::App* app = parent.add_subcommand("profiles", "Fetch, validate and print a server's profiles");
  app->footer(
      "Fetches /.well-known/mcp-profiles followed by the endpoint's path (else at its origin) and checks it against "
      "the server\n"
      "profiles proposal (a JSON array of ProfileSpec; URLs ending in <Major>.<Minor>; at most one default,\n"
      "first). A 404 is a server without profiles. Request one with `mcp-trust client --profile URL`.\n"
      "Exit codes: 0 valid, 1 other errors, 2 usage errors.\n"
      "Example: mcp-trust profiles http://localhost:8080/mcp");
  app->add_flag("--json", o->json_output, "Print the document itself");
  app->add_option("url", o->url, "The MCP endpoint URL")->required();
  return {app, [o] { return run_profiles(*o); }};
}

}  // namespace mcp::cli
