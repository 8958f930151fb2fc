#include "mcp/trust/manifest.hpp"

#include <cmath>
#include <unordered_set>

#include "mcp/trust/hex.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"
#include "mcp/trust/verify.hpp"
#include "trust/manifest_fields.hpp"

namespace mcp::trust {

namespace detail {

std::optional<std::int64_t> safe_integer(const json::value& v) {
  if (v.is_int64()) {
    const std::int64_t i = v.get_int64();
    if (i >= -kMaxSafeInteger && i <= kMaxSafeInteger) return i;
  } else if (v.is_uint64()) {
    if (v.get_uint64() <= static_cast<std::uint64_t>(kMaxSafeInteger)) return static_cast<std::int64_t>(v.get_uint64());
  } else if (v.is_double()) {
    // 1.7e12 is an integer to JavaScript and to JCS (it prints as 1700000000000), so accept it.
    const double d = v.get_double();
    if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) <= static_cast<double>(kMaxSafeInteger))
      return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

}  // namespace detail

namespace {

Error invalid(std::string msg) { return Error::invalid_params(std::move(msg)); }

Result<std::string> read_string(const json::object& o, std::string_view key, std::string_view what) {
  auto it = o.find(key);
  if (it == o.end()) return fail(invalid(std::string(what) + "." + std::string(key) + ": required field is missing"));
  if (!it->value().is_string()) return fail(invalid(std::string(what) + "." + std::string(key) + ": expected a string"));
  return std::string(it->value().get_string());
}

Result<std::int64_t> read_time(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end()) return fail(invalid("ToolManifest." + std::string(key) + ": required field is missing"));
  auto t = detail::safe_integer(it->value());
  if (!t) return fail(invalid("ToolManifest." + std::string(key) + ": expected Unix milliseconds as an integer below 2^53"));
  return *t;
}

}  // namespace
}  // namespace mcp::trust

namespace mcp {

using trust::SignedManifest;
using trust::ToolManifest;
using trust::invalid;
using trust::read_string;
using trust::read_time;

json::value to_json(const ToolManifest& m) {
  json::object o;
  o["issuer"] = m.issuer;
  o["keyId"] = m.key_id;
  o["issuedAt"] = m.issued_at_ms;
  o["expiresAt"] = m.expires_at_ms;
  json::array tools;
  tools.reserve(m.tools.size());
  for (const auto& t : m.tools) tools.push_back(to_json(t));
  o["tools"] = std::move(tools);
  for (const auto& kv : m.extra)
    if (!o.contains(kv.key())) o.emplace(kv.key(), kv.value());
  return o;
}

json::value to_json(const SignedManifest& s) {
  json::object o;
  o["manifest"] = to_json(s.manifest);
  o["signature"] = s.signature;
  for (const auto& kv : s.extra)
    if (!o.contains(kv.key())) o.emplace(kv.key(), kv.value());
  return o;
}

template <>
Result<ToolManifest> from_json<ToolManifest>(const json::value& v) {
  if (!v.is_object()) return fail(invalid("ToolManifest: expected an object"));
  const json::object& o = v.get_object();
  ToolManifest m;
  auto issuer = read_string(o, "issuer", "ToolManifest");
  if (!issuer) return fail(issuer.error());
  auto key_id = read_string(o, "keyId", "ToolManifest");
  if (!key_id) return fail(key_id.error());
  auto issued = read_time(o, "issuedAt");
  if (!issued) return fail(issued.error());
  auto expires = read_time(o, "expiresAt");
  if (!expires) return fail(expires.error());
  if (*expires < *issued) return fail(invalid("ToolManifest: expiresAt is before issuedAt"));
  auto tools_it = o.find("tools");
  if (tools_it == o.end()) return fail(invalid("ToolManifest.tools: required field is missing"));
  if (!tools_it->value().is_array()) return fail(invalid("ToolManifest.tools: expected an array"));
  const json::array& tools = tools_it->value().get_array();
  m.tools.reserve(tools.size());
  std::unordered_set<std::string_view> names;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    auto t = from_json<Tool>(tools[i]);
    if (!t) return fail(invalid("ToolManifest.tools[" + std::to_string(i) + "] -> " + t.error().message));
    m.tools.push_back(std::move(*t));
  }
  // A manifest naming one tool twice cannot say which definition a tools/list entry must match.
  for (const auto& t : m.tools)
    if (!names.insert(t.name).second) return fail(invalid("ToolManifest.tools: duplicate tool name \"" + t.name + "\""));
  m.issuer = std::move(*issuer);
  m.key_id = std::move(*key_id);
  m.issued_at_ms = *issued;
  m.expires_at_ms = *expires;
  for (const auto& kv : o) {
    const auto k = kv.key();
    if (k != "issuer" && k != "keyId" && k != "issuedAt" && k != "expiresAt" && k != "tools") m.extra.emplace(k, kv.value());
  }
  return m;
}

