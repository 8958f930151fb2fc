// Private: strict UTF-8 decoding and encoding shared by the JCS parser and writer.
//
// "Strict" is RFC 3629: no overlong forms, no encoded surrogates (U+D800..U+DFFF), nothing above
// U+10FFFF. JCS needs this because a signature over bytes that another party decodes differently
// (one replacing an ill-formed sequence with U+FFFD, another passing it through) is a signature
// over two different texts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace mcp::trust::detail {

// Decodes one code point starting at p (which must be < end and point at a byte >= 0x80).
// Returns the sequence length (2..4) and sets cp, or returns 0 when the sequence is ill-formed.
inline std::size_t decode_utf8(const unsigned char* p, const unsigned char* end, char32_t& cp) noexcept {
  const unsigned char b0 = p[0];
  const std::size_t avail = static_cast<std::size_t>(end - p);
  auto cont = [](unsigned char b) { return (b & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    if (avail < 2 || !cont(p[1])) return 0;
    cp = (char32_t(b0 & 0x1F) << 6) | (p[1] & 0x3F);
    return 2;
  }
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (avail < 3 || !cont(p[1]) || !cont(p[2])) return 0;
    cp = (char32_t(b0 & 0x0F) << 12) | (char32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    if (cp < 0x800) return 0;                    // overlong
    if (cp >= 0xD800 && cp <= 0xDFFF) return 0;  // a surrogate has no UTF-8 form
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (avail < 4 || !cont(p[1]) || !cont(p[2]) || !cont(p[3])) return 0;
    cp = (char32_t(b0 & 0x07) << 18) | (char32_t(p[1] & 0x3F) << 12) | (char32_t(p[2] & 0x3F) << 6) |
         (p[3] & 0x3F);
    if (cp < 0x10000 || cp > 0x10FFFF) return 0;
    return 4;
  }
  return 0;  // continuation byte, C0/C1 (always overlong) or F5..FF
}

// Skips ahead, eight bytes at a time, over bytes that need no attention in a JSON string: printable
// ASCII other than '"' and '\\'. Returns the first position where a byte might need attention (a
// conservative test: the caller examines that byte itself). This is where JCS spends its time.
inline const unsigned char* skip_plain_ascii(const unsigned char* p, const unsigned char* end) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  while (end - p >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    const std::uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
    const std::uint64_t special = ((w - kOnes * 0x20) & ~w) |          // a byte below 0x20
                                  ((quote - kOnes) & ~quote) |          // a '"'
                                  ((backslash - kOnes) & ~backslash) |  // a '\\'
                                  w;                                    // a byte >= 0x80
    if (special & kHigh) break;
    p += 8;
  }
  return p;
}

inline void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace mcp::trust::detail
