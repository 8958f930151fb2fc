// mcp-trust gateway: trust for MCP servers that have none of their own (issue 12; first slice).
//
//   mcp-trust gateway --stdio [--state DIR] [--name NAME] [--new-items allow|quarantine] -- COMMAND ARGS...
//   mcp-trust gateway pins [--state DIR] [--json]
//   mcp-trust gateway approve [--state DIR] [--kind KIND] SERVER ITEM
//   mcp-trust gateway reject  [--state DIR] [--kind KIND] SERVER ITEM
//
// --stdio serves our stdin/stdout in front of COMMAND, a stdio MCP server started as a child: an
// mcpServers entry is wrapped by prefixing its command. Its tools are pinned on first sight
// (src/gateway/pin_store.hpp); a changed one is quarantined (hidden, calls refused saying how to
// approve it) until approved; every call and decision goes to the audit log (`mcp-trust audit`).
// Exit codes: 0 ok, 1 errors (the upstream would not start, the state cannot be opened), 2 usage.
#include <iostream>
#include <memory>
#include <mutex>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/stdio/child_process.hpp"

namespace mcp::cli {
namespace {

struct GatewayCliOptions {
  bool stdio = false;
  std::string state;
  std::string name;
  std::string new_items = "allow";
  std::vector<std::string> command;
  // pins / approve / reject
  bool json_output = false;
  std::string kind;
  std::string server, item;
};

std::string state_dir(const GatewayCliOptions& o) { return gateway::state_dir_or_default(o.state).string(); }

int run_stdio(const GatewayCliOptions& o) {
  if (!o.stdio) { report("gateway", "say how clients reach it: --stdio (HTTP is not built yet)"); return kExitUsage; }
  if (o.command.empty()) { report("gateway", "give the upstream server after --: -- COMMAND ARGS..."); return kExitUsage; }
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report("gateway", state.error().message); return kExitError; }
  gateway::ProxyOptions po;
  po.name = o.name.empty() ? std::filesystem::path(o.command.front()).filename().string() : o.name;
  po.new_items = o.new_items == "quarantine" ? gateway::NewItems::quarantine : gateway::NewItems::allow;
  po.state_dir = state_dir(o);

  // The proxy is made after the client (it needs the connected client), but the client's
  // list_changed arrives on its reader thread at any time: the slot is set here and read there,
  // so under a lock.
  struct ProxySlot {
    std::mutex mutex;
    std::weak_ptr<gateway::Proxy> proxy;
  };
  auto proxy_slot = std::make_shared<ProxySlot>();
  ClientOptions co;
  co.info.name = "mcp-trust-gateway";
  co.on_list_changed = [proxy_slot](const std::string& list) {
    if (list != "tools") return;
    std::shared_ptr<gateway::Proxy> p;
    {
      std::lock_guard lock(proxy_slot->mutex);
      p = proxy_slot->proxy.lock();
    }
    if (p) p->refresh_later();
  };
  auto upstream = std::make_shared<Client>(co);
  ChildProcessOptions cp;
  cp.program = o.command.front();
  cp.args.assign(o.command.begin() + 1, o.command.end());
  const std::string prefix = "[" + po.name + "] ";
  cp.on_stderr = [prefix](const std::string& line) { std::cerr << prefix << line << "\n"; };
  auto child = ChildProcessTransport::spawn(std::move(cp));
  if (!child) { report("gateway", "cannot start the upstream: " + child.error().message); return kExitError; }
  if (auto init = upstream->connect(*child); !init) {
    report("gateway", "the upstream did not initialize: " + init.error().message);
    return kExitError;
  }
  ServerOptions so;
  so.info.name = "mcp-trust-gateway/" + po.name;
  so.info.version = "0.1.0";
  auto proxy = gateway::Proxy::start(upstream, state->pins, state->audit, po, so);
  if (!proxy) { report("gateway", proxy.error().message); return kExitError; }
  {
    std::lock_guard lock(proxy_slot->mutex);
    proxy_slot->proxy = *proxy;
  }
  auto ended = (*proxy)->server()->serve_stdio();
  upstream->close();
  if (ended) { report("gateway", ended->message); return kExitError; }
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

int run_decide(const GatewayCliOptions& o, bool approve) {
  const std::string what = approve ? "gateway approve" : "gateway reject";
  std::optional<ListKind> kind;
  if (!o.kind.empty()) {
    kind = list_kind_of_result_key(o.kind);
    if (!kind) { report(what, "--kind: tools, prompts, resources or resourceTemplates"); return kExitUsage; }
  }
  auto state = gateway::open_state(state_dir(o));
  if (!state) { report(what, state.error().message); return kExitError; }
  const char* user = std::getenv("USER");
  const std::string who = std::string("cli:") + (user ? user : "unknown");
  auto decided = approve ? state->pins->approve(o.server, o.item, kind, who) : state->pins->reject(o.server, o.item, kind, who);
  if (!decided) { report(what, decided.error().message); return kExitError; }
  return write_stdout(std::string(approve ? "approved " : "rejected ") + std::string(item_noun(decided->kind)) + " " +
                      peer_text(decided->key) + " of " + peer_text(decided->server) + " (" + decided->seen_hash + ")\n")
             ? kExitOk
             : kExitError;
}

}  // namespace

Command add_gateway(CLI::App& parent) {
  auto o = std::make_shared<GatewayCliOptions>();
  CLI::App* app = parent.add_subcommand("gateway", "Put trust in front of an MCP server that has none");
  app->footer(
      "mcp-trust gateway --stdio [--state DIR] -- COMMAND ARGS...  serves stdio in front of the stdio server COMMAND:\n"
      "  every tool is pinned (RFC 8785 + SHA-256) on first sight; one whose definition changes is quarantined\n"
      "  (hidden, calls refused) until approved; every call and decision is in the audit log (mcp-trust audit).\n"
      "  Wrap an mcpServers entry by prefixing its command: \"command\": \"mcp-trust\", \"args\": [\"gateway\",\n"
      "  \"--stdio\", \"--\", ORIGINAL COMMAND AND ARGS]. Not built yet: HTTP, several upstreams, prompts/resources.\n"
      "State: --state DIR (default $XDG_STATE_HOME/mcp-trust or ~/.local/state/mcp-trust).\n"
      "Exit codes: 0 ok, 1 errors, 2 usage errors.");
  app->add_flag("--stdio", o->stdio, "Serve stdin/stdout in front of the upstream given after --");
  app->add_option("--state", o->state, "The state folder (pins, audit log)");
  app->add_option("--name", o->name, "The upstream's name in pins and the audit log (default: its program's)");
  app->add_option("--new-items", o->new_items, "Items never seen before: allow (default) or quarantine")
      ->check(CLI::IsMember({"allow", "quarantine"}));
  app->add_option("command", o->command, "-- COMMAND ARGS...");

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
  return {app, [o, pins, approve, reject] {
            if (pins->parsed()) return run_pins(*o);
            if (approve->parsed()) return run_decide(*o, true);
            if (reject->parsed()) return run_decide(*o, false);
            return run_stdio(*o);
          }};
}

}  // namespace mcp::cli
