// Private to the SDK: JSON text of a DOM, appended piece by piece to a sink (the JSON-RPC encoder's
// buffer, src/jsonrpc/codec.cpp): `out.raw(std::string_view)` takes a piece, `out.put(char)` one
// character (most pieces are one: quotes, commas, colons, brackets).
//
// Why not Boost.JSON's serializer: given less output room than what is left of a string, it copies
// that string one byte at a time (~5 instructions a byte), and an encoder writing into a buffer
// that grows is in that case for most of every long string. A 16 KiB tool argument took ~20 µs to
// write, on the gateway's one serving thread (bench/RESULTS.md). Here a string goes out in runs
// between the bytes that need escaping, found eight bytes at a time.
//
// The text is the serializer's, byte for byte: the same escapes (\" \\ \b \f \n \r \t, \u00xx for
// other control bytes, nothing else), numbers written by the serializer itself. Iterative: how
// deep a value nests never reaches the stack.
#pragma once

#include <charconv>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <boost/container/small_vector.hpp>

#include "mcp/json.hpp"

namespace mcp::detail {

// The offset of the first byte of `s` from `from` on that JSON must escape (`"`, `\`, below 0x20),
// or s.size().
inline std::size_t next_escaped(std::string_view s, std::size_t from) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  std::size_t i = from;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    // A byte is flagged if it is below 0x20, or equal to '"' or '\' (a zero after the xor). Bytes
    // from 0x80 never flag: the tests exclude the words' own high bits (~w).
    const std::uint64_t quote = w ^ (kOnes * '"'), slash = w ^ (kOnes * '\\');
    const std::uint64_t hits = ((w - kOnes * 0x20) | (quote - kOnes) | (slash - kOnes)) & ~w & kHigh;
    if (hits) break;  // the exact byte is found below (a borrow may flag a later byte too)
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') return i;
  }
  return s.size();
}

// A sink that can hand out room for `n` bytes at once (`char* room(std::size_t n)`, the bytes then
// its to fill) takes a string with nothing to escape, quotes and all (and a key's colon), in one
// copy. Most strings of a message are such: keys, names, short texts. Piece by piece, a key was
// three appends and a bounds check each, and a key-heavy document (a tools/list) went out ~20%
// slower than through Boost.JSON's serializer.
template <class Out>
concept RoomySink = requires(Out& out, std::size_t n) {
  { out.room(n) } -> std::same_as<char*>;
};

// `s` quoted, then `tail` (a key's ':' or nothing), when nothing in `s` is to be escaped: true if
// written so.
template <class Out>
inline bool write_plain_string(Out& out, std::string_view s, std::size_t first_escaped, std::string_view tail) {
  if constexpr (RoomySink<Out>) {
    if (first_escaped != s.size()) return false;
    char* p = out.room(s.size() + 2 + tail.size());
    *p++ = '"';
    std::memcpy(p, s.data(), s.size());
    p += s.size();
    *p++ = '"';
    if (!tail.empty()) std::memcpy(p, tail.data(), tail.size());
    return true;
  } else {
    return false;
  }
}

// `s` quoted and escaped; `first`: next_escaped(s, 0).
template <class Out>
inline void write_escaped_string(Out& out, std::string_view s, std::size_t first) {
  out.put('"');
  std::size_t run = 0;
  for (std::size_t i = first; i < s.size(); i = next_escaped(s, run)) {
    out.raw(s.substr(run, i - run));
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out.raw("\\\""); break;
      case '\\': out.raw("\\\\"); break;
      case '\b': out.raw("\\b"); break;
      case '\f': out.raw("\\f"); break;
      case '\n': out.raw("\\n"); break;
      case '\r': out.raw("\\r"); break;
      case '\t': out.raw("\\t"); break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.raw(std::string_view(esc, 6));
      }
    }
    run = i + 1;
  }
  out.raw(s.substr(run));
  out.put('"');
}

template <class Out>
inline void write_json_string(Out& out, std::string_view s) {
  const std::size_t first = next_escaped(s, 0);
  if (!write_plain_string(out, s, first, {})) write_escaped_string(out, s, first);
}

// An object's key and its ':'.
template <class Out>
inline void write_json_key(Out& out, std::string_view key) {
  const std::size_t first = next_escaped(key, 0);
  if (write_plain_string(out, key, first, ":")) return;
  write_escaped_string(out, key, first);
  out.put(':');
}

template <class Out>
void write_json_scalar(Out& out, const json::value& v) {
  char buf[32];
  switch (v.kind()) {
    case json::kind::null: out.raw("null"); return;
    case json::kind::bool_: out.raw(v.get_bool() ? std::string_view("true") : std::string_view("false")); return;
    case json::kind::int64: {
      const auto r = std::to_chars(buf, buf + sizeof buf, v.get_int64());
      out.raw(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
      return;
    }
    case json::kind::uint64: {
      const auto r = std::to_chars(buf, buf + sizeof buf, v.get_uint64());
      out.raw(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
      return;
    }
    default: {  // a double: the serializer's own form ("2.5E0"), which peers already read from us
      json::serializer sr;
      sr.reset(&v);
      char text[64];
      out.raw(sr.read(text, sizeof text));
      return;
    }
  }
}

// One open array or object: what is left of its members or elements.
struct JsonFrame {
  bool object;  // said, not derived from `member`: an empty object's members need not be a pointer
  const json::key_value_pair* member;  // an object's next member
  const json::key_value_pair* members_end;
  const json::value* element;  // an array's next element
  const json::value* elements_end;
  bool first;
};

// Sixteen levels open without a heap allocation: a message's usually nest less.
using JsonFrames = boost::container::small_vector<JsonFrame, 16>;

template <class Out>
void open_json(Out& out, JsonFrames& open, const json::object& o) {
  out.put('{');
  open.push_back(JsonFrame{true, o.begin(), o.end(), nullptr, nullptr, true});
}

// Writes `v` (null: nothing), then goes on with what `open` holds until it is empty.
template <class Out>
void write_json_from(Out& out, JsonFrames& open, const json::value* v) {
  for (;;) {
    if (v) {
      if (const json::object* o = v->if_object()) {
        open_json(out, open, *o);
      } else if (const json::array* a = v->if_array()) {
        out.put('[');
        open.push_back(JsonFrame{false, nullptr, nullptr, a->data(), a->data() + a->size(), true});
      } else if (const json::string* s = v->if_string()) {
        write_json_string(out, std::string_view(s->data(), s->size()));
      } else {
        write_json_scalar(out, *v);
      }
    }
    if (open.empty()) return;
    JsonFrame& f = open.back();
    if (f.object ? f.member == f.members_end : f.element == f.elements_end) {
      out.put(f.object ? '}' : ']');
      open.pop_back();
      v = nullptr;
      continue;
    }
    if (!f.first) out.put(',');
    f.first = false;
    if (f.object) {
      write_json_key(out, std::string_view(f.member->key().data(), f.member->key().size()));
      v = &(f.member++)->value();
    } else {
      v = f.element++;
    }
  }
}

template <class Out>
void write_json(Out& out, const json::value& v) {
  JsonFrames open;
  write_json_from(out, open, &v);
}

template <class Out>
void write_json(Out& out, const json::object& o) {
  JsonFrames open;
  open_json(out, open, o);
  write_json_from(out, open, nullptr);
}

}  // namespace mcp::detail
