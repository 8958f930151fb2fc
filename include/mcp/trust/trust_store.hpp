// mcp/trust/trust_store.hpp — which keys a verifier trusts, for which issuer, and when.
//
// A TrustStore maps key ids to Ed25519 public keys, each with an optional validity window over the
// manifest's issuedAt, so keys rotate without a flag day:
//   - notBefore: the key is not yet in service; a manifest claiming an earlier issuedAt is
//     refused (verdict not_yet_valid).
//   - notAfter: the key is retired; a manifest issued after it is refused (verdict expired).
//     Manifests issued while it was in service stay valid until their own expiresAt.
//   - issuer: when set, the key signs only for that issuer; a manifest naming another issuer gets
//     verdict unknown_key.
// Retiring is not revoking: issuedAt is the signer's claim, so whoever holds a stolen key can
// backdate it. Remove a compromised key from the store (every manifest then gets unknown_key).
// Window edges allow the clock skew of VerifyOptions (default 5 minutes).
//
// File format (JSON, strict: unknown members are errors, so a misspelt "notAfter" cannot silently
// leave a retired key trusted); specified in docs/wire/signed-manifest.md:
//   {"keys": [{"keyId": "sha256:...",      optional, default: the key's sha256 fingerprint
//              "algorithm": "ed25519",     optional, the only value accepted
//              "publicKey": "<64 hex>",    or an SPKI PEM string
//              "issuer": "server-name",    optional
//              "notBefore": 1750000000000, optional Unix ms
//              "notAfter": 1760000000000,  optional Unix ms
//              "comment": "..."}]}         optional, ignored
// Every key is checked when the store is built; duplicate key ids and empty windows are errors.
//
// Thread-safety: build it once, then share it: const member functions may run concurrently.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/json.hpp"
#include "mcp/trust/ed25519.hpp"

namespace mcp::trust {

struct TrustedKey {
  std::string key_id{};
  Ed25519PublicKey public_key;
  std::optional<std::int64_t> not_before_ms{};  // "notBefore"
  std::optional<std::int64_t> not_after_ms{};   // "notAfter"
  std::optional<std::string> issuer{};
};

class TrustStore {
 public:
  // Adds a key. Fails on an empty or duplicate key id, or notBefore > notAfter.
  [[nodiscard]] Result<void> add(TrustedKey key);
  // The entry for `key_id`, or nullptr. The pointer lives as long as the store is not modified.
  const TrustedKey* find(std::string_view key_id) const noexcept;
  std::size_t size() const noexcept { return keys_.size(); }
  const std::map<std::string, TrustedKey, std::less<>>& keys() const noexcept { return keys_; }

  // The file format above. Errors (code -32602 or -32700) name the entry and the field.
  [[nodiscard]] static Result<TrustStore> from_json(const json::value& v);
  [[nodiscard]] static Result<TrustStore> parse(std::string_view text);  // strict JSON (mcp/trust/jcs.hpp)
  [[nodiscard]] static Result<TrustStore> load_file(const std::filesystem::path& path);  // at most 16 MiB
  json::value to_json() const;

 private:
  std::map<std::string, TrustedKey, std::less<>> keys_;
};

}  // namespace mcp::trust
