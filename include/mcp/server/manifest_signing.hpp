// mcp/server/manifest_signing.hpp — serving signed tool manifests (the proposal's
// io.modelcontextprotocol/signed-manifests extension; wire format in docs/wire/signed-manifest.md).
//
// A server given a ManifestSigning (Server::set_manifest_signing):
//   - advertises capabilities["io.modelcontextprotocol/signed-manifests"] =
//     {"algorithm": "ed25519", "keyId": <key_id>}, as the reference implementation's proposal §1;
//   - answers `tools/manifest` (no params) with {"manifest": {issuer, keyId, issuedAt, expiresAt,
//     tools}, "signature": "ed25519:<hex>"} (proposal §3).
//
// Which tools: exactly those tools/list shows the asking session, whole and unpaged (the proposal
// signs "the tool definitions exactly as returned by tools/list"). So availability hooks and a
// capability signature's worst-case annotations apply to the manifest as they do to the list, and an
// honest server's every listed tool equals its manifest entry. When they change (a tool added,
// removed or replaced, availability changed), the next tools/manifest is signed afresh; clients
// fetch it again after notifications/tools/list_changed.
//
// Signing is lazy and cached: a manifest is re-used while the tools it covers are unchanged and it
// is younger than half its lifetime (so a client never receives one about to expire), and signed
// again, with the current time as issuedAt, otherwise.
//
// Threat model: the secret key stays in this process (moved in, wiped when the server is
// destroyed). A signature says the key holder vouches for these definitions; it does not make the
// tools safe, and it does not protect against this process itself being compromised.
//
// Thread-safety: a plain value, moved into the server.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "mcp/trust/ed25519.hpp"

namespace mcp {

struct ManifestSigning {
  trust::Ed25519SecretKey key;
  std::string issuer{};                 // required: the manifest's "issuer" (e.g. the server's name)
  std::optional<std::string> key_id{};  // default: the key's "sha256:" fingerprint
  // expiresAt - issuedAt. Default one day: short enough that a leaked old manifest soon stops
  // verifying (docs/wire/signed-manifest.md §6, replay), long enough for any session's clock skew.
  std::chrono::milliseconds lifetime = std::chrono::hours(24);
};

}  // namespace mcp
