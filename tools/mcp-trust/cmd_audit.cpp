// mcp-trust audit: the gateway's hash-chained audit log (src/gateway/audit_log.hpp).
//
//   mcp-trust audit verify [--state DIR]   exit 0 when the chain is intact, 4 naming the first
//                                          broken record when one was changed, removed or reordered
//   mcp-trust audit export [--state DIR]   every record as a JSON line, in order
#include <memory>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "gateway/state.hpp"

namespace mcp::cli {
namespace {

struct AuditCliOptions {
  std::string state;
};

std::string state_dir(const AuditCliOptions& o) { return gateway::state_dir_or_default(o.state).string(); }

int run_verify(const AuditCliOptions& o) {
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report("audit verify", state.error().message); return kExitError; }
  auto check = state->audit->verify();
  if (!check) { report("audit verify", check.error().message); return kExitError; }
  if (check->first_broken) {
    report("audit verify", "the chain is broken at record " + std::to_string(*check->first_broken) + ": " + check->why);
    return kExitVerifyFailed;
  }
  return write_stdout("intact: " + std::to_string(check->records) + " records, head " + check->head + "\n")
             ? kExitOk
             : kExitError;
}

int run_export(const AuditCliOptions& o) {
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report("audit export", state.error().message); return kExitError; }
  bool written = true;
  auto ok = state->audit->each([&](const gateway::AuditRecord& r) {
    written = write_stdout(json::serialize(gateway::to_json(r)) + "\n");
    return written;
  });
  if (!ok) { report("audit export", ok.error().message); return kExitError; }
  return written ? kExitOk : kExitError;
}

}  // namespace

Command add_audit(CLI::App& parent) {
  auto o = std::make_shared<AuditCliOptions>();
  CLI::App* app = parent.add_subcommand("audit", "Verify or export the gateway's hash-chained audit log");
  app->require_subcommand(1);
  app->footer(
      "Each record's hash covers the hash before it, so a record changed, removed or moved breaks the chain from\n"
      "there on; verify names the first broken record (exit 4). Removing the last records leaves a shorter\n"
      "intact chain: keep the printed head elsewhere to detect that.\n"
      "Exit codes: 0 intact (export: written), 1 errors, 2 usage errors, 4 broken.");
  CLI::App* verify = app->add_subcommand("verify", "Check the chain; print its length and head");
  CLI::App* exp = app->add_subcommand("export", "Write every record as a JSON line");
  for (CLI::App* s : {verify, exp}) s->add_option("--state", o->state, "The state folder");
  return {app, [o, verify] { return verify->parsed() ? run_verify(*o) : run_export(*o); }};
}

}  // namespace mcp::cli
