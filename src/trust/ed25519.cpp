// Ed25519 with libsodium (contract and threat model in mcp/trust/ed25519.hpp). PEM lives in
// ed25519_pem.cpp, the only place OpenSSL's key APIs appear.
#include "mcp/trust/ed25519.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <sodium.h>

#include "mcp/trust/hex.hpp"
#include "mcp/trust/sha256.hpp"
#include "trust/sodium_init.hpp"

namespace mcp::trust {

namespace detail {
bool sodium_ready() noexcept {
  static const bool ready = sodium_init() >= 0;
  return ready;
}
}  // namespace detail

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool looks_like_pem(std::string_view s) { return s.starts_with("-----BEGIN "); }

void require_sodium() {
  if (!detail::sodium_ready()) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace

// ---- public key

Result<Ed25519PublicKey> Ed25519PublicKey::from_bytes(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != kEd25519PublicKeySize)
    return fail(Error::invalid_params("Ed25519 public key must be 32 bytes, got " + std::to_string(bytes.size())));
  require_sodium();
  // Canonical encoding of a curve point, not of small order. A small-order key would let one
  // signature verify for many messages; refusing it here means a bad trust-store entry fails at
  // load time rather than at the first verification.
  if (crypto_core_ed25519_is_valid_point(bytes.data()) != 1)
    return fail(Error::invalid_params("not a valid Ed25519 public key (non-canonical, off the curve, or small order)"));
  Ed25519PublicKey k;
  std::copy(bytes.begin(), bytes.end(), k.bytes_.begin());
  return k;
}

Result<Ed25519PublicKey> Ed25519PublicKey::from_hex(std::string_view hex) {
  std::array<std::uint8_t, kEd25519PublicKeySize> raw{};
  if (!trust::from_hex(hex, raw, /*allow_upper=*/true))
    return fail(Error::invalid_params("Ed25519 public key must be 64 hex digits or SPKI PEM"));
  return from_bytes(raw);
}

Result<Ed25519PublicKey> Ed25519PublicKey::parse(std::string_view text) {
  text = trim(text);
  if (looks_like_pem(text)) return from_pem(text);
  return from_hex(text);
}

std::string Ed25519PublicKey::hex() const { return to_hex(bytes_); }

std::string Ed25519PublicKey::key_id() const { return sha256_tag(sha256(std::span<const std::uint8_t>(bytes_))); }

bool Ed25519PublicKey::verify(std::span<const std::uint8_t> message, const Ed25519Signature& sig) const noexcept {
  if (!detail::sodium_ready()) return false;
  return crypto_sign_verify_detached(sig.data(), message.data(), message.size(), bytes_.data()) == 0;
}

bool Ed25519PublicKey::verify(std::string_view message, const Ed25519Signature& sig) const noexcept {
  return verify(std::span(reinterpret_cast<const std::uint8_t*>(message.data()), message.size()), sig);
}

// ---- secret key

Ed25519SecretKey Ed25519SecretKey::generate() {
  require_sodium();
  std::array<std::uint8_t, kEd25519SeedSize> seed{};
  randombytes_buf(seed.data(), seed.size());
  auto k = from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  if (!k) throw std::runtime_error("Ed25519 key generation failed: " + k.error().message);
  return std::move(*k);
}

Result<Ed25519SecretKey> Ed25519SecretKey::from_seed(std::span<const std::uint8_t> seed) {
  if (seed.size() != kEd25519SeedSize)
    return fail(Error::invalid_params("Ed25519 seed must be 32 bytes, got " + std::to_string(seed.size())));
  require_sodium();
  Ed25519SecretKey k;
  std::array<std::uint8_t, kEd25519PublicKeySize> pub{};
  if (crypto_sign_seed_keypair(pub.data(), k.sk_.data(), seed.data()) != 0)
    return fail(Error::internal("libsodium: crypto_sign_seed_keypair failed"));
  k.public_.bytes_ = pub;
  return k;
}

Result<Ed25519SecretKey> Ed25519SecretKey::from_hex(std::string_view hex) {
  std::array<std::uint8_t, kEd25519SeedSize> seed{};
  if (!trust::from_hex(hex, seed, /*allow_upper=*/true)) {
    sodium_memzero(seed.data(), seed.size());
    // The message must not echo the input: it is secret.
    return fail(Error::invalid_params("Ed25519 secret key must be 64 hex digits (the 32-byte seed) or PKCS#8 PEM"));
  }
  auto k = from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  return k;
}

Result<Ed25519SecretKey> Ed25519SecretKey::parse(std::string_view text) {
  text = trim(text);
  if (looks_like_pem(text)) return from_pem(text);
  return from_hex(text);
}

Ed25519SecretKey::Ed25519SecretKey(Ed25519SecretKey&& other) noexcept : sk_(other.sk_), public_(other.public_) {
  sodium_memzero(other.sk_.data(), other.sk_.size());
}

Ed25519SecretKey& Ed25519SecretKey::operator=(Ed25519SecretKey&& other) noexcept {
  if (this != &other) {
    sk_ = other.sk_;
    public_ = other.public_;
    sodium_memzero(other.sk_.data(), other.sk_.size());
  }
  return *this;
}

Ed25519SecretKey::~Ed25519SecretKey() { sodium_memzero(sk_.data(), sk_.size()); }

Ed25519Signature Ed25519SecretKey::sign(std::span<const std::uint8_t> message) const {
  Ed25519Signature sig{};
  if (crypto_sign_detached(sig.data(), nullptr, message.data(), message.size(), sk_.data()) != 0)
    throw std::runtime_error("libsodium: crypto_sign_detached failed");
  return sig;
}

Ed25519Signature Ed25519SecretKey::sign(std::string_view message) const {
  return sign(std::span(reinterpret_cast<const std::uint8_t*>(message.data()), message.size()));
}

std::string Ed25519SecretKey::seed_hex() const {
  return to_hex(std::span<const std::uint8_t>(sk_.data(), kEd25519SeedSize));
}

void secure_wipe(std::string& s) noexcept {
  if (!s.empty()) sodium_memzero(s.data(), s.size());
  s.clear();
}

}  // namespace mcp::trust
