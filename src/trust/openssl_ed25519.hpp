// Private: Ed25519 through OpenSSL's EVP interface. Not used for signing or verification in the
// library (libsodium is; see mcp/trust/ed25519.hpp): it exists so the tests can run the Wycheproof
// vectors through both libraries and the benchmarks can measure both, which is how the choice is
// checked rather than asserted.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace mcp::trust::detail {

// True when OpenSSL accepts `sig` for `message` under the raw 32-byte public key `pub`.
bool openssl_ed25519_verify(std::span<const std::uint8_t> pub, std::span<const std::uint8_t> message,
                            std::span<const std::uint8_t> sig) noexcept;

// The signature of `message` by the key with this 32-byte seed.
std::array<std::uint8_t, 64> openssl_ed25519_sign(std::span<const std::uint8_t> seed,
                                                  std::span<const std::uint8_t> message);

}  // namespace mcp::trust::detail
