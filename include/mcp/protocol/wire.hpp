// mcp/protocol/wire.hpp — how a protocol type is declared once.
//
// A protocol type is a plain struct whose members mirror the schema, followed by one line naming its
// members for the generic codec (mcp/protocol/wire_codec.hpp):
//
//   struct Icon {
//     std::string src{};
//     std::optional<std::string> mime_type{};
//     OptionalArray<std::string> sizes{};
//     json::object extra{};
//   };
//   MCP_WIRE_TYPE(Icon, src, mime_type, sizes, extra)
//
// The member's type says the wire rule, so nothing is written twice:
//   T                      required (read fails when absent; always written)
//   std::optional<T>       optional (absent or null reads as nullopt; written when set)
//   OptionalArray<T>       optional array (absent reads as empty; not written when empty)
//   std::vector<T>         required array (always written, even empty)
//   OneOrMany<T>           required; one item or an array of them, written back in the shape read
//   std::map<string,string> optional object of strings (not written when empty)
//   std::variant<A, B...>  a union; tagged alternatives (MCP_WIRE_TAGGED) are told apart by "type"
//                          (or the member their wire_tag_key hook names: see wire_codec.hpp)
// and the member's name gives the wire name: snake_case becomes camelCase, `meta` is "_meta", a
// trailing underscore is dropped (`default_` is "default"). A member named `extra` keeps the fields
// the type does not know, so a round trip through the SDK loses nothing.
//
// MCP_WIRE_TYPE also declares the type's to_json/from_json (the convention of mcp/json.hpp); its
// source file defines them with MCP_WIRE_CODEC(T). A type the rules above cannot express (a union
// told apart by its fields, say) keeps hand-written to_json/from_json, and the codec uses them.
#pragma once

#include <boost/describe.hpp>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/json.hpp"

namespace mcp {

// An array the schema marks optional, where absent and empty mean the same.
template <class T>
struct OptionalArray : std::vector<T> {
  using std::vector<T>::vector;
  OptionalArray() = default;
  OptionalArray(std::vector<T> v) : std::vector<T>(std::move(v)) {}  // NOLINT: implicit on purpose
};

// What the schema types `T | T[]` (sampling content). `as_array` remembers the wire shape: a lone
// item read from an array goes back as one, and is otherwise written bare, which peers that predate
// the array form understand.
template <class T>
struct OneOrMany : std::vector<T> {
  using std::vector<T>::vector;
  OneOrMany() = default;
  OneOrMany(std::vector<T> v) : std::vector<T>(std::move(v)) {}  // NOLINT: implicit on purpose
  bool as_array = false;
};

namespace wire {

// A member's wire name, computed at compile time from its C++ name.
struct Name {
  char text[64]{};
  std::size_t size = 0;
  constexpr std::string_view view() const { return {text, size}; }
};

constexpr Name wire_name(std::string_view cpp) {
  Name n;
  if (cpp == "meta") cpp = "_meta";
  if (!cpp.empty() && cpp.back() == '_') cpp.remove_suffix(1);
  bool upper = false;
  for (char c : cpp) {
    if (c == '_' && n.size > 0) {
      upper = true;
      continue;
    }
    n.text[n.size++] = upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return n;
}

}  // namespace wire
}  // namespace mcp

// Declares T's members to the codec, and T's to_json/from_json. At namespace scope, in T's namespace.
#define MCP_WIRE_TYPE(T, ...)                                                          \
  BOOST_DESCRIBE_STRUCT(T, (), (__VA_ARGS__))                                          \
  [[maybe_unused]] constexpr std::string_view wire_type_name(const T*) { return #T; }  \
  json::value to_json(const T&);                                                       \
  template <>                                                                          \
  Result<T> from_json<T>(const json::value&);

// The same for a type whose objects carry a fixed "type" (content blocks): written, and checked on read.
#define MCP_WIRE_TAGGED(T, TAG, ...) \
  MCP_WIRE_TYPE(T, __VA_ARGS__)      \
  [[maybe_unused]] constexpr std::string_view wire_tag(const T*) { return TAG; }

// The same for the params of a request: `_meta.progressToken`, when present, must be a string or an integer.
#define MCP_WIRE_REQUEST_PARAMS(T, ...) \
  MCP_WIRE_TYPE(T, __VA_ARGS__)         \
  [[maybe_unused]] constexpr bool wire_is_request_params(const T*) { return true; }
