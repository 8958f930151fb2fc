// Signed-manifest verification (contract, check order and threat model in mcp/trust/verify.hpp).
#include "mcp/trust/verify.hpp"

#include <chrono>
#include <exception>
#include <optional>

#include "mcp/trust/hex.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::trust {
namespace {

VerifyResult verdict(Verdict v, std::string detail) {
  VerifyResult r;
  r.verdict = v;
  r.detail = std::move(detail);
  return r;
}

// Where the public key comes from: one key given by the caller, or a trust store entry.
struct KeySource {
  const Ed25519PublicKey* single = nullptr;
  const TrustStore* store = nullptr;
};

std::string ms(std::int64_t t) { return std::to_string(t) + " ms"; }

VerifyResult verify_value(const json::value& doc, KeySource source, const VerifyOptions& opt) {
  // 1. Envelope.
  if (!doc.is_object()) return verdict(Verdict::malformed, "a signed manifest must be a JSON object");
  const json::object& env = doc.get_object();
  auto mit = env.find("manifest");
  auto sit = env.find("signature");
  if (mit == env.end() || !mit->value().is_object())
    return verdict(Verdict::malformed, "\"manifest\" is missing or not an object");
  if (sit == env.end() || !sit->value().is_string())
    return verdict(Verdict::malformed, "\"signature\" is missing or not a string");

  // 2. Signature: "<algorithm>:<hex>". The algorithm decides between "we cannot check this kind of
  // signature" and "this is not a signature at all".
  const std::string_view sig_text = sit->value().get_string();
  const auto colon = sig_text.find(':');
  if (colon == std::string_view::npos)
    return verdict(Verdict::malformed, "signature has no \"<algorithm>:\" prefix");
  const std::string_view alg = sig_text.substr(0, colon);
  if (alg != kSignaturePrefix.substr(0, kSignaturePrefix.size() - 1)) {
    std::string shown(alg.substr(0, 32));
    for (char& c : shown)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
    return verdict(Verdict::unsupported_algorithm, "signature algorithm \"" + shown + "\" is not supported (only ed25519)");
  }
  Ed25519Signature sig{};
  if (!from_hex(sig_text.substr(colon + 1), sig))
    return verdict(Verdict::malformed, "signature must be \"ed25519:\" followed by 128 lowercase hex digits");

  // 3. Manifest fields.
  const json::object& mobj = mit->value().get_object();
  if (auto tools = mobj.find("tools"); tools != mobj.end() && tools->value().is_array() &&
                                       tools->value().get_array().size() > opt.max_tools)
  {
    auto r = verdict(Verdict::malformed, "manifest lists " + std::to_string(tools->value().get_array().size()) +
                                             " tools, more than the limit of " + std::to_string(opt.max_tools) +
                                             " (max_tools)");
    r.limit_exceeded = true;
    return r;
  }
  // Boost.JSON copies share the source's memory resource, so typed fields converted straight from an
  // arena-backed DOM (ours in verify_text, or a caller's) would dangle once the arena goes. Convert
  // from a heap-owned copy unless the DOM already lives on the default heap or a shared resource.
  const json::storage_ptr& sp = mit->value().storage();
  std::optional<json::value> owned;
  if (!sp.is_shared() && sp.get() != json::storage_ptr().get()) owned.emplace(mit->value(), json::storage_ptr());
  auto manifest = from_json<ToolManifest>(owned ? *owned : mit->value());
  if (!manifest) return verdict(Verdict::malformed, manifest.error().message);
  VerifyResult result;
  result.key_id = manifest->key_id;

  // 4. Key.
  const TrustedKey* entry = nullptr;
  const Ed25519PublicKey* key = source.single;
  if (source.store != nullptr) {
    entry = source.store->find(manifest->key_id);
    if (entry == nullptr) {
      result.verdict = Verdict::unknown_key;
      result.detail = "key id \"" + peer_text(manifest->key_id) + "\" is not in the trust store";
      return result;
    }
    if (entry->issuer && *entry->issuer != manifest->issuer) {
      result.verdict = Verdict::unknown_key;
      result.detail = "key \"" + entry->key_id + "\" is trusted for issuer \"" + *entry->issuer + "\", not \"" +
                      peer_text(manifest->issuer) + "\"";
      return result;
    }
    key = &entry->public_key;
  }

  // 5. Signature over the canonical bytes of the manifest as received.
  auto bytes = canonicalize(mit->value(), opt.limits);
  if (!bytes) {
    result.verdict = Verdict::malformed;
    result.detail = bytes.error().message;
    return result;
  }
  result.manifest_hash = sha256_tag(std::string_view(*bytes));
  if (!key->verify(std::string_view(*bytes), sig)) {
    result.verdict = Verdict::bad_signature;
    result.detail = "the signature does not match the manifest for key " + key->key_id();
    return result;
  }
  result.manifest = std::move(*manifest);
  const ToolManifest& m = *result.manifest;

  // 6. The manifest's own window, against our clock.
  const std::int64_t now = opt.now_ms.value_or(now_unix_ms());
  const std::int64_t skew = opt.clock_skew_ms > 0 ? opt.clock_skew_ms : 0;
  if (add_ms(now, skew) < m.issued_at_ms) {
    result.verdict = Verdict::not_yet_valid;
    result.detail = "issuedAt " + ms(m.issued_at_ms) + " is after now " + ms(now) + " plus the allowed skew " + ms(skew);
    return result;
  }
  if (sub_ms(now, skew) > m.expires_at_ms) {
    result.verdict = Verdict::expired;
    result.detail = "expiresAt " + ms(m.expires_at_ms) + " is before now " + ms(now) + " minus the allowed skew " + ms(skew);
    return result;
  }

  // 7. The key's service window, against the manifest's issuedAt.
  if (entry != nullptr) {
    if (entry->not_before_ms && add_ms(m.issued_at_ms, skew) < *entry->not_before_ms) {
      result.verdict = Verdict::not_yet_valid;
      result.detail = "key \"" + entry->key_id + "\" enters service at " + ms(*entry->not_before_ms) +
                      ", after the manifest's issuedAt " + ms(m.issued_at_ms);
      return result;
    }
    if (entry->not_after_ms && sub_ms(m.issued_at_ms, skew) > *entry->not_after_ms) {
      result.verdict = Verdict::expired;
      result.detail = "key \"" + entry->key_id + "\" was retired at " + ms(*entry->not_after_ms) +
                      ", before the manifest's issuedAt " + ms(m.issued_at_ms);
      return result;
    }
  }
  result.verdict = Verdict::valid;
  return result;
}

// The single entry point behind the four overloads: turns any exception (allocation failure, an
// OpenSSL internal error) into a verdict, because callers rely on "never throws".
template <class F>
VerifyResult guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    return verdict(Verdict::malformed, std::string("verification aborted: ") + e.what());
  } catch (...) {
    return verdict(Verdict::malformed, "verification aborted");
  }
}

