// mcp-trust audit: the gateway's hash-chained audit log (src/gateway/audit_log.hpp).
//
//   mcp-trust audit verify [--state DIR]   exit 0 when the chain is intact, 4 naming the first
//                                          broken record when one was changed, removed or reordered
//   mcp-trust audit export [--state DIR]   every record as a JSON line, in order
//   mcp-trust audit prune [--state DIR] (--keep N | --before TIME)
//                                          removes the oldest records; the chain stays verifiable
#include <memory>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "gateway/state.hpp"

namespace mcp::cli {
namespace {

struct AuditCliOptions {
  std::string state;
  // prune
  std::int64_t keep = -1;
  std::string before;
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
  // The records kept (sequence numbers have no gaps), and those pruned before them if any.
  std::string s = "intact: " + std::to_string(check->records - check->pruned_through) + " records";
  if (check->pruned_through > 0) s += " (records 1 to " + std::to_string(check->pruned_through) + " pruned)";
  return write_stdout(s + ", head " + check->head + "\n") ? kExitOk : kExitError;
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

// Removes the oldest records: all but the last --keep, or those older than --before.
int run_prune(const AuditCliOptions& o) {
  if ((o.keep >= 0) == !o.before.empty()) {
    report("audit prune", "say which records go: --keep N (the newest N stay) or --before TIME (ISO 8601, UTC)");
    return kExitUsage;
  }
  auto state = gateway::open_state(state_dir(o));
  if (!state) {
    report("audit prune", state.error().message);
    return kExitError;
  }
  std::int64_t through = 0;
  if (o.keep >= 0) {
    auto head = state->audit->head();
    if (!head) {
      report("audit prune", head.error().message);
      return kExitError;
    }
    through = head->seq - o.keep;
  } else {
    auto last = state->audit->last_before(o.before);
    if (!last) {
      report("audit prune", last.error().message);
      return kExitError;
    }
    through = *last;
  }
  auto check = state->audit->verify();  // only an intact chain is pruned: a break stays for a person to see
  if (!check) {
    report("audit prune", check.error().message);
    return kExitError;
  }
  if (check->first_broken) {
    report("audit prune",
           "not pruned: the chain is broken at record " + std::to_string(*check->first_broken) + ": " + check->why);
    return kExitVerifyFailed;
  }
  if (through <= check->pruned_through) return write_stdout("nothing to prune\n") ? kExitOk : kExitError;
  auto count = state->audit->prune(through, cli_person());
  if (!count) {
    report("audit prune", count.error().message);
    return kExitError;
  }
  return write_stdout("pruned " + std::to_string(*count) + " records, up to record " + std::to_string(through) + "\n")
             ? kExitOk
             : kExitError;
}

}  // namespace

Command add_audit(CLI::App& parent) {
  auto o = std::make_shared<AuditCliOptions>();
  CLI::App* app = parent.add_subcommand("audit", "Verify or export the gateway's hash-chained audit log");
  app->require_subcommand(1);
  app->footer(
      "Each record's hash covers the hash before it, so a record changed, removed or moved breaks the chain from\n"
      "there on; verify names the first broken record (exit 4). Removing the last records leaves a shorter\n"
      "intact chain: keep the printed head elsewhere to detect that. prune removes the oldest records and\n"
      "anchors the chain where they end, saying so in a \"prune\" record; verify starts from there.\n"
      "Exit codes: 0 intact (export: written), 1 errors, 2 usage errors, 4 broken.");
  CLI::App* verify = app->add_subcommand("verify", "Check the chain; print its length and head");
  CLI::App* exp = app->add_subcommand("export", "Write every record as a JSON line");
  CLI::App* prune = app->add_subcommand("prune", "Remove the oldest records; the chain stays verifiable from there");
  prune->add_option("--keep", o->keep, "Keep the newest N records")->check(CLI::NonNegativeNumber);
  prune->add_option("--before", o->before, "Remove the records older than TIME (ISO 8601 UTC, e.g. 2026-11-01)");
  for (CLI::App* s : {verify, exp, prune}) s->add_option("--state", o->state, "The state folder");
  return {app, [o, verify, prune] {
            if (prune->parsed()) return run_prune(*o);
            return verify->parsed() ? run_verify(*o) : run_export(*o);
          }};
}

}  // namespace mcp::cli
