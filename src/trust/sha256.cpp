#include "mcp/trust/sha256.hpp"

#include <new>
#include <stdexcept>

#include <openssl/evp.h>

#include "mcp/trust/hex.hpp"

namespace mcp::trust {
namespace {

// OpenSSL 3 looks an algorithm up by name on every EVP_sha256() use; fetching once saves that
// lookup on each small digest. Freed never: it lives as long as the process.
const EVP_MD* sha256_md() {
  static EVP_MD* md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (m == nullptr) throw std::runtime_error("OpenSSL: SHA-256 is not available");
    return m;
  }();
  return md;
}

// One digest context per thread, kept: EVP_Digest makes and frees a context for every digest
// (an allocation per call digest on the gateway's path). Re-initialising a context for the same
// algorithm reuses its state.
EVP_MD_CTX* thread_ctx() {
  struct Kept {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Kept() { EVP_MD_CTX_free(ctx); }
  };
  thread_local Kept kept;
  if (kept.ctx == nullptr) throw std::bad_alloc();
  return kept.ctx;
}

}  // namespace

Sha256Digest sha256(std::span<const std::uint8_t> data) {
  EVP_MD_CTX* ctx = thread_ctx();
  Sha256Digest out{};
  unsigned int len = 0;
  if (EVP_DigestInit_ex(ctx, sha256_md(), nullptr) != 1 || EVP_DigestUpdate(ctx, data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, out.data(), &len) != 1 || len != out.size())
    throw std::runtime_error("OpenSSL: SHA-256 failed");
  return out;
}

Sha256Digest sha256(std::string_view data) {
  return sha256(std::span(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
}

std::string sha256_tag(const Sha256Digest& digest) {
  static constexpr std::string_view kPrefix = "sha256:";
  std::string out;
  out.reserve(kPrefix.size() + 2 * digest.size());  // one allocation, not a hex string and a copy
  out.append(kPrefix);
  append_hex(out, digest);
  return out;
}
std::string sha256_tag(std::string_view data) { return sha256_tag(sha256(data)); }

struct Sha256::Ctx {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Ctx() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  if (ctx_->ctx == nullptr) throw std::bad_alloc();
  if (EVP_DigestInit_ex(ctx_->ctx, sha256_md(), nullptr) != 1) throw std::runtime_error("OpenSSL: SHA-256 init failed");
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view data) {
  if (EVP_DigestUpdate(ctx_->ctx, data.data(), data.size()) != 1) throw std::runtime_error("OpenSSL: SHA-256 update failed");
}

Sha256Digest Sha256::finish() {
  Sha256Digest out{};
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx_->ctx, out.data(), &len) != 1 ||
      EVP_DigestInit_ex(ctx_->ctx, sha256_md(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  return out;
}

}  // namespace mcp::trust
