// The client's cache of cacheable results (client/response_cache.hpp).
#include "client/response_cache.hpp"

#include "mcp/protocol/methods.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp {

ResponseCache::ResponseCache(const json::object& capabilities, std::size_t max_bytes) : max_bytes_(max_bytes) {
  auto canonical = trust::canonicalize(json::value(capabilities));
  capabilities_hash_ = trust::sha256_tag(canonical ? *canonical : json::serialize(capabilities));
}

bool ResponseCache::cacheable(std::string_view m) {
  return m == method::kToolsList || m == method::kPromptsList || m == method::kResourcesList ||
         m == method::kResourcesTemplatesList || m == method::kResourcesRead;
}

std::optional<std::string> ResponseCache::key(std::string_view m, const json::object& params) const {
  if (!cacheable(m) || params.contains("inputResponses") || params.contains("requestState")) return std::nullopt;
  json::object selecting = params;
  selecting.erase("_meta");
  auto canonical = trust::canonicalize(json::value(std::move(selecting)));
  if (!canonical) return std::nullopt;
  return std::string(m) + '\n' + capabilities_hash_ + '\n' + *canonical;
}

std::optional<json::value> ResponseCache::find(const std::string& k, Clock::time_point now) {
  std::lock_guard lock(mu_);
  auto it = by_key_.find(k);
  if (it == by_key_.end()) return std::nullopt;
  if (now >= it->second->expires) {
    erase(it->second);
    return std::nullopt;
  }
  return it->second->result;
}

void ResponseCache::store(const std::string& k, std::string_view m, const json::object& params, const json::value& result,
                          Clock::time_point now) {
  const json::object* o = result.if_object();
  const json::value* ttl = o ? o->if_contains("ttlMs") : nullptr;
  // Absent, negative or not an integer: not to be reused.
  if (!ttl || !ttl->is_int64() || ttl->get_int64() <= 0) return;
  const std::size_t size = json::serialize(result).size() + k.size();
  if (size > max_bytes_) return;
  Entry e{k, std::string(m), "", result, now + std::chrono::milliseconds(ttl->get_int64()), size};
  if (m == method::kResourcesRead) {
    if (const json::value* uri = params.if_contains("uri"); uri && uri->is_string()) e.uri = std::string(uri->get_string());
  }
  std::lock_guard lock(mu_);
  if (auto it = by_key_.find(k); it != by_key_.end()) erase(it->second);
  while (bytes_ + size > max_bytes_ && !entries_.empty()) erase(entries_.begin());
  entries_.push_back(std::move(e));
  by_key_[k] = std::prev(entries_.end());
  bytes_ += size;
}

void ResponseCache::forget(ListKind kind) {
  const std::string m(list_method(kind));
  std::lock_guard lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto next = std::next(it);
    if (it->method == m) erase(it);
    it = next;
  }
}

void ResponseCache::forget_resource(std::string_view uri) {
  std::lock_guard lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto next = std::next(it);
    if (it->uri == uri) erase(it);
    it = next;
  }
}

std::size_t ResponseCache::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

void ResponseCache::erase(std::list<Entry>::iterator it) {
  by_key_.erase(it->key);
  bytes_ -= it->bytes;
  entries_.erase(it);
}

}  // namespace mcp
