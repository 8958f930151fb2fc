#include "trust/openssl_ed25519.hpp"

#include <memory>
#include <stdexcept>

#include <openssl/err.h>
#include <openssl/evp.h>

namespace mcp::trust::detail {
namespace {
struct PkeyFree { void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); } };
struct MdCtxFree { void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); } };
}  // namespace

bool openssl_ed25519_verify(std::span<const std::uint8_t> pub, std::span<const std::uint8_t> message,
                            std::span<const std::uint8_t> sig) noexcept {
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, pub.data(), pub.size()));
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  bool ok = key && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
            EVP_DigestVerify(ctx.get(), sig.data(), sig.size(), message.data(), message.size()) == 1;
  ERR_clear_error();
  return ok;
}

std::array<std::uint8_t, 64> openssl_ed25519_sign(std::span<const std::uint8_t> seed,
                                                  std::span<const std::uint8_t> message) {
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed.data(), seed.size()));
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  std::array<std::uint8_t, 64> sig{};
  std::size_t len = sig.size();
  if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), sig.data(), &len, message.data(), message.size()) != 1 || len != sig.size()) {
    ERR_clear_error();
    throw std::runtime_error("OpenSSL Ed25519 signing failed");
  }
  return sig;
}

}  // namespace mcp::trust::detail
