// Server cards: building, serving (body and ETag), reading and verifying the detached proof.
#include "mcp/signature/card.hpp"

#include <exception>

#include "mcp/trust/hex.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/manifest.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp {

namespace {

constexpr std::string_view kAlgorithm = "ed25519";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view opaque_tag(std::string_view tag) {
  tag = trim(tag);
  if (tag.starts_with("W/")) tag.remove_prefix(2);
  return tag;
}

CardVerification verdict(trust::Verdict v, std::string detail) {
  CardVerification r;
  r.verdict = v;
  r.detail = std::move(detail);
  return r;
}

struct KeySource {
  const trust::Ed25519PublicKey* single = nullptr;
  const trust::TrustStore* store = nullptr;
  std::optional<std::int64_t> now_ms;
  std::int64_t clock_skew_ms = trust::kDefaultClockSkewMs;
};

// What a proof signs: the card's signature, or, when the proof names an issuer, the issuer and the
// signature together ({"issuer": ..., "signature": ...}), so the issuer is as authentic as the rest.
json::value signed_part(const json::value& signature, const std::optional<std::string>& issuer) {
  if (!issuer) return signature;
  return json::object{{"issuer", *issuer}, {"signature", signature}};
}

CardVerification verify(std::string_view text, KeySource source, const SignatureLimits& limits) {
  auto card = parse_server_card(text, limits);
  if (!card) return verdict(trust::Verdict::malformed, card.error().message);
  if (!card->proof)
    return verdict(trust::Verdict::malformed, "the card carries no \"" + std::string(kSignatureProofMember) + "\"");
  const json::object& proof = *card->proof;
  const json::value* alg = proof.if_contains("algorithm");
  const json::value* key_id = proof.if_contains("keyId");
  const json::value* sig = proof.if_contains("signature");
  if (alg == nullptr || !alg->is_string() || key_id == nullptr || !key_id->is_string() || sig == nullptr ||
      !sig->is_string())
    return verdict(trust::Verdict::malformed, "the proof needs string members algorithm, keyId and signature");
  if (alg->get_string() != kAlgorithm)
    return verdict(trust::Verdict::unsupported_algorithm, "proof algorithm is not ed25519");
  const std::string_view sig_text = sig->get_string();
  if (!sig_text.starts_with(trust::kSignaturePrefix)) {
    return verdict(sig_text.find(':') != std::string_view::npos ? trust::Verdict::unsupported_algorithm
                                                                 : trust::Verdict::malformed,
                   "proof signature must be \"ed25519:\" followed by 128 lowercase hex digits");
  }
  trust::Ed25519Signature raw{};
  if (!trust::from_hex(sig_text.substr(trust::kSignaturePrefix.size()), raw))
    return verdict(trust::Verdict::malformed, "proof signature must be \"ed25519:\" followed by 128 lowercase hex digits");

  std::optional<std::string> issuer;
  if (const json::value* i = proof.if_contains("issuer")) {
    if (!i->is_string()) return verdict(trust::Verdict::malformed, "the proof's issuer must be a string");
    issuer = std::string(i->get_string());
  }

  CardVerification result;
  result.key_id = std::string(key_id->get_string());
  const trust::Ed25519PublicKey* key = source.single;
  if (source.store != nullptr) {
    const trust::TrustedKey* entry = source.store->find(result.key_id);
    if (entry == nullptr) {
      result.verdict = trust::Verdict::unknown_key;
      result.detail = "keyId \"" + peer_text(result.key_id) + "\" is not in the trust store";
      return result;
    }
    // The issuer is taken only from signed bytes: the card's "name" is not covered by the proof, so
    // anyone could write any name there.
    if (entry->issuer && issuer != entry->issuer) {
      result.verdict = trust::Verdict::unknown_key;
      result.detail = "key \"" + peer_text(result.key_id) + "\" signs only for issuer \"" + *entry->issuer +
                      "\"; the proof names " + (issuer ? "issuer \"" + peer_text(*issuer) + "\"" : "no issuer");
      return result;
    }
    // The key's service window, against now: a card carries no time of its own.
    const std::int64_t now = source.now_ms.value_or(trust::now_unix_ms());
    const std::int64_t skew = std::max<std::int64_t>(source.clock_skew_ms, 0);
    if (entry->not_before_ms && trust::add_ms(now, skew) < *entry->not_before_ms) {
      result.verdict = trust::Verdict::not_yet_valid;
      result.detail = "key \"" + peer_text(result.key_id) + "\" is not in service until " + std::to_string(*entry->not_before_ms);
      return result;
    }
    if (entry->not_after_ms && trust::sub_ms(now, skew) > *entry->not_after_ms) {
      result.verdict = trust::Verdict::expired;
      result.detail = "key \"" + peer_text(result.key_id) + "\" was retired at " + std::to_string(*entry->not_after_ms);
      return result;
    }
    key = &entry->public_key;
  }
  // Over the signature exactly as the card carries it, never a re-serialisation of parsed structs.
  auto bytes = trust::canonicalize(signed_part(card->card.at("signature"), issuer));
  if (!bytes) return verdict(trust::Verdict::malformed, bytes.error().message);
  if (!key->verify(*bytes, raw)) {
    result.verdict = trust::Verdict::bad_signature;
    result.detail = "the proof does not verify over the card's signature";
    return result;
  }
  result.verdict = trust::Verdict::valid;
  result.card = std::move(*card);
  return result;
}

CardVerification verify_noexcept(std::string_view text, KeySource source, const SignatureLimits& limits) noexcept {
  try {
    return verify(text, source, limits);
  } catch (const std::exception& e) {
    // Allocation failure on a huge card; the verdict still fails closed.
    try {
      return verdict(trust::Verdict::malformed, e.what());
    } catch (...) {
      return CardVerification{};
    }
  }
}

}  // namespace

