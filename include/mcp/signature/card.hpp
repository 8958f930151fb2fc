// mcp/signature/card.hpp — the server card (SEP-1649, `GET /.well-known/mcp.json`) carrying a
// capability signature, with a detached Ed25519 proof over the signature's canonical bytes.
//
// Card (grammar: docs/wire/capability-signature.md):
//   { "name": string, "version": string, "title"?, "description"?, "websiteUrl"?,   serverInfo
//     ...other SEP-1649 members, carried verbatim...,
//     "signature": ServerSignature,
//     "dev.mcp-trust/signatureProof"?: { "algorithm": "ed25519", "keyId": string,
//                                        "signature": "ed25519:" 128*lowercase-hex } }
// The proof is Ed25519 over the RFC 8785 canonical bytes of the "signature" member exactly as the
// card carries it, so it verifies however the card was fetched (HTTP, a file, a registry) and
// binds only the signature: the card's other members are descriptive. The signature must be
// canonically identical to the one in InitializeResult (the proposal: "they MUST be identical").
//
// HTTP (served by the transport layer; nothing here does I/O): the body is the card's canonical
// bytes, so equal cards give equal bodies, and the strong ETag is "\"sha256:<hex>\"" of that body.
//
// Threat model. Protects: a client holding the signer's public key (or a trust store) learns that
// the declared universe is exactly what the key holder signed; a relay or cache that edits it gets
// bad_signature. Does not protect: against the key holder declaring too little or too much, or a
// replay of an older signed card (pin the signature digest when that matters). Verification never
// throws; it returns a verdict (mcp/trust/verify.hpp's enum).
//
// Thread-safety: free functions over const inputs; call concurrently.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mcp/json.hpp"
#include "mcp/protocol/initialize.hpp"
#include "mcp/signature/signature.hpp"
#include "mcp/trust/ed25519.hpp"
#include "mcp/trust/trust_store.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp {

// The card member holding the detached proof, under the project's reverse-DNS prefix.
inline constexpr std::string_view kSignatureProofMember = "dev.mcp-trust/signatureProof";
// Where a Streamable HTTP server serves its card (SEP-1649).
inline constexpr std::string_view kServerCardPath = "/.well-known/mcp.json";
// A reasonable Cache-Control for the card: clients may reuse it for five minutes, then revalidate
// with If-None-Match (a 304 costs a round trip and no body).
inline constexpr std::string_view kServerCardCacheControl = "public, max-age=300, must-revalidate";

// Builds a card for `info` carrying `signature`, signed when `key` is given (keyId: the key's
// sha256 fingerprint unless `key_id` is set). With `issuer`, the proof names it and signs it
// together with the signature, so a trust store that binds the key to that issuer can check it.
// `extra` members are carried verbatim (they may not replace name, version or signature). Fails
// only if the signature cannot be canonicalised.
[[nodiscard]] Result<json::object> make_server_card(const Implementation& info, const ServerSignature& signature,
                                      const trust::Ed25519SecretKey* key = nullptr,
                                      std::optional<std::string> key_id = std::nullopt, json::object extra = {},
                                      std::optional<std::string> issuer = std::nullopt);

// What the HTTP layer serves: the canonical body and its strong ETag.
struct CardRepresentation {
  std::string body{};  // RFC 8785 canonical bytes of the card
  std::string etag{};  // "\"sha256:<64 hex>\"", quotes included
};
[[nodiscard]] Result<CardRepresentation> card_representation(const json::object& card);
// The same for any JSON document served this way (the profiles document, say).
[[nodiscard]] Result<CardRepresentation> canonical_representation(const json::value& document);

// Whether an If-None-Match header value matches `etag` (RFC 9110 section 13.1.2: "*", or a list of
// entity tags compared weakly, so W/"x" matches "x"). True means answer 304.
bool if_none_match(std::string_view header_value, std::string_view etag);

// A card as read, without verifying the proof.
struct ServerCard {
  json::object card{};                      // the whole card, as parsed
  ServerSignature signature{};              // its "signature", parsed under the limits
  std::string signature_digest{};           // "sha256:..." of the canonical bytes of "signature"
  std::optional<json::object> proof{};      // kSignatureProofMember, when present
};
// Strict JSON parse (mcp/trust/jcs.hpp) and the signature's limits. A card without "signature" is
// an error (this SDK reads cards for their signatures).
[[nodiscard]] Result<ServerCard> parse_server_card(std::string_view text, const SignatureLimits& limits = {});

struct CardVerification {
  trust::Verdict verdict = trust::Verdict::malformed;  // valid, bad_signature, unknown_key, malformed,
                                                       // unsupported_algorithm
  std::string detail{};                                  // why, in words; empty when valid
  std::optional<ServerCard> card{};                      // once parsed; act on it only when ok()
  std::string key_id{};                                  // the proof's keyId, once read
  bool ok() const noexcept { return verdict == trust::Verdict::valid; }
};
// Verifies the proof with one trusted key (the proof's keyId is not consulted) or with a trust
// store: keyId must name a key; the key must be in service now (its notBefore / notAfter against
// `now_ms`, default the system clock, give or take `clock_skew_ms`: not_yet_valid / expired); and
// a key bound to an issuer signs only proofs that name that issuer in signed bytes (the proof's
// "issuer", never the card's unsigned "name": unknown_key otherwise). A card without a proof is
// malformed here.
CardVerification verify_server_card(std::string_view text, const trust::Ed25519PublicKey& key,
                                    const SignatureLimits& limits = {}) noexcept;
CardVerification verify_server_card(std::string_view text, const trust::TrustStore& store,
                                    const SignatureLimits& limits = {},
                                    std::optional<std::int64_t> now_ms = std::nullopt,
                                    std::int64_t clock_skew_ms = trust::kDefaultClockSkewMs) noexcept;

}  // namespace mcp
