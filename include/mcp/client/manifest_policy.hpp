// mcp/client/manifest_policy.hpp — how a Client holds a server to its signed tool manifest (the
// proposal's io.modelcontextprotocol/signed-manifests; wire format in docs/wire/signed-manifest.md),
// set in ClientOptions::manifest.
//
// At connect, after initialize: if the server advertises the capability, the client calls
// tools/manifest and verifies the answer (mcp/trust/verify.hpp) against `public_key`, or else
// `trust_store`. The verdict must be valid; any other verdict is a violation naming it. A keyId
// in the capability that differs from the manifest's, or an algorithm other than ed25519, is one too.
//
// Then every tools/list result (each page, and list_all_tools' joined pages) is held to the
// verified manifest: each listed tool must equal the manifest's entry of the same name, whole
// definition compared as canonical JSON (title, description, inputSchema, outputSchema,
// annotations, icons, execution, _meta, any other member); the first member that differs is named.
// A listed tool absent from the manifest is a violation. Tools in the manifest but not listed are
// not (lists may be subsets, as availability changes). Before calling a list a violation, the
// client fetches the manifest once more: a server that changed its tools and re-signed them with
// the trusted key is believed (the proposal's §4: tampering is a change the signature does not
// cover). After notifications/tools/list_changed the manifest is fetched again before the next
// list is checked.
//
// Violations use the capability signatures' type and modes (mcp/client/signature_policy.hpp):
//   strict      the call (or connect) fails with kManifestViolationCode naming the tool and the
//               field (data: {"violations": [...]}), the session is closed, later calls fail alike;
//   permissive  a warning is logged with the same description; the result is returned;
//   advisory    nothing is logged; the violation is only reported.
// In every mode, violations reach on_violation and Client::manifest_violations().
//
// Thread-safety: a plain value; copied into the client.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "mcp/signature/checker.hpp"
#include "mcp/trust/ed25519.hpp"
#include "mcp/trust/trust_store.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp {

// The JSON-RPC error code of a call refused in strict mode because of a manifest violation
// (SDK-local, beside kSignatureViolationCode).
inline constexpr int kManifestViolationCode = -32061;

// SignatureViolation::rule values for signed manifests.
namespace manifest_rule {
inline constexpr std::string_view kRequired = "manifest-required";          // not advertised, but required
inline constexpr std::string_view kVerification = "manifest-verification";  // verdict not valid; field "manifest"
                                                                            // (or "keyId", "algorithm")
inline constexpr std::string_view kUnsigned = "manifest-unsigned";          // listed, absent from the manifest; field "name"
inline constexpr std::string_view kMismatch = "manifest-mismatch";          // listed differs; field: the member
}  // namespace manifest_rule

struct ManifestPolicy {
  EnforcementMode mode = EnforcementMode::strict;
  // The key to verify with (pinned; the manifest's keyId is not consulted, as in the reference)...
  std::optional<trust::Ed25519PublicKey> public_key{};
  // ... or, when no public_key is set, a trust store looked up by keyId (rotation, issuers).
  // With neither, every manifest is unknown_key.
  std::shared_ptr<const trust::TrustStore> trust_store{};
  // A server that does not advertise signed manifests is a violation (else it is not checked).
  bool require = false;
  trust::VerifyOptions verify;  // clock skew, size limits; now_ms for tests
  // Every violation, in every mode, on the thread that made the call (or connect()).
  std::function<void(const SignatureViolation&)> on_violation;
  // Each manifest verified valid, when it is first accepted: where an application pins the
  // manifestHash a user approved, or asks again when it changes.
  std::function<void(const trust::VerifyResult&)> on_manifest;
};

}  // namespace mcp
