#include "http/header_value.hpp"

#include <array>
#include <cstdint>

namespace mcp::http {

namespace {

constexpr std::string_view kPrefix = "=?base64?";
constexpr std::string_view kSuffix = "?=";
constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool needs_encoding(std::string_view v) {
  if (v.starts_with(kPrefix) && v.ends_with(kSuffix)) return true;  // would read as a sentinel
  if (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.back() == ' ' || v.back() == '\t')) return true;
  for (unsigned char c : v)
    if (c < 0x20 || c >= 0x7f) return true;
  return false;
}

std::string base64(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t(std::uint8_t(in[i])) << 16) | (std::uint32_t(std::uint8_t(in[i + 1])) << 8) |
                            std::uint8_t(in[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(n >> shift) & 63];
  }
  if (const std::size_t rest = in.size() - i; rest > 0) {
    std::uint32_t n = std::uint32_t(std::uint8_t(in[i])) << 16;
    if (rest == 2) n |= std::uint32_t(std::uint8_t(in[i + 1])) << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Strict RFC 4648 Base64: whole quanta, padding only at the end, no other character.
std::optional<std::string> unbase64(std::string_view in) {
  if (in.size() % 4 != 0) return std::nullopt;
  std::array<int, 256> value{};
  value.fill(-1);
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) value[std::uint8_t(kAlphabet[i])] = static_cast<int>(i);
  std::string out;
  out.reserve(in.size() / 4 * 3);
  for (std::size_t i = 0; i < in.size(); i += 4) {
    const bool last = i + 4 == in.size();
    int pad = 0;
    std::uint32_t n = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      const char c = in[i + j];
      if (c == '=' && last && j >= 2) {
        ++pad;
        n <<= 6;
        continue;
      }
      if (pad > 0 || value[std::uint8_t(c)] < 0) return std::nullopt;  // data after '=', or a stray character
      n = (n << 6) | static_cast<std::uint32_t>(value[std::uint8_t(c)]);
    }
    out += static_cast<char>((n >> 16) & 0xff);
    if (pad < 2) out += static_cast<char>((n >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(n & 0xff);
  }
  return out;
}

}  // namespace

std::string encode_header_value(std::string_view value) {
  if (!needs_encoding(value)) return std::string(value);
  return std::string(kPrefix) + base64(value) + std::string(kSuffix);
}

std::optional<std::string> decode_header_value(std::string_view raw) {
  while (!raw.empty() && (raw.front() == ' ' || raw.front() == '\t')) raw.remove_prefix(1);
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.remove_suffix(1);
  if (raw.size() >= kPrefix.size() + kSuffix.size() && raw.starts_with(kPrefix) && raw.ends_with(kSuffix)) {
    return unbase64(raw.substr(kPrefix.size(), raw.size() - kPrefix.size() - kSuffix.size()));
  }
  return std::string(raw);
}

}  // namespace mcp::http
