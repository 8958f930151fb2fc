// mcp-trust card: fetch a server card (GET /.well-known/mcp.json), validate it, print it.
//
//   mcp-trust card [--public-key FILE | --trust-store FILE [--now MS]] [--json] URL
//
// URL is the MCP endpoint (http://host:port/mcp) or the card's own URL. The card must parse and
// carry a capability signature within the limits; with a key or trust store, its detached proof
// must verify. Exit 0 when it does, 4 when the proof fails, 1 on other errors, 2 on usage errors.
#include <iostream>
#include <memory>

#include "cli_io.hpp"
#include "cli_mcp.hpp"
#include "commands.hpp"
#include "mcp/http/server_card.hpp"

namespace mcp::cli {
namespace {

struct CardCliOptions {
  std::string url;
  std::string public_key;
  std::string trust_store;
  bool json_output = false;
  std::int64_t now_ms = 0;  // with --now: the trust store's keys are judged at this time
  CLI::Option* now_opt = nullptr;
};

int run_card(const CardCliOptions& o) {
  quiet_sdk_logs();
  auto fetched = http::fetch_server_card(o.url);
  if (!fetched) {
    report("card", fetched.error().message);
    return kExitError;
  }
  const auto& card = fetched->card;
  std::optional<CardVerification> proof;
  if (!o.public_key.empty()) {
    auto text = read_input(o.public_key);
    if (!text) { report("card", "--public-key: " + text.error().message); return kExitError; }
    auto key = trust::Ed25519PublicKey::parse(*text);
    if (!key) { report("card", "--public-key " + o.public_key + ": " + key.error().message); return kExitError; }
    proof = verify_server_card(fetched->body, *key);
  } else if (!o.trust_store.empty()) {
    auto text = read_input(o.trust_store);
    if (!text) { report("card", "--trust-store: " + text.error().message); return kExitError; }
    auto store = trust::TrustStore::parse(*text);
    if (!store) { report("card", "--trust-store " + o.trust_store + ": " + store.error().message); return kExitError; }
    const auto now = o.now_opt->count() > 0 ? std::optional<std::int64_t>(o.now_ms) : std::nullopt;
    proof = verify_server_card(fetched->body, *store, {}, now);
  }

  if (o.json_output) {
    json::object out{{"url", fetched->url},
                     {"etag", fetched->etag},
                     {"signatureDigest", card.signature_digest},
                     {"card", card.card}};
    if (proof) out["proof"] = json::object{{"verdict", trust::to_string(proof->verdict)}, {"detail", proof->detail}};
    if (!write_stdout(pretty_json(out))) return kExitError;
  } else {
    std::string s = "card: " + fetched->url + "\n";
    s += "etag: " + peer_text(fetched->etag) + "\n";
    s += "signature: " + card.signature_digest + " (" + std::to_string(card.signature.tools.size()) + " tools, " +
         std::to_string(card.signature.prompts.size()) + " prompts, " + std::to_string(card.signature.resources.size()) +
         " resources, " + std::to_string(card.signature.resource_templates.size()) + " resource templates)\n";
    s += "proof: " + std::string(card.proof ? "present" : "none");
    // The detail may quote the card (key ids): escaped, so a card cannot print lines of its own.
    if (proof) s += ", " + std::string(trust::to_string(proof->verdict)) + (proof->detail.empty() ? "" : " (" + peer_text(proof->detail, 4096) + ")");
    s += "\n" + pretty_json(card.card);
    if (!write_stdout(s)) return kExitError;
  }
  if (proof && !proof->ok()) return kExitVerifyFailed;
  return kExitOk;
}

}  // namespace

Command add_card(CLI::App& parent) {
  auto o = std::make_shared<CardCliOptions>();
  CLI::App* app = parent.add_subcommand("card", "Fetch, validate and print a server card");
  app->footer(
      "Fetches the server card from /.well-known/mcp.json followed by the endpoint's path (else from\n"
      "/.well-known/mcp.json at its origin), checks that it carries a valid\n"
      "capability signature (SEP-2091) within the limits, and prints it. With --public-key or\n"
      "--trust-store, its detached Ed25519 proof over the signature's canonical bytes must verify.\n"
      "Exit codes: 0 valid, 4 the proof does not verify, 1 other errors, 2 usage errors.\n"
      "Example: mcp-trust card http://localhost:8080/mcp");
  auto* pk = app->add_option("--public-key", o->public_key, "Verify the card's proof with this public key");
  auto* ts = app->add_option("--trust-store", o->trust_store, "Verify the card's proof with this trust store");
  pk->excludes(ts);
  // As `verify --now`: a trust store's keys have their time (notBefore, notAfter); a bare key has none.
  o->now_opt = app->add_option("--now", o->now_ms,
                               "With --trust-store: the current time in Unix milliseconds "
                               "(default: the system clock)");
  o->now_opt->needs(ts);
  app->add_flag("--json", o->json_output, "Machine-readable output");
  app->add_option("url", o->url, "The MCP endpoint URL (or the card's URL)")->required();
  return {app, [o] { return run_card(*o); }};
}

}  // namespace mcp::cli
