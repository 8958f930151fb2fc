#include "mcp/json.hpp"

namespace mcp {

std::string to_string(const json::value& v) { return json::serialize(v); }

std::string Error::describe() const { return std::to_string(code) + ": " + message; }

std::string peer_text(std::string_view s, std::size_t max) {
  std::size_t keep = std::min(s.size(), max);
  // Do not cut a UTF-8 sequence in two: back up over continuation bytes.
  if (keep < s.size()) {
    while (keep > 0 && (static_cast<unsigned char>(s[keep]) & 0xC0) == 0x80) --keep;
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(keep + 16);
  for (std::size_t i = 0; i < keep; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 15]);
        } else if (c == 0xC2 && i + 1 < keep && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
          // A C1 control character (U+0080..U+009F, e.g. CSI) drives terminals too.
          out += "\\u00";
          out.push_back(hex[static_cast<unsigned char>(s[i + 1]) >> 4]);
          out.push_back(hex[static_cast<unsigned char>(s[i + 1]) & 15]);
          ++i;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  if (keep < s.size()) out += "...(" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace mcp
