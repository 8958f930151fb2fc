// mcp/trust/manifest.hpp — signed tool manifests, exactly as the proposal's reference
// implementation (RajSidwadkar/mcp-signed-manifests, src/types.ts and src/signer.ts) puts them on
// the wire:
//
//   manifest        = {"issuer": string, "keyId": string, "issuedAt": ms, "expiresAt": ms, "tools": [Tool...]}
//   signed manifest = {"manifest": manifest, "signature": "ed25519:" 128*lowercase-hex}
//   signature       = Ed25519 over the canonical bytes (RFC 8785, mcp/trust/jcs.hpp) of `manifest`
//   manifestHash    = "sha256:" + hex(SHA-256(canonical bytes of `manifest`))
//
// Times are Unix milliseconds (JavaScript's Date.now()), held to safe integers (|t| < 2^53) so they
// mean the same in every JSON implementation. Tools carry their whole definition (name, title,
// description, input and output schema, annotations, icons, _meta), so an annotation flip or a
// rename changes the signature. Grammar and threat model: docs/wire/signed-manifest.md.
//
// This header builds and signs manifests. Checking one received from a peer is verify.hpp's job,
// and works on the received JSON itself, never on a re-serialisation of these structs.
//
// Thread-safety: plain values and free functions; copy freely, call concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/trust/ed25519.hpp"

namespace mcp::trust {

// The signature algorithm prefix, and the capability key a server advertises (reference §1).
inline constexpr std::string_view kSignaturePrefix = "ed25519:";
inline constexpr std::string_view kSignedManifestsCapability = "io.modelcontextprotocol/signed-manifests";

// Largest magnitude a time may have: Number.MAX_SAFE_INTEGER, 2^53 - 1.
inline constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;

struct ToolManifest {
  std::string issuer{};
  std::string key_id{};              // "keyId"
  std::int64_t issued_at_ms = 0;   // "issuedAt", Unix ms
  std::int64_t expires_at_ms = 0;  // "expiresAt", Unix ms; expired once now > expiresAt
  std::vector<Tool> tools{};
  json::object extra{};  // members the reference does not define, kept (and signed) as received
};

struct SignedManifest {
  ToolManifest manifest{};
  std::string signature{};  // "ed25519:<128 lowercase hex>"
  json::object extra{};     // unknown envelope members; not covered by the signature
};

}  // namespace mcp::trust

// The conversions live in namespace mcp, beside every other protocol type's (mcp/json.hpp).
namespace mcp {
json::value to_json(const trust::ToolManifest&);
json::value to_json(const trust::SignedManifest&);
// Fails (code -32602) unless every field has its type, times are safe integers with
// issuedAt <= expiresAt, and tool names are unique. Does not check the signature.
template <> Result<trust::ToolManifest> from_json<trust::ToolManifest>(const json::value&);
template <> Result<trust::SignedManifest> from_json<trust::SignedManifest>(const json::value&);
}  // namespace mcp

namespace mcp::trust {

// The bytes the signature covers: RFC 8785 canonical form of to_json(manifest).
[[nodiscard]] Result<std::string> canonical_bytes(const ToolManifest& manifest);
// "sha256:<64 lowercase hex>" of canonical_bytes(manifest): the proposal's manifestHash.
[[nodiscard]] Result<std::string> manifest_hash(const ToolManifest& manifest);

// "ed25519:" + lowercase hex.
std::string format_signature(const Ed25519Signature& sig);

// Signs `manifest` as it stands. Fails if it does not satisfy from_json<ToolManifest>'s rules
// (so nothing is signed that a verifier would call malformed) or cannot be canonicalised.
[[nodiscard]] Result<SignedManifest> sign_manifest(ToolManifest manifest, const Ed25519SecretKey& key);

struct SignOptions {
  std::string issuer{};                 // required, non-empty
  std::optional<std::string> key_id{};  // default: key.public_key().key_id()
  std::int64_t issued_at_ms = 0;      // usually the current time (now_unix_ms() in verify.hpp)
  std::int64_t lifetime_ms = std::int64_t{30} * 24 * 60 * 60 * 1000;  // default 30 days, as the reference demo
};

// Builds the manifest for `tools` from `options` and signs it.
[[nodiscard]] Result<SignedManifest> sign_tools(std::vector<Tool> tools, const Ed25519SecretKey& key, const SignOptions& options);

}  // namespace mcp::trust
