// mcp-trust gateway: trust for MCP servers that have none of their own (issue 12).
//
//   mcp-trust gateway --config FILE [--listen HOST:PORT] [--state DIR] [--audit-keep-records N] [--audit-keep-days D]
//   mcp-trust gateway --stdio [--state DIR] [--name NAME] [--new-items allow|quarantine] [--audit-keep-records N]
//                     [--audit-keep-days D] -- COMMAND ARGS...
//   mcp-trust gateway pins [--state DIR] [--json]
//   mcp-trust gateway approve [--state DIR] [--kind KIND] SERVER ITEM
//   mcp-trust gateway reject  [--state DIR] [--kind KIND] SERVER ITEM
//   mcp-trust gateway forget  [--state DIR] [--kind KIND] SERVER (ITEM | --new-only | --all)
//   mcp-trust gateway key [--state DIR]
//   mcp-trust gateway pending [--state DIR] [--json]
//   mcp-trust gateway decide [--state DIR] ID allow|deny
//
// --config serves every server of an mcpServers file (src/gateway/config.hpp) over Streamable HTTP,
// each at /servers/NAME/mcp and all together at /mcp (NAME__item); it prints "NAME URL" per
// upstream, "(all) URL" for /mcp, "(review) URL#token=TOKEN" for the review page and "listening on URL" once ready,
// reloads the file on SIGHUP (unchanged upstreams keep running with their sessions; it prints
// "reloaded kept=A,B started=C stopped=D"), and stops on SIGINT/SIGTERM. --stdio serves our stdin/stdout in front of
// COMMAND, a stdio MCP server started as a child: an mcpServers entry is wrapped by prefixing its command. Its tools
// are pinned on first sight (src/gateway/pin_store.hpp); a changed one is quarantined (hidden, calls refused saying how
// to approve it) until approved; every call and decision goes to the audit log (`mcp-trust audit`). Exit codes: 0 ok, 1
// errors (the upstream would not start, the state cannot be opened), 2 usage.
#include <pthread.h>
#include <signal.h>

#include <functional>
#include <iostream>
#include <memory>
#include <mutex>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "gateway/gateway.hpp"
#include "gateway/key.hpp"
#include "gateway/state.hpp"
#include "gateway/upstream.hpp"
#include "mcp/log.hpp"