template <>
Result<SignedManifest> from_json<SignedManifest>(const json::value& v) {
  if (!v.is_object()) return fail(invalid("SignedManifest: expected an object"));
  const json::object& o = v.get_object();
  auto sig = read_string(o, "signature", "SignedManifest");
  if (!sig) return fail(sig.error());
  auto mit = o.find("manifest");
  if (mit == o.end()) return fail(invalid("SignedManifest.manifest: required field is missing"));
  auto m = from_json<ToolManifest>(mit->value());
  if (!m) return fail(invalid("SignedManifest.manifest -> " + m.error().message));
  SignedManifest s{std::move(*m), std::move(*sig), {}};
  for (const auto& kv : o)
    if (kv.key() != "manifest" && kv.key() != "signature") s.extra.emplace(kv.key(), kv.value());
  return s;
}

}  // namespace mcp

namespace mcp::trust {

Result<std::string> canonical_bytes(const ToolManifest& manifest) { return canonicalize(to_json(manifest)); }

Result<std::string> manifest_hash(const ToolManifest& manifest) {
  auto bytes = canonical_bytes(manifest);
  if (!bytes) return fail(bytes.error());
  return sha256_tag(std::string_view(*bytes));
}

std::string format_signature(const Ed25519Signature& sig) { return std::string(kSignaturePrefix) + to_hex(sig); }



Result<SignedManifest> sign_manifest(ToolManifest manifest, const Ed25519SecretKey& key) {
  json::value doc = to_json(manifest);
  // Validate what will be signed with the verifier's own rules: a signer must not produce a
  // manifest every verifier rejects as malformed.
  if (auto check = from_json<ToolManifest>(doc); !check) return fail(check.error());
  auto bytes = canonicalize(doc);
  if (!bytes) return fail(bytes.error());
  return SignedManifest{std::move(manifest), format_signature(key.sign(*bytes)), {}};
}

Result<SignedManifest> sign_tools(std::vector<Tool> tools, const Ed25519SecretKey& key, const SignOptions& options) {
  if (options.issuer.empty()) return fail(invalid("sign: the issuer must not be empty"));
  if (options.lifetime_ms <= 0) return fail(invalid("sign: the lifetime must be positive"));
  if (options.issued_at_ms < -kMaxSafeInteger || options.issued_at_ms > kMaxSafeInteger ||
      options.lifetime_ms > kMaxSafeInteger - options.issued_at_ms)
    return fail(invalid("sign: issuedAt + lifetime is beyond 2^53 milliseconds"));
  ToolManifest m;
  m.issuer = options.issuer;
  m.key_id = options.key_id.value_or(key.public_key().key_id());
  m.issued_at_ms = options.issued_at_ms;
  m.expires_at_ms = add_ms(options.issued_at_ms, options.lifetime_ms);
  m.tools = std::move(tools);
  return sign_manifest(std::move(m), key);
}

}  // namespace mcp::trust
