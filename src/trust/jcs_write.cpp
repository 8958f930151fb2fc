// The RFC 8785 writer: canonical bytes of a Boost.JSON DOM (contract in mcp/trust/jcs.hpp).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include <double-conversion/double-conversion.h>

#include "mcp/trust/jcs.hpp"
#include "trust/utf8.hpp"

namespace mcp::trust {
namespace {

// Integers up to 2^53 are exact doubles, and ECMAScript prints them as plain digits.
constexpr std::int64_t kMaxExactInteger = std::int64_t{1} << 53;

// What the writer does with each byte of a string: 0 copy, 1 escape, 2 first byte of a multi-byte
// UTF-8 sequence (validated), 3 never valid here (continuation byte or impossible lead byte).
constexpr auto kClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = 1;
  t['"'] = 1;
  t['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c) t[c] = 3;
  for (int c = 0xC2; c <= 0xF4; ++c) t[c] = 2;
  return t;
}();

void append_integer(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

constexpr std::size_t kQuoted = static_cast<std::size_t>(-1);

// Appends `s` quoted as JSON.stringify does (ECMA-262 QuoteJSONString) minus its \udxxx for lone
// surrogates, which valid UTF-8 cannot contain. kQuoted, or the offset of the first byte that is
// not valid UTF-8 (`out` then holds part of the string).
std::size_t quote(std::string& out, std::string_view s) {
  const auto* begin = reinterpret_cast<const unsigned char*>(s.data());
  const auto* p = begin;
  const auto* end = p + s.size();
  const auto* run = p;
  out.push_back('"');
  while (p < end) {
    p = detail::skip_plain_ascii(p, end);
    if (p == end) break;
    const unsigned char cls = kClass[*p];
    if (cls == 0) { ++p; continue; }
    if (cls == 2) {
      char32_t cp;
      const std::size_t n = detail::decode_utf8(p, end, cp);
      if (n == 0) return static_cast<std::size_t>(p - begin);
      p += n;
      continue;
    }
    if (cls == 3) return static_cast<std::size_t>(p - begin);
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    switch (*p) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', kHex[*p >> 4], kHex[*p & 15]};
        out.append(esc, 6);
      }
    }
    ++p;
    run = p;
  }
  out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
  out.push_back('"');
  return kQuoted;
}

class Writer {
 public:
  Writer(std::string& out, const JcsLimits& limits) : out_(out), limits_(limits) {}

  Result<void> run(const json::value& v) {
    if (!write(v, 0)) return fail(std::move(error_));
    return {};
  }
  Result<void> run(const json::object& o) {
    if (!write_object(o, 1)) return fail(std::move(error_));  // the depth write() gives an object
    return {};
  }

 private:
  bool error(std::string msg) {
    error_ = Error::invalid_params("JCS: " + std::move(msg));
    return false;
  }

  bool write(const json::value& v, std::size_t depth) {
    switch (v.kind()) {
      case json::kind::null: out_ += "null"; return true;
      case json::kind::bool_: out_ += v.get_bool() ? "true" : "false"; return true;
      case json::kind::int64: {
        const std::int64_t i = v.get_int64();
        if (i >= -kMaxExactInteger && i <= kMaxExactInteger) append_integer(out_, i);
        else append_number(out_, static_cast<double>(i));  // rounds to nearest, as JSON.parse would
        return true;
      }
      case json::kind::uint64: {
        const std::uint64_t u = v.get_uint64();
        if (u <= static_cast<std::uint64_t>(kMaxExactInteger)) append_integer(out_, static_cast<std::int64_t>(u));
        else append_number(out_, static_cast<double>(u));
        return true;
      }
      case json::kind::double_:
        if (!append_number(out_, v.get_double())) return error("NaN and Infinity have no JSON form");
        return true;
      case json::kind::string: return write_string(v.get_string());
      case json::kind::array: return write_array(v.get_array(), depth + 1);
      case json::kind::object: return write_object(v.get_object(), depth + 1);
    }
    return error("unknown JSON kind");
  }

  bool enter(std::size_t depth) {
    if (depth > limits_.max_depth) return error("nesting deeper than the limit of " + std::to_string(limits_.max_depth));
    return true;
  }

  bool write_array(const json::array& a, std::size_t depth) {
    if (!enter(depth)) return false;
    out_.push_back('[');
    bool first = true;
    for (const auto& e : a) {
      if (!first) out_.push_back(',');
      first = false;
      if (!write(e, depth)) return false;
    }
    out_.push_back(']');
    return true;
  }

