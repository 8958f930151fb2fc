#include "server/manifest_signer.hpp"

#include <algorithm>

#include "mcp/trust/manifest.hpp"
#include "mcp/trust/verify.hpp"
#include "mcp/trust/json_equal.hpp"

namespace mcp {

namespace {
bool same_tools(const json::array& a, const json::array& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!trust::canonically_equal(a[i], b[i])) return false;
  return true;
}
}  // namespace

ManifestSigner::ManifestSigner(ManifestSigning signing)
    : signing_(std::move(signing)), key_id_(signing_.key_id.value_or(signing_.key.public_key().key_id())) {}

Result<std::shared_ptr<ManifestSigner>> ManifestSigner::create(ManifestSigning signing) {
  if (signing.issuer.empty()) return fail(Error::invalid_params("manifest signing: the issuer must not be empty"));
  if (signing.key_id && signing.key_id->empty())
    return fail(Error::invalid_params("manifest signing: the key id must not be empty"));
  const auto ms = signing.lifetime.count();
  if (ms <= 0 || ms > trust::kMaxSafeInteger / 2)
    return fail(Error::invalid_params("manifest signing: the lifetime must be positive and below 2^52 ms"));
  return std::make_shared<ManifestSigner>(std::move(signing));
}

json::object ManifestSigner::capability() const {
  return json::object{{"algorithm", "ed25519"}, {"keyId", key_id_}};
}

Result<json::value> ManifestSigner::manifest_for(const json::array& tools) {
  const std::int64_t now = trust::now_unix_ms();
  {
    std::lock_guard lock(mu_);
    for (auto it = cache_.begin(); it != cache_.end(); ++it) {
      if (now >= it->refresh_at_ms || !same_tools(it->tools, tools)) continue;
      json::value result = it->result;
      std::rotate(cache_.begin(), it, it + 1);
      return result;
    }
  }
  // The manifest carries the tools through the trust library's Tool type, which keeps unknown
  // members, so it signs what tools/list shows, member for member.
  std::vector<Tool> typed;
  typed.reserve(tools.size());
  for (const auto& t : tools) {
    auto tool = from_json<Tool>(t);
    if (!tool) return fail(Error::internal("tools/manifest: a listed tool does not convert: " + tool.error().message));
    typed.push_back(std::move(*tool));
  }
  trust::SignOptions o{.issuer = signing_.issuer, .key_id = key_id_, .issued_at_ms = now,
                       .lifetime_ms = signing_.lifetime.count()};
  auto signed_manifest = trust::sign_tools(std::move(typed), signing_.key, o);
  if (!signed_manifest) return fail(Error::internal("tools/manifest: cannot sign: " + signed_manifest.error().message));
  json::value result = to_json(*signed_manifest);

  std::lock_guard lock(mu_);
  cache_.insert(cache_.begin(), Cached{tools, result, now + signing_.lifetime.count() / 2});
  if (cache_.size() > kCacheEntries) cache_.pop_back();
  return result;
}

}  // namespace mcp