Result<json::object> make_server_card(const Implementation& info, const ServerSignature& signature,
                                      const trust::Ed25519SecretKey* key, std::optional<std::string> key_id,
                                      json::object extra, std::optional<std::string> issuer) {
  json::object card = to_json(info).as_object();
  for (auto& kv : extra) {
    const std::string_view k = kv.key();
    if (k == "name" || k == "version" || k == "signature" || k == kSignatureProofMember) continue;
    card[k] = std::move(kv.value());
  }
  json::value sig = to_json(signature);
  if (key != nullptr) {
    auto bytes = trust::canonicalize(signed_part(sig, issuer));
    if (!bytes) return fail(bytes.error());
    json::object proof{
        {"algorithm", kAlgorithm},
        {"keyId", key_id ? *key_id : key->public_key().key_id()},
        {"signature", trust::format_signature(key->sign(*bytes))},
    };
    if (issuer) proof["issuer"] = *issuer;
    card[kSignatureProofMember] = std::move(proof);
  }
  card["signature"] = std::move(sig);
  return card;
}

Result<CardRepresentation> card_representation(const json::object& card) { return canonical_representation(card); }

Result<CardRepresentation> canonical_representation(const json::value& document) {
  auto body = trust::canonicalize(document);
  if (!body) return fail(body.error());
  CardRepresentation r;
  r.etag = "\"" + trust::sha256_tag(*body) + "\"";
  r.body = std::move(*body);
  return r;
}

bool if_none_match(std::string_view header_value, std::string_view etag) {
  header_value = trim(header_value);
  if (header_value == "*") return true;
  const std::string_view want = opaque_tag(etag);
  while (!header_value.empty()) {
    const auto comma = header_value.find(',');
    if (opaque_tag(header_value.substr(0, comma)) == want) return true;
    if (comma == std::string_view::npos) break;
    header_value.remove_prefix(comma + 1);
  }
  return false;
}

Result<ServerCard> parse_server_card(std::string_view text, const SignatureLimits& limits) {
  if (text.size() > limits.max_bytes)
    return fail(Error::invalid_params("the card is " + std::to_string(text.size()) + " bytes, over the limit of " +
                                      std::to_string(limits.max_bytes) + " bytes (SignatureLimits::max_bytes)"));
  auto v = trust::parse_strict(text, trust::JcsLimits{limits.max_depth, limits.max_bytes});
  if (!v) return fail(v.error());
  if (!v->is_object()) return fail(Error::invalid_params("the card must be a JSON object"));
  ServerCard out;
  out.card = std::move(v->as_object());
  const json::value* sig = out.card.if_contains("signature");
  if (sig == nullptr || !sig->is_object()) return fail(Error::invalid_params("the card has no \"signature\" object"));
  auto parsed = parse_server_signature(*sig, limits);
  if (!parsed) return fail(parsed.error());
  out.signature = std::move(*parsed);
  auto bytes = trust::canonicalize(*sig);
  if (!bytes) return fail(bytes.error());
  out.signature_digest = trust::sha256_tag(*bytes);
  if (const json::value* p = out.card.if_contains(kSignatureProofMember)) {
    if (!p->is_object()) return fail(Error::invalid_params("\"" + std::string(kSignatureProofMember) + "\" must be an object"));
    out.proof = p->get_object();
  }
  return out;
}

CardVerification verify_server_card(std::string_view text, const trust::Ed25519PublicKey& key,
                                    const SignatureLimits& limits) noexcept {
  return verify_noexcept(text, KeySource{&key, nullptr}, limits);
}

CardVerification verify_server_card(std::string_view text, const trust::TrustStore& store,
                                    const SignatureLimits& limits, std::optional<std::int64_t> now_ms,
                                    std::int64_t clock_skew_ms) noexcept {
  return verify_noexcept(text, KeySource{nullptr, &store, now_ms, clock_skew_ms}, limits);
}

}  // namespace mcp