namespace mcp::cli {
namespace {

struct GatewayCliOptions {
  bool stdio = false;
  std::string config;
  std::string listen;
  std::string state;
  std::string name;
  std::string new_items = "allow";
  std::int64_t keep_records = 0;  // --audit-keep-records; 0: not given
  double keep_days = 0;           // --audit-keep-days; 0: not given
  std::vector<std::string> command;
  std::string log_format = "text";
  // pins / approve / reject
  bool json_output = false;
  std::string kind;
  std::string server, item;
  // forget
  bool forget_all = false, forget_new = false;
  // decide
  std::int64_t call_id = 0;
  std::string decision;
};

std::string state_dir(const GatewayCliOptions& o) { return gateway::state_dir_or_default(o.state).string(); }

// What a running gateway tells its operator on stderr: "mcp-trust gateway: ..." lines, or with
// --log-format json, JSON lines like every other log line.
void tell(const GatewayCliOptions& o, const std::string& what) {
  if (o.log_format == "json") log_passthrough("gateway", what);
  else report("gateway", what);
}

// The state of a running gateway: the pins and audit log, and the key it signs with (made on first
// use), whose public half is reported so that clients can pin it.
Result<gateway::State> open_serving_state(const GatewayCliOptions& o) {
  auto state = gateway::open_state(state_dir(o));
  if (!state) return state;
  auto key = gateway::load_or_create_key(state_dir(o));
  if (!key) return fail(key.error());
  state->key = std::move(*key);
  tell(o, "signing as " + state->key->public_key().key_id() + " (public key " + state->key->public_key().hex() + ")");
  auto approvals = gateway::Approvals::start(state->asks);
  if (!approvals) return fail(approvals.error());
  state->approvals = std::move(*approvals);
  return state;
}

gateway::NewItems new_items(const GatewayCliOptions& o) {
  return o.new_items == "quarantine" ? gateway::NewItems::quarantine : gateway::NewItems::allow;
}

// The audit log's pruning the command line asks for (audit_retention.hpp).
gateway::RetentionPolicy retention(const GatewayCliOptions& o) {
  gateway::RetentionPolicy r;
  if (o.keep_records > 0) r.keep_records = o.keep_records;
  if (o.keep_days > 0) r.keep_for = gateway::keep_for_days(o.keep_days);
  return r;
}

// The file, with the command line's --new-items for every server that does not say, and its
// --audit-keep-* where gateway.audit does not say.
Result<gateway::GatewayConfig> load_config(const GatewayCliOptions& o) {
  auto config = gateway::load_config(o.config);
  if (config) {
    gateway::with_new_items_default(*config, new_items(o));
    gateway::with_retention_default(*config, retention(o));
  }
  return config;
}

int run_key(const GatewayCliOptions& o) {
  auto key = gateway::load_key(state_dir(o));
  if (!key) {
    report("gateway key", key.error().message + " (a gateway makes its key when it first starts)");
    return kExitError;
  }
  const auto& pub = (*key)->public_key();
  return write_stdout("publicKey: " + pub.hex() + "\nkeyId: " + pub.key_id() + "\n" + pub.to_pem()) ? kExitOk : kExitError;
}

int run_stdio(const GatewayCliOptions& o) {
  if (o.command.empty()) { report("gateway", "give the upstream server after --: -- COMMAND ARGS..."); return kExitUsage; }
  if (o.log_format == "json") set_log_format("json");
  auto state = open_serving_state(o);
  if (!state) { tell(o, state.error().message); return kExitError; }
  // Call records through a journal, off the calls' path (call_journal.hpp), as Gateway::start does.
  if (auto j = state->audit->start_journal(); !j) { tell(o, j.error().message); return kExitError; }
  gateway::UpstreamConfig c;
  c.name = o.name.empty() ? std::filesystem::path(o.command.front()).filename().string() : o.name;
  c.command = o.command.front();
  c.args.assign(o.command.begin() + 1, o.command.end());
  c.new_items = new_items(o);
  auto upstream = gateway::Upstream::start(c, *state, state_dir(o));
  if (!upstream) { tell(o, upstream.error().message); return kExitError; }
  std::unique_ptr<gateway::AuditRetention> retained;  // stopped before the upstream closes
  if (const auto policy = retention(o); policy.any()) retained = gateway::AuditRetention::start(state->audit, policy);
  auto ended = (*upstream)->server()->serve_stdio();
  retained.reset();
  (*upstream)->close();
  if (ended) { tell(o, ended->message); return kExitError; }
  return kExitOk;
}

// Blocks SIGINT, SIGTERM and SIGHUP in this thread, before any other thread exists, so that every
// thread inherits the mask and only wait_for_stop() receives them.
sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

// Until SIGINT or SIGTERM; each SIGHUP calls `on_hangup`.
void wait_for_stop(const sigset_t& set, const std::function<void()>& on_hangup) {
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0 || sig != SIGHUP) return;
    on_hangup();
  }
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out.empty() ? "-" : out;
}

// SIGHUP: the file read again and applied; a file that does not parse changes nothing. Prints
// "NAME URL" for each upstream started, then "reloaded kept=... started=... stopped=...".
void reload(gateway::Gateway& gw, const GatewayCliOptions& o, const std::string& base) {
  auto config = load_config(o);
  if (!config) {
    tell(o, "SIGHUP: " + config.error().message + " (nothing changed)");
    (void)write_stdout("reload failed\n");
    return;
  }
  for (const auto& w : config->warnings) tell(o, w);
  const auto outcome = gw.reload(*config);
  for (const auto& p : outcome.problems) tell(o, p);
  std::string lines;
  for (const auto& name : outcome.started) lines += name + " " + base + gateway::upstream_path(name) + "\n";
  lines += "reloaded kept=" + joined(outcome.kept) + " started=" + joined(outcome.started) +
           " stopped=" + joined(outcome.stopped) + "\n";
  (void)write_stdout(lines);
}