  bool write_object(const json::object& o, std::size_t depth) {
    if (!enter(depth)) return false;
    // One scratch vector for the whole document: each object sorts its own slice at the end, and
    // is indexed (not iterated) because nested objects may reallocate it.
    const std::size_t base = members_.size();
    for (const auto& kv : o) members_.push_back(&kv);
    std::sort(members_.begin() + static_cast<std::ptrdiff_t>(base), members_.end(),
              [](const json::key_value_pair* a, const json::key_value_pair* b) { return utf16_less(a->key(), b->key()); });
    out_.push_back('{');
    const std::size_t end = members_.size();
    for (std::size_t i = base; i < end; ++i) {
      const json::key_value_pair* kv = members_[i];
      if (i != base) out_.push_back(',');
      if (!write_string(kv->key())) return false;
      out_.push_back(':');
      if (!write(kv->value(), depth)) return false;
    }
    members_.resize(base);
    out_.push_back('}');
    return true;
  }

  bool write_string(std::string_view s) {
    if (const std::size_t bad = quote(out_, s); bad != kQuoted) return error("invalid UTF-8 in a string at byte " + std::to_string(bad));
    return true;
  }

  std::string& out_;
  const JcsLimits& limits_;
  std::vector<const json::key_value_pair*> members_;
  Error error_;
};

}  // namespace

bool append_number(std::string& out, double d) {
  if (!std::isfinite(d)) return false;
  // Fast path for the integers that fill real documents (and both zeros, which print as "0").
  if (d == std::trunc(d) && std::fabs(d) <= static_cast<double>(kMaxExactInteger)) {
    append_integer(out, static_cast<std::int64_t>(d));
    return true;
  }
  char buf[64];
  double_conversion::StringBuilder sb(buf, sizeof buf);
  double_conversion::DoubleToStringConverter::EcmaScriptConverter().ToShortest(d, &sb);
  const int n = sb.position();
  out.append(buf, static_cast<std::size_t>(n));
  return true;
}

bool append_string(std::string& out, std::string_view s) { return quote(out, s) == kQuoted; }

bool utf16_less(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = std::min(a.size(), b.size());
  const auto mm = std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin());
  if (mm.first == a.begin() + static_cast<std::ptrdiff_t>(n)) return a.size() < b.size();
  const auto ca = static_cast<unsigned char>(*mm.first);
  const auto cb = static_cast<unsigned char>(*mm.second);
  // Byte order is code point order. UTF-16 order differs only where a code point above U+FFFF
  // (lead byte F0..F4, a surrogate pair D800.. in UTF-16) meets one in U+E000..U+FFFF (lead byte
  // EE..EF): the pair sorts first. At a continuation byte both characters share a lead byte, so
  // the byte comparison stands.
  const bool a_astral = ca >= 0xF0, b_astral = cb >= 0xF0;
  const bool a_high_bmp = ca == 0xEE || ca == 0xEF, b_high_bmp = cb == 0xEE || cb == 0xEF;
  if (a_astral && b_high_bmp) return true;
  if (b_astral && a_high_bmp) return false;
  return ca < cb;
}

Result<void> canonicalize_into(const json::value& v, std::string& out, const JcsLimits& limits) {
  return Writer(out, limits).run(v);
}

namespace {

// The canonical bytes of a value, or of an object held as one, in a string of their own.
template <class Json>
Result<std::string> canonical_string(const Json& j, const JcsLimits& limits) {
  std::string out;
  if (auto r = Writer(out, limits).run(j); !r) return fail(std::move(r.error()));
  return out;
}

}  // namespace

Result<std::string> canonicalize(const json::value& v, const JcsLimits& limits) { return canonical_string(v, limits); }

Result<std::string> canonicalize(const json::object& o, const JcsLimits& limits) { return canonical_string(o, limits); }

Result<std::string> canonicalize_text(std::string_view text, const JcsLimits& limits) {
  // The DOM is scratch: a monotonic arena makes its thousands of small allocations one or two.
  json::monotonic_resource arena;
  auto v = parse_strict(text, limits, &arena);
  if (!v) return fail(std::move(v.error()));
  std::string out;
  out.reserve(text.size());
  auto r = canonicalize_into(*v, out, limits);
  if (!r) return fail(std::move(r.error()));
  return out;
}

}  // namespace mcp::trust
