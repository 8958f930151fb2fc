#include "gateway/journal_check.hpp"

#include <bit>
#include <cstring>

namespace mcp::gateway {
namespace {

constexpr std::string_view kCheckKey = ",\"h\":\"";
constexpr std::string_view kFnvCheckKey = ",\"c\":\"";  // written before the word-wise check
// Each key, 16 hex digits, `"}`.
constexpr std::size_t kCheckTail = kCheckKey.size() + 16 + 2;
static_assert(kFnvCheckKey.size() == kCheckKey.size());

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = kFnvOffset;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * kFnvPrime;
  return h;
}

void append_hex_check(std::string& out, std::string_view key, std::uint64_t h) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.append(key);
  for (int shift = 60; shift >= 0; shift -= 4) out.push_back(kHex[(h >> shift) & 15]);
  out.append("\"}");
}

bool tail_matches(std::string_view line, std::string_view key, std::uint64_t h) {
  std::string expected;
  append_hex_check(expected, key, h);
  return line.substr(line.size() - kCheckTail) == expected;
}

}  // namespace

std::uint64_t journal_line_hash(std::string_view text) {
  // Every step (xor a word in, multiply by an odd constant, fold the high half down) is one to one
  // in h, so two texts of the same length that differ in one word always differ in their check.
  constexpr std::uint64_t kMul = 0x9e3779b97f4a7c15ull;
  std::uint64_t h = kFnvOffset ^ text.size();
  const char* p = text.data();
  std::size_t left = text.size();
  for (; left >= 8; p += 8, left -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) w = std::byteswap(w);  // little-endian words
    h = (h ^ w) * kMul;
    h ^= h >> 32;
  }
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < left; ++i) w |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  h = (h ^ w) * kMul;
  h ^= h >> 29;
  h *= kMul;
  return h ^ (h >> 32);
}

void append_journal_check(std::string& out, std::string_view text) {
  append_hex_check(out, kCheckKey, journal_line_hash(text));
}

bool journal_check_holds(std::string_view line, const json::object& o) {
  const bool word_wise = o.contains("h");
  if (!word_wise && !o.contains("c")) return true;
  if (line.size() < kCheckTail) return false;
  const std::string_view text = line.substr(0, line.size() - kCheckTail);
  return word_wise ? tail_matches(line, kCheckKey, journal_line_hash(text))
                   : tail_matches(line, kFnvCheckKey, fnv1a(text));
}

}  // namespace mcp::gateway
