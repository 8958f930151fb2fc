// mcp-trust verify: the verdict on a signed manifest. Exit 0 only when valid, 4 otherwise.
#include <filesystem>
#include <memory>

#include "cli_io.hpp"
#include "commands.hpp"
#include "mcp/trust/hex.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp::cli {
namespace {

struct VerifyCliOptions {
  std::string public_key;
  std::string trust_store;
  std::int64_t now_ms = 0;
  std::int64_t skew_ms = trust::kDefaultClockSkewMs;
  bool json_output = false;
  CLI::Option* now_opt = nullptr;
  std::string file;
};

// --public-key takes the key itself (64 hex digits) or the path of a key file (PEM or hex).
Result<trust::Ed25519PublicKey> load_public_key(const std::string& arg) {
  std::array<std::uint8_t, 32> raw{};
  if (trust::from_hex(arg, raw, true)) return trust::Ed25519PublicKey::from_bytes(raw);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(arg, ec))
    return fail(Error::invalid_params("--public-key: expected 64 hex digits or the path of a public key file"));
  auto text = read_input(arg, 1 << 20);
  if (!text) return fail(text.error());
  return trust::Ed25519PublicKey::parse(*text);
}

// Text output quotes what the manifest says (issuer, key id, tool names: chosen by whoever wrote
// the file) only through peer_text, so a forged manifest cannot print a line of its own ("valid")
// or drive the terminal with escape sequences.
std::string report_text(const trust::VerifyResult& r) {
  std::string out(trust::to_string(r.verdict));
  out += "\n";
  if (!r.detail.empty()) out += "detail: " + peer_text(r.detail, 4096) + "\n";
  if (r.manifest) {
    const auto& m = *r.manifest;
    out += "issuer: " + peer_text(m.issuer) + "\n";
    out += "keyId: " + peer_text(m.key_id) + "\n";
    out += "issuedAt: " + std::to_string(m.issued_at_ms) + " (" + format_time(m.issued_at_ms) + ")\n";
    out += "expiresAt: " + std::to_string(m.expires_at_ms) + " (" + format_time(m.expires_at_ms) + ")\n";
    out += "tools: " + std::to_string(m.tools.size()) + "\n";
    for (const auto& t : m.tools) out += "  " + peer_text(t.name) + "\n";
  }
  if (!r.manifest_hash.empty()) out += "manifestHash: " + r.manifest_hash + "\n";
  return out;
}

std::string report_json(const trust::VerifyResult& r) {
  json::object o;
  o["verdict"] = trust::to_string(r.verdict);
  if (!r.detail.empty()) o["detail"] = r.detail;
  if (!r.key_id.empty()) o["keyId"] = r.key_id;
  if (!r.manifest_hash.empty()) o["manifestHash"] = r.manifest_hash;
  if (r.manifest) {
    o["issuer"] = r.manifest->issuer;
    o["issuedAt"] = r.manifest->issued_at_ms;
    o["expiresAt"] = r.manifest->expires_at_ms;
    json::array names;
    for (const auto& t : r.manifest->tools) names.emplace_back(t.name);
    o["tools"] = std::move(names);
  }
  // Details may quote untrusted bytes; canonical output escapes them and stays valid JSON.
  auto text = trust::canonicalize(o);
  return (text ? *text : std::string("{\"verdict\":\"malformed\"}")) + "\n";
}

int run_verify(const VerifyCliOptions& o) {
  const bool have_key = !o.public_key.empty(), have_store = !o.trust_store.empty();
  if (have_key == have_store) {
    report("verify", "give exactly one of --public-key and --trust-store");
    return kExitUsage;
  }
  trust::VerifyOptions vo;
  if (o.now_opt->count() > 0) vo.now_ms = o.now_ms;
  vo.clock_skew_ms = o.skew_ms;

  std::optional<trust::Ed25519PublicKey> key;
  std::optional<trust::TrustStore> store;
  if (have_key) {
    auto k = load_public_key(o.public_key);
    if (!k) { report("verify", k.error().message); return kExitUsage; }
    key = *k;
  } else {
    auto s = trust::TrustStore::load_file(o.trust_store);
    if (!s) { report("verify", s.error().message); return kExitError; }
    store = std::move(*s);
  }
  auto text = read_input(o.file, vo.limits.max_bytes + 1);
  if (!text) { report("verify", text.error().message); return kExitError; }

  const trust::VerifyResult r = key ? trust::verify_manifest(*text, *key, vo) : trust::verify_manifest(*text, *store, vo);
  if (!write_stdout(o.json_output ? report_json(r) : report_text(r))) return kExitError;
  return r.ok() ? kExitOk : kExitVerifyFailed;
}

}  // namespace

Command add_verify(CLI::App& parent) {
  auto o = std::make_shared<VerifyCliOptions>();
  CLI::App* app = parent.add_subcommand("verify", "Verify a signed manifest and print the verdict");
  app->footer(
      "Verify a signed manifest. Prints the verdict (valid, bad_signature, expired, not_yet_valid,\n"
      "unknown_key, malformed, unsupported_algorithm) on the first line, then details. Exits 0 only\n"
      "when valid, 4 when verification fails for any reason.");
  auto* pk = app->add_option("--public-key", o->public_key, "Trusted public key: 64 hex digits, or a key file (SPKI PEM or hex)");
  auto* ts = app->add_option("--trust-store", o->trust_store, "Trust store JSON file (format: docs/wire/signed-manifest.md)");
  pk->excludes(ts);
  o->now_opt = app->add_option("--now", o->now_ms, "Current time in Unix milliseconds (default: the system clock)");
  app->add_option("--clock-skew", o->skew_ms, "Tolerated clock skew in milliseconds")->capture_default_str();
  app->add_flag("--json", o->json_output, "Print the result as one JSON object");
  app->add_option("file", o->file, "Signed manifest file, or - for standard input")->required();
  return {app, [o] { return run_verify(*o); }};
}

}  // namespace mcp::cli
