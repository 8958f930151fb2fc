// mcp-trust keygen: a fresh Ed25519 key.
#include <iostream>
#include <memory>

#include "cli_io.hpp"
#include "commands.hpp"
#include "mcp/trust/ed25519.hpp"

namespace mcp::cli {
namespace {

struct KeygenOptions {
  std::string out;
  std::string public_out;
  std::string format = "pem";
  bool force = false;
};

int run_keygen(const KeygenOptions& o) {
  const auto key = trust::Ed25519SecretKey::generate();
  std::string secret = o.format == "hex" ? key.seed_hex() + "\n" : key.to_pem();
  const std::string info = "publicKey: " + key.public_key().hex() + "\nkeyId: " + key.public_key().key_id() + "\n";
  int rc = kExitOk;
  if (o.out.empty() || o.out == "-") {
    // The secret owns stdout so it can be redirected on its own; the public half goes to stderr.
    if (!write_stdout(secret)) { report("keygen", "cannot write to standard output"); rc = kExitError; }
    std::cerr << info;
  } else if (auto w = write_secret_file(o.out, secret, o.force); !w) {
    report("keygen", w.error().message);
    rc = kExitError;
  } else if (!write_stdout(info)) {
    rc = kExitError;
  }
  trust::secure_wipe(secret);
  if (rc == kExitOk && !o.public_out.empty()) {
    const std::string pub = o.format == "hex" ? key.public_key().hex() + "\n" : key.public_key().to_pem();
    if (auto w = write_public_file(o.public_out, pub); !w) {
      report("keygen", w.error().message);
      rc = kExitError;
    }
  }
  return rc;
}

}  // namespace

Command add_keygen(CLI::App& parent) {
  auto o = std::make_shared<KeygenOptions>();
  CLI::App* app = parent.add_subcommand("keygen", "Generate an Ed25519 signing key");
  app->footer(
      "Generate an Ed25519 signing key. With --out the secret key is written to FILE (mode 0600) and\n"
      "the public key and key id are printed; without it the secret key goes to standard output and\n"
      "the public key and key id to standard error.");
  app->add_option("--out", o->out, "Write the secret key to FILE (refuses to replace a file without --force)");
  app->add_option("--public-out", o->public_out, "Also write the public key to FILE");
  app->add_option("--format", o->format, "Key file format: pem (PKCS#8 / SPKI, as OpenSSL writes) or hex (64 hex digits)")
      ->check(CLI::IsMember({"pem", "hex"}))
      ->capture_default_str();
  app->add_flag("--force", o->force, "Replace an existing --out file");
  return {app, [o] { return run_keygen(*o); }};
}

}  // namespace mcp::cli