int run_config(const GatewayCliOptions& o) {
  const sigset_t stop_signals = block_stop_signals();
  if (o.log_format == "json") set_log_format("json");
  auto config = load_config(o);
  if (!config) { tell(o, config.error().message); return kExitUsage; }
  for (const auto& w : config->warnings) tell(o, w);
  auto listen = gateway::parse_listen(!o.listen.empty() ? o.listen : config->listen.value_or("127.0.0.1:7800"));
  if (!listen) { tell(o, listen.error().message); return kExitUsage; }
  auto state = open_serving_state(o);
  if (!state) { tell(o, state.error().message); return kExitError; }
  gateway::GatewayOptions go;
  go.state_dir = state_dir(o);
  go.http.host = listen->first;
  go.http.port = listen->second;
  std::string review_token;
  if (config->ui.enabled) {
    auto token = gateway::load_or_create_review_token(state_dir(o));
    if (!token) { tell(o, token.error().message); return kExitError; }
    review_token = *token;
    go.review = gateway::ReviewAccess{.token = *token, .remote = config->ui.remote, .allowed_hosts = config->ui.allowed_hosts};
  }
  std::vector<std::string> problems;
  auto gw = gateway::Gateway::start(*config, *state, std::move(go), problems);
  for (const auto& p : problems) tell(o, p);
  if (!gw) { tell(o, gw.error().message); return kExitError; }
  const std::string host = listen->first.find(':') != std::string::npos ? "[" + listen->first + "]" : listen->first;
  const std::string base = "http://" + host + ":" + std::to_string((*gw)->port());
  std::string lines;
  for (const auto& name : (*gw)->upstream_names()) lines += name + " " + base + gateway::upstream_path(name) + "\n";
  lines += "(all) " + base + std::string(gateway::kAggregatePath) + "\n";
  if (!review_token.empty()) {
    // The token rides in the fragment: the browser keeps it, no server log or Referer sees it.
    lines += "(review) " + base + std::string(gateway::kReviewPath) + "#token=" + review_token + "\n";
    state->approvals->set_review_url(base + std::string(gateway::kReviewPath));
  }
  lines += "listening on " + base + "\n";
  if (!write_stdout(lines)) return kExitError;
  wait_for_stop(stop_signals, [&] { reload(**gw, o, base); });
  (*gw)->stop();
  return kExitOk;
}

int run_pins(const GatewayCliOptions& o) {
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report("gateway pins", state.error().message); return kExitError; }
  auto pins = state->pins->pins();
  if (!pins) { report("gateway pins", pins.error().message); return kExitError; }
  if (o.json_output) {
    json::array out;
    for (const auto& p : *pins) {
      json::object j{{"server", p.server}, {"kind", result_key(p.kind)}, {"key", p.key},
                     {"state", to_string(p.state)}, {"seenHash", p.seen_hash}, {"updated", p.updated}};
      j["approvedHash"] = p.approved_hash ? json::value(*p.approved_hash) : json::value(nullptr);
      out.push_back(std::move(j));
    }
    return write_stdout(pretty_json(out)) ? kExitOk : kExitError;
  }
  std::string s;
  for (const auto& p : *pins) {
    s += peer_text(p.server, 200) + "  " + std::string(item_noun(p.kind)) + " " + peer_text(p.key, 1024) + "  " +
         std::string(to_string(p.state));
    if (p.state != gateway::PinState::approved)
      s += p.approved_hash ? " (changed since approved)" : " (new, never approved)";
    s += "\n";
  }
  if (pins->empty()) s = "no pins yet in " + state_dir(o) + "\n";
  return write_stdout(s) ? kExitOk : kExitError;
}

// --kind, if given: false (after saying why) when it names no kind.
bool kind_option(const GatewayCliOptions& o, const std::string& what, std::optional<ListKind>& kind) {
  if (o.kind.empty()) return true;
  kind = list_kind_of_result_key(o.kind);
  if (!kind) report(what, "--kind: tools, prompts, resources or resourceTemplates");
  return kind.has_value();
}

int run_decide(const GatewayCliOptions& o, bool approve) {
  const std::string what = approve ? "gateway approve" : "gateway reject";
  std::optional<ListKind> kind;
  if (!kind_option(o, what, kind)) return kExitUsage;
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report(what, state.error().message); return kExitError; }
  const std::string who = cli_person();
  auto decided = approve ? state->pins->approve(o.server, o.item, kind, who) : state->pins->reject(o.server, o.item, kind, who);
  if (!decided) { report(what, decided.error().message); return kExitError; }
  return write_stdout(std::string(approve ? "approved " : "rejected ") + std::string(item_noun(decided->kind)) + " " +
                      peer_text(decided->key) + " of " + peer_text(decided->server) + " (" + decided->seen_hash + ")\n")
             ? kExitOk
             : kExitError;
}

