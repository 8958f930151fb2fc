// Private: the client's cache of cacheable 2026-07-28 results (basic/utilities/caching.mdx): the
// four lists and resources/read, each kept for the ttlMs its result gave.
//
// Keyed by the method, the params that select the result (everything but _meta: cursor, uri) and
// the canonical hash (RFC 8785 + SHA-256) of the capabilities the client declares, since a server
// may answer a list differently for other capabilities (docs/wire/per-request-capabilities.md).
// One client is one authorization context, so "private" and "public" results are both kept here;
// nothing here is shared between clients. A list_changed forgets that list, resources/updated
// that resource. Bounded in bytes: past the bound the oldest entries go.
#pragma once

#include <chrono>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/json.hpp"
#include "mcp/protocol/list_kind.hpp"

namespace mcp {

class ResponseCache {
 public:
  using Clock = std::chrono::steady_clock;
  ResponseCache(const json::object& capabilities, std::size_t max_bytes = 8 * 1024 * 1024);

  static bool cacheable(std::string_view method);
  // The key of a request (made once per request: it canonicalises the params); empty when its
  // result is never kept: a method that is not cacheable, or a retry that carried inputResponses
  // or requestState (caching.mdx).
  std::optional<std::string> key(std::string_view method, const json::object& params) const;
  // The fresh result kept under `key`, if any.
  std::optional<json::value> find(const std::string& key, Clock::time_point now = Clock::now());
  // Keeps `result` of the request `key` was made from if it says it may be reused (ttlMs > 0).
  void store(const std::string& key, std::string_view method, const json::object& params, const json::value& result,
             Clock::time_point now = Clock::now());
  void forget(ListKind kind);
  void forget_resource(std::string_view uri);
  std::size_t bytes() const;

 private:
  struct Entry {
    std::string key;
    std::string method;
    std::string uri;  // resources/read: the resource
    json::value result;
    Clock::time_point expires;
    std::size_t bytes;
  };
  void erase(std::list<Entry>::iterator it);  // requires mu_

  std::string capabilities_hash_;
  std::size_t max_bytes_;
  mutable std::mutex mu_;
  std::list<Entry> entries_;  // oldest first
  std::map<std::string, std::list<Entry>::iterator> by_key_;
  std::size_t bytes_ = 0;
};

}  // namespace mcp
