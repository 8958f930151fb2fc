// The strict JSON parser behind parse_strict and canonicalize_text (contract in mcp/trust/jcs.hpp).
//
// Recursive descent over bytes, one pass, building a Boost.JSON DOM. It exists because signed bytes
// must mean one thing to every verifier: Boost.JSON (like most parsers) resolves duplicate names
// silently and lets a lone \ud800 through, and another implementation resolving them differently is
// exactly the gap an attacker wants.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <double-conversion/double-conversion.h>

#include "mcp/trust/jcs.hpp"
#include "trust/utf8.hpp"

namespace mcp::trust {
namespace {

// 1 for bytes that may appear unescaped in a string and need no further look: printable ASCII
// other than '"' and '\\'.
constexpr auto kPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[c] = c != '"' && c != '\\';
  return t;
}();

int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Parser {
 public:
  Parser(std::string_view text, const JcsLimits& limits, json::storage_ptr sp)
      : begin_(reinterpret_cast<const unsigned char*>(text.data())),
        p_(begin_),
        end_(begin_ + text.size()),
        limits_(limits),
        sp_(std::move(sp)) {}

  Result<json::value> run() {
    if (static_cast<std::size_t>(end_ - begin_) > limits_.max_bytes)
      return fail(Error{error_code::kParseError,
                        "JSON text of " + std::to_string(end_ - begin_) + " bytes exceeds the limit of " +
                            std::to_string(limits_.max_bytes) + " (max_bytes)",
                        json::object{{"limit", "max_bytes"}}});
    if (end_ - begin_ >= 3 && begin_[0] == 0xEF && begin_[1] == 0xBB && begin_[2] == 0xBF)
      return fail(Error::parse_error("JSON parse error at byte 0: byte-order mark is not allowed"));
    json::value root(sp_);
    skip_ws();
    if (!parse_value(root, 0)) return fail(std::move(error_));
    skip_ws();
    if (p_ != end_) {
      error("unexpected data after the JSON value");
      return fail(std::move(error_));
    }
    return root;
  }

 private:
  bool error(std::string_view what) {
    error_ = Error::parse_error("JSON parse error at byte " + std::to_string(p_ - begin_) + ": " +
                                std::string(what));
    return false;
  }

  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0)
      return error("invalid literal");
    p_ += word.size();
    return true;
  }

  bool parse_value(json::value& out, std::size_t depth) {
    if (p_ == end_) return error("unexpected end of input, expected a value");
    switch (*p_) {
      case '{': return parse_object(out, depth + 1);
      case '[': return parse_array(out, depth + 1);
      case '"': {
        std::string_view s;
        if (!parse_string(s, scratch_)) return false;
        out.emplace_string().assign(s);
        return true;
      }
      case 't': if (!literal("true")) return false; out.emplace_bool() = true; return true;
      case 'f': if (!literal("false")) return false; out.emplace_bool() = false; return true;
      case 'n': if (!literal("null")) return false; out.emplace_null(); return true;
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return parse_number(out);
        return error("unexpected character, expected a value");
    }
  }

  bool enter(std::size_t depth) {
    if (depth > limits_.max_depth) {
      error("nesting deeper than the limit of " + std::to_string(limits_.max_depth) + " (max_depth)");
      error_.data = json::object{{"limit", "max_depth"}};
      return false;
    }
    return true;
  }

  bool parse_object(json::value& out, std::size_t depth) {
    if (!enter(depth)) return false;
    ++p_;  // '{'
    json::object& obj = out.emplace_object();
    skip_ws();
    if (p_ < end_ && *p_ == '}') { ++p_; return true; }
    for (;;) {
      if (p_ == end_ || *p_ != '"') return error("expected a member name");
      const unsigned char* key_at = p_;
      std::string_view key;
      if (!parse_string(key, key_scratch_)) return false;
      // Insert first, then parse the value in place: one hash lookup detects the duplicate, and the
      // key buffer is free for nested objects while the value is parsed.
      auto [it, inserted] = obj.emplace(key, nullptr);
      if (!inserted) {
        p_ = key_at;
        return error("duplicate member name \"" + printable(key) + "\"");
      }
      skip_ws();
      if (p_ == end_ || *p_ != ':') return error("expected ':' after a member name");
      ++p_;
      skip_ws();
      if (!parse_value(it->value(), depth)) return false;
      skip_ws();
      if (p_ == end_) return error("unexpected end of input in an object");
      if (*p_ == ',') { ++p_; skip_ws(); continue; }
      if (*p_ == '}') { ++p_; return true; }
      return error("expected ',' or '}' in an object");
    }
  }

  bool parse_array(json::value& out, std::size_t depth) {
    if (!enter(depth)) return false;
    ++p_;  // '['
    json::array& arr = out.emplace_array();
    skip_ws();
    if (p_ < end_ && *p_ == ']') { ++p_; return true; }
    for (;;) {
      arr.emplace_back(nullptr);
      if (!parse_value(arr.back(), depth)) return false;
      skip_ws();
      if (p_ == end_) return error("unexpected end of input in an array");
      if (*p_ == ',') { ++p_; skip_ws(); continue; }
      if (*p_ == ']') { ++p_; return true; }
      return error("expected ',' or ']' in an array");
    }
  }

  bool read_hex4(unsigned& u) {
    if (end_ - p_ < 4) return error("truncated \\u escape");
    u = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex_value(p_[i]);
      if (h < 0) return error("invalid hex digit in a \\u escape");
      u = (u << 4) | static_cast<unsigned>(h);
    }
    p_ += 4;
    return true;
  }

  // On success `out` views either the input (no escapes: the common case, no copy) or `buf`.
  bool parse_string(std::string_view& out, std::string& buf) {
    ++p_;  // opening quote
    const unsigned char* run = p_;
    bool copied = false;
    for (;;) {
      p_ = detail::skip_plain_ascii(p_, end_);
      while (p_ < end_ && kPlain[*p_]) ++p_;
      if (p_ == end_) return error("unterminated string");
      const unsigned char c = *p_;
      if (c == '"') break;
      if (c < 0x20) return error("unescaped control character in a string");
      if (c >= 0x80) {
        char32_t cp;
        std::size_t n = detail::decode_utf8(p_, end_, cp);
        if (n == 0) return error("invalid UTF-8 in a string");
        p_ += n;
        continue;
      }
      // A backslash: from here on the string is assembled in buf.
      if (!copied) { buf.clear(); copied = true; }
      buf.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p_ - run));
      ++p_;
      if (p_ == end_) return error("unterminated escape");
      const unsigned char e = *p_++;
      switch (e) {
        case '"': buf.push_back('"'); break;
        case '\\': buf.push_back('\\'); break;
        case '/': buf.push_back('/'); break;
        case 'b': buf.push_back('\b'); break;
        case 'f': buf.push_back('\f'); break;
        case 'n': buf.push_back('\n'); break;
        case 'r': buf.push_back('\r'); break;
        case 't': buf.push_back('\t'); break;
        case 'u': {
          const unsigned char* esc = p_ - 2;
          unsigned u = 0;
          if (!read_hex4(u)) return false;
          char32_t cp = u;
          if (u >= 0xDC00 && u <= 0xDFFF) { p_ = esc; return error("lone low surrogate in a \\u escape"); }
          if (u >= 0xD800 && u <= 0xDBFF) {
            unsigned lo = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') { p_ = esc; return error("lone high surrogate in a \\u escape"); }
            p_ += 2;
            if (!read_hex4(lo)) return false;
            if (lo < 0xDC00 || lo > 0xDFFF) { p_ = esc; return error("lone high surrogate in a \\u escape"); }
            cp = 0x10000 + ((char32_t(u) - 0xD800) << 10) + (char32_t(lo) - 0xDC00);
          }
          detail::append_utf8(buf, cp);
          break;
        }
        default: p_ -= 2; return error("invalid escape sequence");
      }
      run = p_;
    }
    if (copied) {
      buf.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p_ - run));
      out = buf;
    } else {
      out = std::string_view(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p_ - run));
    }
    ++p_;  // closing quote
    return true;
  }

  // RFC 8259 number grammar, checked here because double-conversion is more permissive.
  bool parse_number(json::value& out) {
    const unsigned char* start = p_;
    auto digit = [this] { return p_ < end_ && *p_ >= '0' && *p_ <= '9'; };
    bool negative = false;
    if (*p_ == '-') { negative = true; ++p_; }
    if (!digit()) return error("invalid number");
    if (*p_ == '0') {
      ++p_;
      if (digit()) return error("leading zero in a number");
    } else {
      while (digit()) ++p_;
    }
    const std::size_t int_digits = static_cast<std::size_t>(p_ - start) - (negative ? 1 : 0);
    bool integer = true;
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (!digit()) return error("expected a digit after the decimal point");
      while (digit()) ++p_;
      integer = false;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digit()) return error("expected a digit in the exponent");
      while (digit()) ++p_;
      integer = false;
    }
    if (integer && int_digits <= 18) {
      // Exact in int64; the writer turns it into the same double a decimal parse would give.
      std::int64_t v = 0;
      for (const unsigned char* d = start + (negative ? 1 : 0); d < p_; ++d) v = v * 10 + (*d - '0');
      out.emplace_int64() = negative ? -v : v;
      return true;
    }
    static const double_conversion::StringToDoubleConverter conv(
        double_conversion::StringToDoubleConverter::NO_FLAGS, 0.0,
        std::numeric_limits<double>::quiet_NaN(), nullptr, nullptr);
    int processed = 0;
    const double d = conv.StringToDouble(reinterpret_cast<const char*>(start), static_cast<int>(p_ - start),
                                         &processed);
    if (processed != p_ - start) { p_ = start; return error("invalid number"); }
    if (!std::isfinite(d)) { p_ = start; return error("number is out of the range of an IEEE-754 double"); }
    out.emplace_double() = d;
    return true;
  }

  // A member name for an error message: JSON-escaped controls, at most 64 bytes.
  static std::string printable(std::string_view s) {
    std::string out;
    for (unsigned char c : s.substr(0, 64)) {
      if (c < 0x20 || c == '"' || c == '\\') {
        static const char* hex = "0123456789abcdef";
        out += "\\u00";
        out.push_back(hex[c >> 4]);
        out.push_back(hex[c & 15]);
      } else {
        out.push_back(static_cast<char>(c));
      }
    }
    if (s.size() > 64) out += "...";
    return out;
  }

  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
  const JcsLimits& limits_;
  json::storage_ptr sp_;
  std::string scratch_;      // unescaped string values
  std::string key_scratch_;  // unescaped member names
  Error error_;
};

}  // namespace

Result<json::value> parse_strict(std::string_view text, const JcsLimits& limits, json::storage_ptr sp) {
  return Parser(text, limits, std::move(sp)).run();
}

}  // namespace mcp::trust
