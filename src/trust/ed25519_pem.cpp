// PEM key files through OpenSSL: PKCS#8 for secret keys, SPKI for public keys, exactly the files
// `openssl genpkey -algorithm ed25519` and `openssl pkey -pubout` write.
#include <memory>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sodium.h>

#include "mcp/trust/ed25519.hpp"

namespace mcp::trust {
namespace {

struct BioFree { void operator()(BIO* b) const { BIO_free(b); } };
struct PkeyFree { void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); } };
using BioPtr = std::unique_ptr<BIO, BioFree>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

// Refuses every passphrase request: with a null callback OpenSSL would prompt on the terminal.
int no_passphrase(char*, int, int, void*) { return -1; }

// The oldest queued OpenSSL error as text, and the queue emptied so it cannot leak into a later call.
std::string openssl_error() {
  unsigned long code = ERR_get_error();
  std::string msg;
  if (code != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    msg = buf;
  }
  ERR_clear_error();
  return msg.empty() ? "unknown OpenSSL error" : msg;
}

BioPtr read_bio(std::string_view pem) {
  if (pem.size() > (1u << 20)) return nullptr;  // a key file is a few hundred bytes
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// Drains a memory BIO into a string.
std::string bio_text(BIO* bio) {
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

Result<Ed25519PublicKey> Ed25519PublicKey::from_pem(std::string_view pem) {
  if (pem.find("PRIVATE KEY-----") != std::string_view::npos)
    return fail(Error::invalid_params("a private key was given where a public key is expected"));
  BioPtr bio = read_bio(pem);
  if (!bio) return fail(Error::invalid_params("public key PEM is too large or unreadable"));
  PkeyPtr pkey(PEM_read_bio_PUBKEY(bio.get(), nullptr, no_passphrase, nullptr));
  if (!pkey) return fail(Error::invalid_params("not an SPKI public key PEM: " + openssl_error()));
  if (EVP_PKEY_get_base_id(pkey.get()) != EVP_PKEY_ED25519)
    return fail(Error::invalid_params(std::string("public key is ") + EVP_PKEY_get0_type_name(pkey.get()) +
                                      ", not Ed25519"));
  std::array<std::uint8_t, kEd25519PublicKeySize> raw{};
  std::size_t len = raw.size();
  if (EVP_PKEY_get_raw_public_key(pkey.get(), raw.data(), &len) != 1 || len != raw.size())
    return fail(Error::invalid_params("cannot read the Ed25519 public key: " + openssl_error()));
  return from_bytes(raw);
}

std::string Ed25519PublicKey::to_pem() const {
  PkeyPtr pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytes_.data(), bytes_.size()));
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!pkey || !bio || PEM_write_bio_PUBKEY(bio.get(), pkey.get()) != 1)
    throw std::runtime_error("OpenSSL: cannot write a public key PEM: " + openssl_error());
  return bio_text(bio.get());
}

Result<Ed25519SecretKey> Ed25519SecretKey::from_pem(std::string_view pem) {
  if (pem.find("ENCRYPTED") != std::string_view::npos)
    return fail(Error::invalid_params("encrypted private keys are not supported; decrypt with `openssl pkey`"));
  BioPtr bio = read_bio(pem);
  if (!bio) return fail(Error::invalid_params("private key PEM is too large or unreadable"));
  PkeyPtr pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr));
  if (!pkey) return fail(Error::invalid_params("not a PKCS#8 private key PEM: " + openssl_error()));
  if (EVP_PKEY_get_base_id(pkey.get()) != EVP_PKEY_ED25519)
    return fail(Error::invalid_params(std::string("private key is ") + EVP_PKEY_get0_type_name(pkey.get()) +
                                      ", not Ed25519"));
  std::array<std::uint8_t, kEd25519SeedSize> seed{};
  std::size_t len = seed.size();
  if (EVP_PKEY_get_raw_private_key(pkey.get(), seed.data(), &len) != 1 || len != seed.size()) {
    sodium_memzero(seed.data(), seed.size());
    return fail(Error::invalid_params("cannot read the Ed25519 private key: " + openssl_error()));
  }
  auto k = from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  return k;
}

std::string Ed25519SecretKey::to_pem() const {
  PkeyPtr pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, sk_.data(), kEd25519SeedSize));
  // A secure-heap BIO: OpenSSL wipes its buffer when it is freed.
  BioPtr bio(BIO_new(BIO_s_secmem()));
  if (!pkey || !bio || PEM_write_bio_PKCS8PrivateKey(bio.get(), pkey.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot write a private key PEM: " + openssl_error());
  return bio_text(bio.get());
}

}  // namespace mcp::trust