VerifyResult verify_text(std::string_view text, KeySource source, const VerifyOptions& opt) {
  // Parsed onto the default heap, not an arena: the typed manifest handed back shares the DOM's memory
  // (Boost.JSON copies keep their source's resource), and a copy out of an arena costs more than
  // the arena saves.
  auto doc = parse_strict(text, opt.limits);
  if (!doc) {
    auto r = verdict(Verdict::malformed, doc.error().message);
    r.limit_exceeded = doc.error().data && doc.error().data->is_object() && doc.error().data->get_object().contains("limit");
    return r;
  }
  return verify_value(*doc, source, opt);
}

}  // namespace

std::string_view to_string(Verdict v) noexcept {
  switch (v) {
    case Verdict::valid: return "valid";
    case Verdict::bad_signature: return "bad_signature";
    case Verdict::expired: return "expired";
    case Verdict::not_yet_valid: return "not_yet_valid";
    case Verdict::unknown_key: return "unknown_key";
    case Verdict::malformed: return "malformed";
    case Verdict::unsupported_algorithm: return "unsupported_algorithm";
  }
  return "malformed";
}

std::int64_t now_unix_ms() noexcept {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

VerifyResult verify_manifest(std::string_view signed_json, const Ed25519PublicKey& key, const VerifyOptions& options) noexcept {
  return guarded([&] { return verify_text(signed_json, KeySource{&key, nullptr}, options); });
}

VerifyResult verify_manifest(std::string_view signed_json, const TrustStore& store, const VerifyOptions& options) noexcept {
  return guarded([&] { return verify_text(signed_json, KeySource{nullptr, &store}, options); });
}

VerifyResult verify_manifest(const json::value& signed_manifest, const Ed25519PublicKey& key,
                             const VerifyOptions& options) noexcept {
  return guarded([&] { return verify_value(signed_manifest, KeySource{&key, nullptr}, options); });
}

VerifyResult verify_manifest(const json::value& signed_manifest, const TrustStore& store,
                             const VerifyOptions& options) noexcept {
  return guarded([&] { return verify_value(signed_manifest, KeySource{nullptr, &store}, options); });
}

}  // namespace mcp::trust