// Drops pins (PinStore::forget): the upstream's items are pinned afresh, as new, when next listed.
int run_forget(const GatewayCliOptions& o) {
  const std::string what = "gateway forget";
  if (o.item.empty() == !(o.forget_all || o.forget_new) || (o.forget_all && o.forget_new)) {
    report(what, "say what to forget: one ITEM, --new-only (the items held as new) or --all (every pin of SERVER)");
    return kExitUsage;
  }
  std::optional<ListKind> kind;
  if (!kind_option(o, what, kind)) return kExitUsage;
  auto state = gateway::open_state(state_dir(o));
  if (!state) {
    report(what, state.error().message);
    return kExitError;
  }
  const std::string who = cli_person();
  if (!o.item.empty()) {
    auto gone = state->pins->forget(o.server, o.item, kind, who);
    if (!gone) {
      report(what, gone.error().message);
      return kExitError;
    }
    return write_stdout("forgot " + std::string(item_noun(gone->kind)) + " " + peer_text(gone->key) + " of " +
                        peer_text(gone->server) + " (it was " + std::string(to_string(gone->state)) + ")\n")
               ? kExitOk
               : kExitError;
  }
  using Forget = gateway::PinStore::Forget;
  auto count = state->pins->forget_all(o.server, o.forget_all ? Forget::all : Forget::new_only, who);
  if (!count) {
    report(what, count.error().message);
    return kExitError;
  }
  return write_stdout("forgot " + std::to_string(*count) + (o.forget_all ? " pins" : " pins of items held as new") +
                      " of " + peer_text(o.server) + "\n")
             ? kExitOk
             : kExitError;
}

// Calls waiting for a person's decision (the "ask" policy), oldest first.
int run_pending(const GatewayCliOptions& o) {
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report("gateway pending", state.error().message); return kExitError; }
  auto asks = state->asks->pending();
  if (!asks) { report("gateway pending", asks.error().message); return kExitError; }
  if (o.json_output) {
    json::array out;
    for (const auto& a : *asks) out.push_back(to_json(a));
    return write_stdout(pretty_json(out)) ? kExitOk : kExitError;
  }
  std::string s;
  for (const auto& a : *asks) {
    s += std::to_string(a.id) + "  " + peer_text(a.server, 200) + "  " + a.method + " " + peer_text(a.item, 1024) +
         "  arguments " + peer_text(a.arguments, 512) + "  until " + a.deadline + "\n";
  }
  if (asks->empty()) s = "no call is waiting for a decision\n";
  return write_stdout(s) ? kExitOk : kExitError;
}

int run_decide_call(const GatewayCliOptions& o) {
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report("gateway decide", state.error().message); return kExitError; }
  auto decided = state->asks->decide(o.call_id, o.decision == "allow", cli_person());
  if (!decided) { report("gateway decide", decided.error().message); return kExitError; }
  // The gateway notices within a fraction of a second (it reads the decision from the state).
  return write_stdout((o.decision == "allow" ? "allowed " : "denied ") + decided->method + " of " + peer_text(decided->item) +
                      " (call " + std::to_string(decided->id) + ", upstream " + peer_text(decided->server) + ")\n")
             ? kExitOk
             : kExitError;
}

}  // namespace

