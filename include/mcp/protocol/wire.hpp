// mcp/protocol/wire.hpp — how a protocol type is declared once, and the conventions of every header
// in mcp/protocol/.
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
//   std::variant<A, B...>  a union (MCP_WIRE_UNION); tagged alternatives (MCP_WIRE_TAGGED) are told
//                          apart by "type", or by the member their wire_tag hook names
// and the member's name gives the wire name: snake_case becomes camelCase, `meta` is "_meta", a
// trailing underscore is dropped (`default_` is "default"). A member named `extra` keeps the fields
// the type does not know, so a round trip through the SDK loses nothing. The types are plain values
// with no invariants; the schema's rules beyond shapes are checked by from_json (wire_check hooks).
//
// MCP_WIRE_TYPE also declares the type's to_json/from_json (the convention of mcp/json.hpp), which
// one source file defines with MCP_WIRE_CODEC(T) (src/protocol/codecs.cpp, for the protocol types).
// A type the rules above cannot express (a union told apart by its fields) keeps hand-written
// to_json/from_json, and the codec uses them.
//
// This header also brings the vocabulary the protocol headers are written in (std::optional,
// std::variant, json::object, ...), so they include only it and each other.
#pragma once

#include <boost/describe.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
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

// What a tagged type's `wire_tag(const T*)` hook returns: its objects carry `value` in member `key`,
// always written and checked on read. An `optional` tag may be left out (older peers' elicitation
// requests), and a union reads an object without a tag as that alternative.
struct Tag {
  std::string_view key;
  std::string_view value;
  bool optional = false;
};

}  // namespace wire

// The description of one member of an MCP_DESCRIBE type, by its C++ name, for its derived JSON
// Schema: `static constexpr mcp::FieldDoc field_docs[] = {{"city", "The city to look up"}};`
// inside the struct (a name that is not a member fails to compile).
struct FieldDoc {
  std::string_view field;
  std::string_view description;
};

namespace wire {

}  // namespace wire
}  // namespace mcp

// Declares T's to_json/from_json. At namespace scope, in T's namespace, as are all the macros below.
#define MCP_WIRE_DECLARE(T)      \
  json::value to_json(const T&); \
  template <>                    \
  Result<T> from_json<T>(const json::value&);

// Declares T's members to the codec, and T's to_json/from_json.
#define MCP_WIRE_TYPE(T, ...)                                           \
  BOOST_DESCRIBE_STRUCT(T, (), (__VA_ARGS__))                           \
  [[maybe_unused]] constexpr std::string_view wire_type_name(const T*) { \
    return #T;                                                          \
  }                                                                     \
  [[maybe_unused]] constexpr bool wire_has_codec(const T*) { return true; } \
  MCP_WIRE_DECLARE(T)

// A type of the application's own (typed tool arguments and results, mcp/server/typed_tool.hpp),
// in any namespace: the codec reads and writes it directly (no to_json/from_json to define), and
// it is closed: a member it does not name is refused on read (unless it has an `extra` member),
// as its derived JSON Schema says with "additionalProperties": false. Its enumerations are
// declared with BOOST_DESCRIBE_ENUM and written by enumerator name.
#define MCP_DESCRIBE(T, ...)                                            \
  BOOST_DESCRIBE_STRUCT(T, (), (__VA_ARGS__))                           \
  [[maybe_unused]] constexpr std::string_view wire_type_name(const T*) { \
    return #T;                                                          \
  }                                                                     \
  [[maybe_unused]] constexpr bool wire_closed(const T*) { return true; }

// The same for a type whose objects carry a fixed "type" (content blocks).
#define MCP_WIRE_TAGGED(T, TAG, ...) \
  MCP_WIRE_TYPE(T, __VA_ARGS__)      \
  [[maybe_unused]] constexpr ::mcp::wire::Tag wire_tag(const T*) { return {"type", TAG}; }

// The same for the params of a request: `_meta.progressToken`, when present, must be a string or an integer.
#define MCP_WIRE_REQUEST_PARAMS(T, ...) \
  MCP_WIRE_TYPE(T, __VA_ARGS__)         \
  [[maybe_unused]] constexpr bool wire_is_request_params(const T*) { return true; }

// A std::variant of tagged types, read by its tag (defined with MCP_WIRE_UNION_CODEC), or a union
// with hand-written to_json/from_json.
#define MCP_WIRE_UNION(V) MCP_WIRE_DECLARE(V)

// An enumeration written by name: declares to_string(E), PARSE(std::string_view) -> std::optional<E>
// and E's to_json/from_json (defined with MCP_WIRE_ENUM_CODEC).
#define MCP_WIRE_ENUM(E, PARSE)             \
  std::string_view to_string(E);            \
  std::optional<E> PARSE(std::string_view); \
  json::value to_json(E);                   \
  template <>                               \
  Result<E> from_json<E>(const json::value&);
