// mcp/trust/verify.hpp — verification of a signed tool manifest. Never throws; returns a verdict.
//
// Threat model. Protects: a client or gateway holding a trusted public key (or a trust store) learns
// whether the tool definitions it received are exactly those the key's holder signed, and signed
// for the present time. Tampering anywhere between signer and verifier (a compromised relay,
// registry or cache, a "rug pull" edit of a description after approval) yields bad_signature.
// Parser disagreements are closed off: the received text is parsed strictly (duplicate names, lone
// surrogates and invalid UTF-8 are malformed) and the signature is checked over the canonical bytes
// of the manifest exactly as received, never over a re-serialisation of typed structs.
// Does not protect: against the key holder itself signing a malicious tool; against a stolen key
// (remove it from the trust store); confidentiality (manifests are public); replay of an older
// manifest that is still within its validity window (bound it with short expiresAt, or pin the
// manifestHash); the behaviour of a tool, only its description. Times come from the signer and
// from this host's clock, trusted within VerifyOptions::clock_skew_ms.
//
// Checks, in order (the first failure is the verdict):
//   1. size, strict JSON parse, envelope shape            -> malformed
//   2. signature "<alg>:<hex>": alg other than ed25519     -> unsupported_algorithm;
//      not exactly 128 lowercase hex digits                -> malformed
//   3. manifest fields (types, safe-integer times, issuedAt <= expiresAt, unique tool names,
//      tool count)                                         -> malformed
//   4. key: with a trust store, keyId absent or bound to another issuer -> unknown_key
//      (with a single public key, keyId is not consulted, as in the reference implementation)
//   5. Ed25519 over the canonical bytes of `manifest`      -> bad_signature
//   6. now + skew < issuedAt                               -> not_yet_valid
//      now - skew > expiresAt                              -> expired
//   7. trust-store window: issuedAt + skew < notBefore     -> not_yet_valid
//                          issuedAt - skew > notAfter      -> expired
//
// Thread-safety: free functions over const inputs; call concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/json.hpp"
#include "mcp/trust/ed25519.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/manifest.hpp"
#include "mcp/trust/trust_store.hpp"

namespace mcp::trust {

enum class Verdict {
  valid,
  bad_signature,
  expired,
  not_yet_valid,
  unknown_key,
  malformed,
  unsupported_algorithm,
};

// "valid", "bad_signature", "expired", "not_yet_valid", "unknown_key", "malformed",
// "unsupported_algorithm": the names the CLI prints and logs use.
std::string_view to_string(Verdict v) noexcept;

// Default tolerance between the signer's clock and ours: 5 minutes, the customary bound for signed
// tokens (Kerberos, most JWT libraries).
inline constexpr std::int64_t kDefaultClockSkewMs = 5 * 60 * 1000;

struct VerifyOptions {
  std::optional<std::int64_t> now_ms{};              // default: the system clock
  std::int64_t clock_skew_ms = kDefaultClockSkewMs;  // negative counts as 0
  // Size and nesting of the signed manifest. Default 8 MiB and 64 levels: a 100-tool manifest is
  // ~100 KB and tool schemas nest a handful of levels.
  JcsLimits limits{64, std::size_t{8} << 20};
  std::size_t max_tools = 10000;  // default 10,000
};

struct VerifyResult {
  Verdict verdict = Verdict::malformed;
  std::string detail{};  // why, in words; empty when valid
  // Set once the signature has been checked (verdicts valid, expired, not_yet_valid), so it is
  // authentic; act on it only when ok().
  std::optional<ToolManifest> manifest{};
  std::string manifest_hash{};  // "sha256:..." once the canonical bytes were computed
  std::string key_id{};         // the manifest's keyId, once read
  // The input broke a limit of VerifyOptions (size, depth, number of tools): the verdict is
  // malformed, and a client should treat the peer as hostile rather than as a failed check.
  bool limit_exceeded = false;

  bool ok() const noexcept { return verdict == Verdict::valid; }
};

// Verifies raw text (preferred for anything from a peer: it gets the strict parse).
VerifyResult verify_manifest(std::string_view signed_json, const Ed25519PublicKey& key,
                             const VerifyOptions& options = {}) noexcept;
VerifyResult verify_manifest(std::string_view signed_json, const TrustStore& store,
                             const VerifyOptions& options = {}) noexcept;
// Verifies an already-parsed value, e.g. a tools/manifest result. Boost.JSON's own parser has
// already resolved any duplicate names in it; use the text overloads when the text is at hand.
VerifyResult verify_manifest(const json::value& signed_manifest, const Ed25519PublicKey& key,
                             const VerifyOptions& options = {}) noexcept;
VerifyResult verify_manifest(const json::value& signed_manifest, const TrustStore& store,
                             const VerifyOptions& options = {}) noexcept;

// Milliseconds since the Unix epoch, from the system clock.
// Time arithmetic on Unix milliseconds that saturates at the int64 range instead of overflowing:
// a window check given INT64_MAX ("--now", "--clock-skew", a key's notAfter) must still fail or
// pass for the right reason, never through undefined behaviour.
constexpr std::int64_t add_ms(std::int64_t a, std::int64_t b) noexcept {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}
constexpr std::int64_t sub_ms(std::int64_t a, std::int64_t b) noexcept {
  if (b == INT64_MIN) return a >= 0 ? INT64_MAX : add_ms(a + 1, INT64_MAX);
  return add_ms(a, -b);
}

std::int64_t now_unix_ms() noexcept;

}  // namespace mcp::trust
