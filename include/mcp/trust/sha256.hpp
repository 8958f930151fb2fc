// mcp/trust/sha256.hpp — SHA-256 (OpenSSL's EVP implementation, which uses SHA-NI where present)
// and the "sha256:<64 lowercase hex>" digest notation used for manifest hashes and key ids.
//
// Thread-safety: free functions are safe to call concurrently. A Sha256 object is not shared
// between threads without external locking.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace mcp::trust {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::span<const std::uint8_t> data);
Sha256Digest sha256(std::string_view data);

// "sha256:" + lowercase hex of SHA-256(data).
std::string sha256_tag(std::string_view data);
std::string sha256_tag(const Sha256Digest& digest);

// Incremental hashing, for input that arrives in pieces.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::string_view data);
  // Returns the digest and resets the object for a new message.
  Sha256Digest finish();

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

}  // namespace mcp::trust
