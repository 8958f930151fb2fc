// mcp/trust/hex.hpp — lowercase hexadecimal, the text form of keys, digests and signatures.
//
// Encoding is always lowercase (the wire formats say "<lowercase hex>"). Decoding is strict by
// default: exactly the expected length, lowercase only, so one byte string has one text form and a
// verifier never has to wonder whether "AB" and "ab" name the same key.
//
// Thread-safety: free functions without shared state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::trust {

std::string to_hex(std::span<const std::uint8_t> bytes);
// The same text appended to `out` (for a prefixed form such as "sha256:<hex>" in one allocation).
void append_hex(std::string& out, std::span<const std::uint8_t> bytes);

// Decodes `text` into `out` (whose size fixes the expected length: 2 * out.size() characters).
// Returns false, leaving `out` unspecified, on a wrong length or a character outside [0-9a-f]
// (or [0-9a-fA-F] when `allow_upper`).
bool from_hex(std::string_view text, std::span<std::uint8_t> out, bool allow_upper = false) noexcept;

}  // namespace mcp::trust