Command add_gateway(CLI::App& parent) {
  auto o = std::make_shared<GatewayCliOptions>();
  CLI::App* app = parent.add_subcommand("gateway", "Put trust in front of an MCP server that has none");
  app->footer(
      "mcp-trust gateway --config FILE [--listen HOST:PORT]  serves each server of an mcpServers file (stdio or\n"
      "  Streamable HTTP upstreams) at http://HOST:PORT/servers/NAME/mcp, in both MCP revisions.\n"
      "mcp-trust gateway --stdio [--state DIR] -- COMMAND ARGS...  serves stdio in front of the stdio server COMMAND.\n"
      "Either way:\n"
      "  every tool is pinned (RFC 8785 + SHA-256) on first sight; one whose definition changes is quarantined\n"
      "  (hidden, calls refused) until approved; every call and decision is in the audit log (mcp-trust audit).\n"
      "  Wrap an mcpServers entry by prefixing its command: \"command\": \"mcp-trust\", \"args\": [\"gateway\",\n"
      "  \"--stdio\", \"--\", ORIGINAL COMMAND AND ARGS].\n"
      "  Each upstream gets a capability signature of what is approved and a tools/manifest signed with the\n"
      "  gateway's key (made on first start in the state folder; `mcp-trust gateway key` prints its public half);\n"
      "  over HTTP its server card is at /.well-known/mcp.json/servers/NAME/mcp. /mcp serves every upstream's\n"
      "  tools and prompts together as NAME__item. SIGHUP reloads the file: unchanged upstreams keep their sessions.\n"
      "  The audit log grows by every call unless pruned: --audit-keep-records / --audit-keep-days (or the\n"
      "  file's gateway.audit) have the gateway prune it; `mcp-trust audit prune` does it by hand.\n"
      "State: --state DIR (default $XDG_STATE_HOME/mcp-trust or ~/.local/state/mcp-trust).\n"
      "Exit codes: 0 ok, 1 errors, 2 usage errors.");
  app->add_option("--config", o->config, "An mcpServers file: serve each upstream at /servers/NAME/mcp over HTTP");
  app->add_option("--listen", o->listen, "HOST:PORT to serve on (default: the file's gateway.listen, else 127.0.0.1:7800)");
  app->add_flag("--stdio", o->stdio, "Serve stdin/stdout in front of the upstream given after --");
  app->add_option("--state", o->state, "The state folder (pins, audit log)");
  app->add_option("--name", o->name, "The upstream's name in pins and the audit log (default: its program's)");
  app->add_option("--new-items", o->new_items,
                  "Items never seen before: allow (default) or quarantine; with --config, for each server whose "
                  "entry has no newItems")
      ->check(CLI::IsMember({"allow", "quarantine"}));
  app->add_option("--audit-keep-records", o->keep_records,
                  "The gateway prunes its audit log to the newest N records (once N/10 more have come); with "
                  "--config, unless the file's gateway.audit says")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000'000}));
  app->add_option("--audit-keep-days", o->keep_days,
                  "The gateway prunes the audit records older than D days; with --config, unless the file's "
                  "gateway.audit says")
      ->check(CLI::Range(1e-6, gateway::kMaxKeepDays));
  app->add_option("--log-format", o->log_format, "Log lines on stderr: text (default) or json (one object per line)")
      ->check(CLI::IsMember({"text", "json"}));
  app->add_option("command", o->command, "-- COMMAND ARGS...");

  CLI::App* key = app->add_subcommand("key", "Print the public half of the key the gateway signs with");
  key->add_option("--state", o->state, "The state folder");
  CLI::App* pins = app->add_subcommand("pins", "List what the gateway has pinned, and what is quarantined");
  pins->add_option("--state", o->state, "The state folder");
  pins->add_flag("--json", o->json_output, "Machine-readable output");
  CLI::App* approve = app->add_subcommand("approve", "Approve an item's current definition (pins it)");
  CLI::App* reject = app->add_subcommand("reject", "Block an item until it is approved");
  for (CLI::App* d : {approve, reject}) {
    d->add_option("--state", o->state, "The state folder");
    d->add_option("--kind", o->kind, "tools, prompts, resources or resourceTemplates, if the name is ambiguous");
    d->add_option("server", o->server, "The upstream's name")->required();
    d->add_option("item", o->item, "The tool or prompt name, resource URI or template")->required();
  }
  CLI::App* forget = app->add_subcommand(
      "forget", "Drop pins: the items are pinned afresh, as new ones, the next time the upstream lists them");
  forget->add_option("--state", o->state, "The state folder");
  forget->add_option("--kind", o->kind, "tools, prompts, resources or resourceTemplates, if the name is ambiguous");
  forget->add_flag("--new-only", o->forget_new, "Every item held as new (quarantined, never approved, not rejected)");
  forget->add_flag("--all", o->forget_all, "Every pin of SERVER, approvals and rejections too");
  forget->add_option("server", o->server, "The upstream's name")->required();
  forget->add_option("item", o->item, "The tool or prompt name, resource URI or template");
  CLI::App* pending = app->add_subcommand("pending", "List the calls waiting for a person to allow or deny them");
  pending->add_option("--state", o->state, "The state folder");
  pending->add_flag("--json", o->json_output, "Machine-readable output");
  CLI::App* decide = app->add_subcommand("decide", "Allow or deny a call that waits (see `pending`)");
  decide->add_option("--state", o->state, "The state folder");
  decide->add_option("id", o->call_id, "The call's number, as `pending` shows it")->required();
  decide->add_option("decision", o->decision, "allow or deny")->required()->check(CLI::IsMember({"allow", "deny"}));
  return {app, [o, key, pins, approve, reject, forget, pending, decide] {
            if (key->parsed()) return run_key(*o);
            if (pending->parsed()) return run_pending(*o);
            if (decide->parsed()) return run_decide_call(*o);
            if (pins->parsed()) return run_pins(*o);
            if (approve->parsed()) return run_decide(*o, true);
            if (reject->parsed()) return run_decide(*o, false);
            if (forget->parsed()) return run_forget(*o);
            if (o->stdio != o->config.empty()) {  // exactly one of the two
              report("gateway", "say how clients reach it: --config FILE (HTTP) or --stdio -- COMMAND ARGS...");
              return kExitUsage;
            }
            return o->stdio ? run_stdio(*o) : run_config(*o);
          }};
}

}  // namespace mcp::cli
