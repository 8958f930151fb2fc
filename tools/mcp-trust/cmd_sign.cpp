// mcp-trust sign: a signed manifest for a tool list.
#include <memory>

#include "cli_io.hpp"
#include "commands.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/manifest.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp::cli {
namespace {

struct SignCliOptions {
  std::string key_file;
  std::string issuer;
  std::string key_id;
  std::string expires_in = "30d";
  std::int64_t now_ms = 0;
  CLI::Option* now_opt = nullptr;
  CLI::Option* key_id_opt = nullptr;
  std::string tools_file;
};

// The tools array of a tools/list result ({"tools": [...]}), of a JSON-RPC response carrying one
// ({"result": {"tools": [...]}}), or a bare array.
Result<const json::array*> find_tools(const json::value& doc) {
  if (doc.is_array()) return &doc.get_array();
  if (doc.is_object()) {
    const json::object* o = &doc.get_object();
    if (auto r = o->find("result"); r != o->end() && r->value().is_object() && !o->contains("tools"))
      o = &r->value().get_object();
    if (auto t = o->find("tools"); t != o->end() && t->value().is_array()) return &t->value().get_array();
  }
  return fail(Error::invalid_params(
      "expected a tools/list result ({\"tools\": [...]}), a JSON-RPC response carrying one, or an array of tools"));
}

int run_sign(const SignCliOptions& o) {
  if (o.key_file == "-" && o.tools_file == "-") {
    report("sign", "--key and the tools file cannot both be standard input");
    return kExitUsage;
  }
  auto lifetime = parse_duration_ms(o.expires_in);
  if (!lifetime) {
    report("sign", "--expires-in \"" + o.expires_in + "\": expected a positive number with a unit (ms, s, m, h, d, w), e.g. 30d");
    return kExitUsage;
  }
  if (o.issuer.empty()) {
    report("sign", "--issuer must not be empty");
    return kExitUsage;
  }

  auto key_text = read_input(o.key_file, 1 << 20);
  if (!key_text) { report("sign", key_text.error().message); return kExitError; }
  auto key = trust::Ed25519SecretKey::parse(*key_text);
  trust::secure_wipe(*key_text);
  if (!key) { report("sign", "--key " + o.key_file + ": " + key.error().message); return kExitError; }

  auto text = read_input(o.tools_file);
  if (!text) { report("sign", text.error().message); return kExitError; }
  auto doc = trust::parse_strict(*text);
  if (!doc) { report("sign", o.tools_file + ": " + doc.error().message); return kExitError; }
  auto arr = find_tools(*doc);
  if (!arr) { report("sign", o.tools_file + ": " + arr.error().message); return kExitError; }
  std::vector<Tool> tools;
  tools.reserve((*arr)->size());
  for (std::size_t i = 0; i < (*arr)->size(); ++i) {
    auto t = from_json<Tool>((**arr)[i]);
    if (!t) { report("sign", o.tools_file + ": tools[" + std::to_string(i) + "]: " + t.error().message); return kExitError; }
    tools.push_back(std::move(*t));
  }

  trust::SignOptions so;
  so.issuer = o.issuer;
  if (o.key_id_opt->count() > 0) so.key_id = o.key_id;
  so.issued_at_ms = o.now_opt->count() > 0 ? o.now_ms : trust::now_unix_ms();
  so.lifetime_ms = *lifetime;
  auto signed_manifest = trust::sign_tools(std::move(tools), *key, so);
  if (!signed_manifest) { report("sign", signed_manifest.error().message); return kExitError; }
  // Printed in canonical form: stable bytes, diff-friendly, and what a verifier hashes anyway.
  auto out = trust::canonicalize(to_json(*signed_manifest));
  if (!out) { report("sign", out.error().message); return kExitError; }
  if (!write_stdout(*out + "\n")) { report("sign", "cannot write to standard output"); return kExitError; }
  return kExitOk;
}

}  // namespace

Command add_sign(CLI::App& parent) {
  auto o = std::make_shared<SignCliOptions>();
  CLI::App* app = parent.add_subcommand("sign", "Sign a tool list, printing a signed manifest");
  app->footer(
      "Sign a tool list and print the signed manifest {\"manifest\": {issuer, keyId, issuedAt,\n"
      "expiresAt, tools}, \"signature\": \"ed25519:<hex>\"} on one line. The input is a tools/list\n"
      "result, a JSON-RPC response carrying one, or a bare array of tools.");
  app->add_option("--key", o->key_file, "Secret key file: PKCS#8 PEM or 64 hex digits (- for standard input)")->required();
  app->add_option("--issuer", o->issuer, "Issuer name written into the manifest")->required();
  o->key_id_opt = app->add_option("--key-id", o->key_id, "Key id written into the manifest (default: sha256:<fingerprint>)");
  app->add_option("--expires-in", o->expires_in, "Lifetime: a number and a unit (ms, s, m, h, d, w)")->capture_default_str();
  o->now_opt = app->add_option("--now", o->now_ms, "issuedAt in Unix milliseconds (default: the current time)");
  app->add_option("tools", o->tools_file, "Tools JSON file, or - for standard input")->required();
  return {app, [o] { return run_sign(*o); }};
}

}  // namespace mcp::cli
