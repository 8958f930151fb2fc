// mcp-trust client: call a server from the shell while holding it to its capability signature and,
// with --manifest-key or --trust-store, to its signed tool manifest.
//
//   mcp-trust client [--mode strict|permissive|advisory] [--signature FILE] [--json]
//                    [--manifest-key FILE | --trust-store FILE]
//                    -- COMMAND ARGS... (tools | call NAME [JSON] | watch --for DURATION)
//
// Exit codes: 0 all is well; 4 a signature or manifest violation in strict mode; 1 other errors;
// 2 usage.
#include <iostream>
#include <memory>

#include "cli_io.hpp"
#include "client_cli.hpp"
#include "commands.hpp"
#include "mcp/http/card_fetch.hpp"
#include "mcp/signature/card.hpp"
#include "mcp/trust/trust_store.hpp"

namespace mcp::cli {
namespace {

struct ClientCliOptions {
  std::string mode = "strict";
  std::string signature_file;
  std::string manifest_key;  // public key file: the manifest must verify with it
  std::string trust_store;   // or a trust store file
  std::string url;
  std::string protocol;  // empty: 2026-07-28, falling back to 2025-11-25
  std::vector<std::string> profiles;  // --profile, repeatable: requestedProfiles
  std::string card_key;               // --card-key: verify the server card's proof (signed profile)
  bool json_output = false;
  std::vector<std::string> tokens;
};

// A file from `mcp-trust scan` (a bare signature) or a saved server card (its "signature").
Result<ServerSignature> load_signature(const std::string& path) {
  auto text = read_input(path, SignatureLimits{}.max_bytes + 1);
  if (!text) return fail(text.error());
  boost::system::error_code ec;
  json::value v = json::parse(*text, ec);
  if (!ec && v.is_object() && v.get_object().contains("signature") && v.get_object().at("signature").is_object()) {
    auto card = parse_server_card(*text);
    if (!card) return fail(card.error());
    return card->signature;
  }
  return parse_server_signature_text(*text);
}

// With --manifest-key or --trust-store: the server must sign its tools, and every tools/list is held
// to the manifest, in the same mode as the signature.
Result<std::optional<ManifestPolicy>> manifest_policy(const ClientCliOptions& o, EnforcementMode mode) {
  if (o.manifest_key.empty() && o.trust_store.empty()) return std::optional<ManifestPolicy>{};
  ManifestPolicy p;
  p.mode = mode;
  p.require = true;
  if (!o.manifest_key.empty()) {
    auto text = read_input(o.manifest_key, 1 << 16);
    if (!text) return fail(text.error());
    auto key = trust::Ed25519PublicKey::parse(*text);
    if (!key) return fail(Error::invalid_params("--manifest-key " + o.manifest_key + ": " + key.error().message));
    p.public_key = *key;
  } else {
    auto store = trust::TrustStore::load_file(o.trust_store);
    if (!store) return fail(Error::invalid_params("--trust-store " + o.trust_store + ": " + store.error().message));
    p.trust_store = std::make_shared<const trust::TrustStore>(std::move(*store));
  }
  return std::optional<ManifestPolicy>(std::move(p));
}

// The verified manifest, for the tools output; null without one.
json::value manifest_json(const Client& client) {
  auto v = client.manifest_verification();
  if (!v) return nullptr;
  json::object m{{"verdict", trust::to_string(v->verdict)}, {"keyId", v->key_id}, {"hash", v->manifest_hash}};
  if (v->manifest) m["issuer"] = v->manifest->issuer;
  if (v->manifest) m["tools"] = v->manifest->tools.size();
  return m;
}

json::array listed_tools_json(const std::vector<Tool>& tools) {
  json::array a;
  for (const auto& t : tools) a.push_back(to_json(t));
  return a;
}

int run_tools(ClientRun& run) {
  auto tools = run.client->list_all_tools();
  if (!tools) return fail_with(run, tools.error());
  const auto unavailable = run.client->available_if_enabled();
  if (run.json_output) {
    json::object out{{"server", to_json(run.client->server().server_info)},
                     {"protocol", run.client->server().protocol_version},
                     {"profile", run.client->profile() ? json::value(*run.client->profile()) : json::value(nullptr)},
                     {"mode", to_string(run.mode)}};
    if (auto sig = run.client->signature()) {
      auto digest = signature_digest(*sig);
      out["signature"] = json::object{{"digest", digest ? *digest : ""}, {"tools", sig->tools.size()}};
    } else {
      out["signature"] = nullptr;
    }
    out["tools"] = listed_tools_json(*tools);
    json::array avail;
    for (const auto& d : unavailable)
      avail.push_back(json::object{{"list", list_method(d.kind)}, {"key", d.key}});
    out["availableIfEnabled"] = std::move(avail);
    out["manifest"] = manifest_json(*run.client);
    json::array violations;
    for (const auto& v : run.client->signature_violations()) violations.push_back(to_json(v));
    for (const auto& v : run.client->manifest_violations()) violations.push_back(to_json(v));
    out["violations"] = std::move(violations);
    return write_stdout(pretty_json(out)) ? kExitOk : kExitError;
  }
  std::string s;
  const auto& info = run.client->server().server_info;
  // Everything below comes from the server: quoted through peer_text (bounded, control characters
  // escaped), so a server cannot forge lines of this report or drive the terminal.
  s += "server: " + peer_text(info.name) + " " + peer_text(info.version) + "\n";
  if (auto sig = run.client->signature()) {
    s += "signature: " + std::to_string(sig->tools.size()) + " tools, " + std::to_string(sig->prompts.size()) +
         " prompts, " + std::to_string(sig->resources.size()) + " resources, " +
         std::to_string(sig->resource_templates.size()) + " templates; mode " + std::string(to_string(run.mode)) + "\n";
  } else {
    s += "signature: none (schema freezing); mode " + std::string(to_string(run.mode)) + "\n";
  }
  if (auto v = run.client->manifest_verification()) {
    s += "manifest: " + std::string(trust::to_string(v->verdict));
    if (v->manifest) s += ", " + std::to_string(v->manifest->tools.size()) + " tools signed by " + peer_text(v->manifest->issuer);
    s += " (keyId " + peer_text(v->key_id) + ", " + v->manifest_hash + ")\n";
  }
  s += "tools (" + std::to_string(tools->size()) + "):\n";
  for (const auto& t : *tools)
    s += "  " + peer_text(t.name) + "  [" + describe_hints(t.annotations) + "]  " + peer_text(t.description.value_or(""), 1024) + "\n";
  bool header = false;
  for (const auto& d : unavailable) {
    if (d.kind != ListKind::tools) continue;
    if (!header) s += "available if enabled:\n";
    header = true;
    s += "  " + peer_text(d.key) + "\n";
  }
  return write_stdout(s) ? kExitOk : kExitError;
}

int run_call(ClientRun& run, const ClientAction& action) {
  // Listing first holds the server to its signature before anything is called.
  auto tools = run.client->list_all_tools();
  if (!tools) return fail_with(run, tools.error());
  auto r = run.client->call_tool(action.tool, action.arguments);
  if (!r) return fail_with(run, r.error());
  if (run.json_output) {
    if (!write_stdout(pretty_json(to_json(*r)))) return kExitError;
  } else {
    std::string s;
    for (const auto& c : r->content) {
      if (const auto* t = std::get_if<TextContent>(&c)) s += t->text + "\n";
      else s += to_string(to_json(c)) + "\n";
    }
    if (r->structured_content) s += to_string(*r->structured_content) + "\n";
    if (!write_stdout(s)) return kExitError;
  }
  return r->is_error.value_or(false) ? kExitError : kExitOk;
}

int run_client(ClientCliOptions& o) {
  auto inv = parse_client_tokens(o.tokens, !o.url.empty());
  if (!inv) { report("client", inv.error().message); return kExitUsage; }
  if (!o.url.empty() && !inv->command.empty()) {
    report("client", "give either --url or -- COMMAND, not both");
    return kExitUsage;
  }
  quiet_sdk_logs();

  ClientRun run;
  run.mode = *parse_enforcement_mode(o.mode);  // CLI11 checked the value
  run.json_output = o.json_output;
  SignaturePolicy policy;
  policy.mode = run.mode;
  if (!o.signature_file.empty()) {
    auto sig = load_signature(o.signature_file);
    if (!sig) { report("client", "--signature " + o.signature_file + ": " + sig.error().message); return kExitError; }
    policy.expected = std::move(*sig);
  }
  std::optional<std::string> verified_card;
  if (!o.url.empty() && !policy.expected) {
    // Over HTTP the server card comes first: its signature is what the session is then held to,
    // and initialize must return the same one (rule "stability").
    auto card = http::fetch_server_card(o.url);
    if (card) {
      std::cerr << "mcp-trust client: server card " << card->url << ": signature "
                << card->card.signature_digest << "\n";
      if (!o.card_key.empty()) {
        // Its proof, for profiles that need one (signed/1.x): verified here, or the run stops.
        auto text = read_input(o.card_key);
        auto key = text ? trust::Ed25519PublicKey::parse(*text) : Result<trust::Ed25519PublicKey>(fail(text.error()));
        if (!key) { report("client", "--card-key " + o.card_key + ": " + key.error().message); return kExitError; }
        auto proof = verify_server_card(card->body, *key);
        if (!proof.ok()) {
          report("client", "the server card's proof does not verify: " + std::string(trust::to_string(proof.verdict)) +
                               (proof.detail.empty() ? "" : " (" + peer_text(proof.detail) + ")"));
          return kExitVerifyFailed;
        }
        verified_card = card->card.signature_digest;
      }
      policy.expected = std::move(card->card.signature);
    } else {
      std::cerr << "mcp-trust client: no server card (" << card.error().message << ")\n";
      if (!o.card_key.empty()) { report("client", "--card-key: no server card to verify"); return kExitVerifyFailed; }
    }
  }
  policy.on_violation = [&run](const SignatureViolation& v) { run.on_violation(v); };
  auto manifest = manifest_policy(o, run.mode);
  if (!manifest) { report("client", manifest.error().message); return kExitError; }
  if (*manifest) (*manifest)->on_violation = [&run](const SignatureViolation& v) { run.on_violation(v); };

  ClientOptions co;
  co.info.name = "mcp-trust";
  if (!o.protocol.empty()) {
    co.protocol_version = o.protocol;
    co.fallback = false;  // a revision asked for by name is that revision or nothing
  }
  co.profiles = o.profiles;
  co.verified_card_signature = verified_card;
  co.signature_policy = std::move(policy);
  co.manifest = std::move(*manifest);
  co.on_list_changed = [&run](const std::string& list) {
    auto kind = list_kind_of_method("notifications/" + list + "/list_changed");
    if (!kind) return;
    std::lock_guard lock(run.mu);
    run.changed.insert(*kind);
    run.cv.notify_all();
  };
  co.on_closed = [&run](const std::optional<Error>& reason) {
    std::lock_guard lock(run.mu);
    run.closed = true;
    run.close_reason = reason;
    run.cv.notify_all();
  };
  Client client(std::move(co));
  run.client = &client;
  auto init = o.url.empty() ? connect_child(client, inv->command) : connect_url(client, o.url);
  if (!init) return fail_with(run, init.error());

  int rc = kExitOk;
  switch (inv->action.kind) {
    case ClientAction::Kind::tools: rc = run_tools(run); break;
    case ClientAction::Kind::call: rc = run_call(run, inv->action); break;
    case ClientAction::Kind::watch: rc = run_watch(run, inv->action.duration); break;
    case ClientAction::Kind::tree: rc = run_tree(run, inv->action); break;
    case ClientAction::Kind::meta: rc = run_meta(run, inv->action); break;
  }
  {
    // Closing is expected from here on; the watch loop is done with the flag.
    std::lock_guard lock(run.mu);
    run.closed = true;
  }
  client.close();
  return rc;
}

}  // namespace

Command add_client(CLI::App& parent) {
  auto o = std::make_shared<ClientCliOptions>();
  CLI::App* app = parent.add_subcommand("client", "Call an MCP server, holding it to its capability signature");
  app->footer(
      "Runs the server as a child over stdio (or talks to --url over Streamable HTTP) and checks every list it returns against its capability\n"
      "signature (SEP-2091: from initialize or server/discover, or --signature), or, if it has none, against its first lists.\n"
      "It speaks MCP 2026-07-28 when the server does, 2025-11-25 otherwise (--protocol forces one).\n"
      "Actions, after the server command:\n"
      "  tools                  list the tools (and what the signature declares but is not listed now)\n"
      "  call NAME [JSON]       list, then call tool NAME with the JSON object as arguments\n"
      "  watch --for DURATION   stay connected, follow list_changed and check every list (500ms, 10s, 5m)\n"
      "  tree [URI] [--depth N] the resources under URI (default: the server's list), depth N (default 3),\n"
      "                         through resources/list with a uri (SEP-2093); cycles and repeats shown once\n"
      "  meta URI               one resource's metadata (resources/metadata; older servers: its listing)\n"
      "With --manifest-key or --trust-store, the server must also serve a signed tool manifest\n"
      "(tools/manifest) that verifies, and every listed tool must equal its signed definition.\n"
      "Modes: strict ends the session on a violation, naming the item and the field (exit 4);\n"
      "permissive prints violations and goes on; advisory only reports them.\n"
      "Exit codes: 0 all is well, 4 a signature or manifest violation in strict mode, 1 other errors,\n"
      "2 usage errors.\n"
      "Example: mcp-trust client --mode strict -- file-manager --grant-admin-after 1s watch --for 3s");
  app->add_option("--mode", o->mode, "Enforcement mode: strict, permissive or advisory")
      ->check(CLI::IsMember({"strict", "permissive", "advisory"}))
      ->capture_default_str();
  app->add_option("--signature", o->signature_file,
                  "Expected signature: a file from `mcp-trust scan`, or a saved server card");
  auto* mk = app->add_option("--manifest-key", o->manifest_key,
                             "Verify the server's signed tool manifest with this public key (SPKI PEM or hex)");
  auto* ts = app->add_option("--trust-store", o->trust_store,
                             "Verify the server's signed tool manifest with this trust store (JSON)");
  mk->excludes(ts);
  app->add_option("--url", o->url,
                  "Streamable HTTP endpoint (http://host:port/mcp) instead of a child; its server card is "
                  "fetched first and its signature enforced");
  app->add_option("--protocol", o->protocol,
                  "Speak this revision only: 2026-07-28, or 2025-11-25 (default: 2026-07-28 when the server speaks it, "
                  "else 2025-11-25)")
      ->check(CLI::IsMember({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}));
  app->add_option("--profile", o->profiles,
                  "Request this server profile (repeatable, in order of preference); the session fails unless the "
                  "server grants one, and a profile mcp-trust publishes (signed/1.x, read-only/1.x) must be met");
  app->add_option("--card-key", o->card_key,
                  "With --url: verify the server card's proof with this public key (the signed profile needs it)");
  app->add_flag("--json", o->json_output, "Machine-readable output");
  app->add_option("command", o->tokens, "-- COMMAND ARGS... ACTION");
  return {app, [o] { return run_client(*o); }};
}

}  // namespace mcp::cli
