// Shared fixtures for the manifest, verification and trust-store tests: a fixed key (RFC 8032 test
// 1, so failures reproduce) and a small tool list with the fields a tampering would touch.
#pragma once

#include <string>
#include <vector>

#include "mcp/protocol/tool.hpp"
#include "mcp/trust/ed25519.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/manifest.hpp"

namespace mcp::trust::test {

inline constexpr std::string_view kSeedHex = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
inline constexpr std::int64_t kIssuedAt = 1750000000000;        // 2025-06-15T15:06:40Z
inline constexpr std::int64_t kLifetime = 30LL * 86400 * 1000;  // 30 days

inline Ed25519SecretKey fixed_key() { return std::move(*Ed25519SecretKey::from_hex(kSeedHex)); }

inline std::vector<Tool> sample_tools() {
  Tool email;
  email.name = "send_email";
  email.title = "Send email";
  email.description = "Sends an email on behalf of the authenticated user.";
  email.input_schema = json::parse(
                           R"({"type":"object","required":["to","subject","body"],)"
                           R"("properties":{"to":{"type":"string"},"subject":{"type":"string"},"body":{"type":"string"}}})")
                           .as_object();
  email.annotations = ToolAnnotations{};
  email.annotations->destructive_hint = false;
  email.annotations->open_world_hint = true;
  Tool search;
  search.name = "search";
  search.description = "Searches the mailbox. Café, naïve, 😂, \"quotes\" and a\nnewline.";
  search.input_schema = json::parse(R"({"type":"object","properties":{"q":{"type":"string","maxLength":200}}})").as_object();
  search.output_schema = json::parse(R"({"type":"object","properties":{"hits":{"type":"number"}}})").as_object();
  return {email, search};
}

// The signed manifest of sample_tools() as canonical text.
inline std::string signed_sample(const Ed25519SecretKey& key, std::int64_t issued_at = kIssuedAt,
                                 std::int64_t lifetime = kLifetime, std::string issuer = "example-mcp-server",
                                 std::optional<std::string> key_id = std::nullopt) {
  SignOptions o;
  o.issuer = std::move(issuer);
  o.key_id = std::move(key_id);
  o.issued_at_ms = issued_at;
  o.lifetime_ms = lifetime;
  auto s = sign_tools(sample_tools(), key, o);
  return *canonicalize(to_json(*s));
}

// Replaces the first occurrence of `from` in `text` (ADD_FAILURE-free: callers assert the result differs).
inline std::string replace_once(std::string text, std::string_view from, std::string_view to) {
  auto pos = text.find(from);
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

}  // namespace mcp::trust::test
