// mcp/trust/ed25519.hpp — Ed25519 keys, signatures and key files (RFC 8032, pure Ed25519).
//
// Library: libsodium (crypto_sign_*). Chosen over OpenSSL's EVP path because it signs and verifies
// typical messages 1.7-1.9x faster here (OpenSSL's faster SHA-512 wins only past ~50 KB), its API
// cannot be misused into prehash or context variants, and it rejects non-canonical and small-order
// encodings; both pass all Wycheproof vectors (figures: docs/wire/signed-manifest.md §8). OpenSSL
// is used only to read and write PEM.
//
// Threat model:
//   - Protects: authenticity of signed bytes against anyone without the secret key, including a
//     network attacker or a compromised relay. Verification is strict: S must be < L, R and A must
//     be canonical, small-order keys are refused, so one message has one valid signature per key
//     (no malleability a cache or a log could be confused by).
//   - Key hygiene: public keys are checked (length, canonical point, not small order) when
//     constructed, so a bad key fails at load time, not at the first verification. Secret keys
//     live in one buffer that is wiped (sodium_memzero) on destruction and on move; they are never
//     copied implicitly and never printed except through the explicit export functions below.
//   - Does not protect: a secret key read by another process on the same host (no mlock, no
//     enclave), side channels beyond libsodium's constant-time code, or a signer that signs
//     whatever it is given. Which key to trust is the trust store's question (trust_store.hpp).
//
// Key files (as OpenSSL writes them, and as the reference implementation keeps them):
//   secret: PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), or 64 hex characters (the 32-byte seed)
//   public: SPKI PEM ("-----BEGIN PUBLIC KEY-----"), or 64 hex characters (the 32-byte key)
// Encrypted PEM is refused with a clear error (no passphrase prompt ever reaches a terminal).
//
// Key id: "sha256:" + lowercase hex of SHA-256 over the raw 32-byte public key. The reference
// implementation leaves keyId free-form ("uap:issuer:example-mcp-server:v1"); this fingerprint is
// our default, and any string is accepted on the wire.
//
// Thread-safety: keys are immutable after construction; const member functions may be called
// concurrently. libsodium is initialised once, on first use, thread-safely.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "mcp/error.hpp"

namespace mcp::trust {

inline constexpr std::size_t kEd25519PublicKeySize = 32;
inline constexpr std::size_t kEd25519SeedSize = 32;
inline constexpr std::size_t kEd25519SignatureSize = 64;

using Ed25519Signature = std::array<std::uint8_t, kEd25519SignatureSize>;

class Ed25519PublicKey {
 public:
  // Each fails (code -32602, message saying why) unless the input is a valid Ed25519 public key.
  [[nodiscard]] static Result<Ed25519PublicKey> from_bytes(std::span<const std::uint8_t> bytes);
  [[nodiscard]] static Result<Ed25519PublicKey> from_hex(std::string_view hex);  // 64 hex digits, either case
  [[nodiscard]] static Result<Ed25519PublicKey> from_pem(std::string_view pem);  // SPKI "PUBLIC KEY"
  // A key file's contents: PEM or hex, surrounding whitespace ignored.
  [[nodiscard]] static Result<Ed25519PublicKey> parse(std::string_view text);

  const std::array<std::uint8_t, kEd25519PublicKeySize>& bytes() const noexcept { return bytes_; }
  std::string hex() const;     // 64 lowercase hex digits
  std::string to_pem() const;  // SPKI PEM, as `openssl pkey -pubout` writes it
  std::string key_id() const;  // "sha256:<64 hex>" of bytes()

  // True only for a valid signature of `message` by this key. Never throws.
  bool verify(std::span<const std::uint8_t> message, const Ed25519Signature& sig) const noexcept;
  bool verify(std::string_view message, const Ed25519Signature& sig) const noexcept;

  friend bool operator==(const Ed25519PublicKey&, const Ed25519PublicKey&) = default;

 private:
  friend class Ed25519SecretKey;  // derives its public half without re-validating it
  Ed25519PublicKey() = default;
  std::array<std::uint8_t, kEd25519PublicKeySize> bytes_{};
};

class Ed25519SecretKey {
 public:
  // A fresh key from the operating system's CSPRNG.
  static Ed25519SecretKey generate();
  [[nodiscard]] static Result<Ed25519SecretKey> from_seed(std::span<const std::uint8_t> seed);  // 32 bytes
  [[nodiscard]] static Result<Ed25519SecretKey> from_hex(std::string_view hex);  // 64 hex digits of the seed
  [[nodiscard]] static Result<Ed25519SecretKey> from_pem(std::string_view pem);  // PKCS#8 "PRIVATE KEY", unencrypted
  // A key file's contents: PEM or hex, surrounding whitespace ignored.
  [[nodiscard]] static Result<Ed25519SecretKey> parse(std::string_view text);

  Ed25519SecretKey(Ed25519SecretKey&& other) noexcept;
  Ed25519SecretKey& operator=(Ed25519SecretKey&& other) noexcept;
  Ed25519SecretKey(const Ed25519SecretKey&) = delete;
  Ed25519SecretKey& operator=(const Ed25519SecretKey&) = delete;
  ~Ed25519SecretKey();

  const Ed25519PublicKey& public_key() const noexcept { return public_; }

  Ed25519Signature sign(std::span<const std::uint8_t> message) const;
  Ed25519Signature sign(std::string_view message) const;

  // Explicit exports of the secret. The caller owns the returned secret text and should wipe it
  // (secure_wipe) once written.
  std::string seed_hex() const;  // 64 lowercase hex digits
  std::string to_pem() const;    // PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes it

 private:
  Ed25519SecretKey() = default;
  // libsodium's expanded form: seed (32) || public key (32).
  std::array<std::uint8_t, 64> sk_{};
  Ed25519PublicKey public_;
};

// Overwrites a string's bytes (for secret text read from or written to files).
void secure_wipe(std::string& s) noexcept;

}  // namespace mcp::trust
