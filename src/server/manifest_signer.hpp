// Private: the server's signer of tool manifests (mcp/server/manifest_signing.hpp): the capability
// it advertises, and the signed manifest for a given list of tools, cached.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/server/manifest_signing.hpp"

namespace mcp {

class ManifestSigner {
 public:
  // Fails (-32602) on an empty issuer or key id, or a lifetime that is not positive or beyond 2^53 ms.
  static Result<std::shared_ptr<ManifestSigner>> create(ManifestSigning signing);

  // {"algorithm": "ed25519", "keyId": ...}: the value of the signed-manifests capability.
  json::object capability() const;

  // The tools/manifest result for `tools` (tool objects as tools/list shows them, in order).
  // Thread-safe; signs only when no cached manifest covers exactly these tools any more.
  Result<json::value> manifest_for(const json::array& tools);

  explicit ManifestSigner(ManifestSigning signing);

 private:
  struct Cached {
    json::array tools;
    json::value result;  // the signed manifest, as sent
    std::int64_t refresh_at_ms = 0;
  };
  // One entry per distinct tool set in use; sessions whose availability hooks show different tools
  // each get theirs without re-signing every time. Small: a linear scan compares whole arrays.
  static constexpr std::size_t kCacheEntries = 4;

  const ManifestSigning signing_;
  const std::string key_id_;
  mutable std::mutex mu_;
  std::vector<Cached> cache_;  // most recently used first
};

}  // namespace mcp
