// mcp/protocol/wire_schema.hpp — the JSON Schema of a described type, derived from the same member
// list the codec reads (mcp/protocol/wire_codec.hpp), so that what a tool's inputSchema promises
// and what its arguments are checked against cannot drift apart.
//
//   wire::json_schema<T>() -> {"type": "object", "properties": {...}, "required": [...], ...}
//
// Each member's schema follows its C++ type, with the codec's rules: std::optional and
// OptionalArray members are not required; std::string is "string", bool "boolean", integers
// "integer" with their type's range, floating point "number", vectors "array" with "items", a
// BOOST_DESCRIBE_ENUM "string" with "enum", json::value anything, nested described types their own
// object schema. An MCP_DESCRIBE type without an `extra` member says "additionalProperties": false,
// as its decode refuses unknown members. Descriptions come from the type's `field_docs`.
// Unions (std::variant) have no derived schema: a type holding one does not compile here.
#pragma once

#include "mcp/protocol/wire_codec.hpp"

namespace mcp::wire {

template <class T>
constexpr bool has_field_docs = requires { T::field_docs; };

// Every name in T::field_docs is a member of T: checked at compile time, so a renamed member
// cannot leave its description behind silently.
template <class T>
constexpr bool field_docs_name_members() {
  if constexpr (!has_field_docs<T>) {
    return true;
  } else {
    for (const FieldDoc& doc : T::field_docs) {
      bool found = false;
      for_each_member<T>([&](auto D) { found = found || doc.field == std::string_view(decltype(D)::name); });
      if (!found) return false;
    }
    return true;
  }
}

template <class T>
std::string_view field_doc(std::string_view cpp_name) {
  if constexpr (has_field_docs<T>) {
    for (const FieldDoc& doc : T::field_docs)
      if (doc.field == cpp_name) return doc.description;
  }
  return {};
}

// Depth counts nested types, so that a type that contains itself stops compiling instead of
// recursing for ever.
template <class T, int Depth = 0>
json::object json_schema();

template <class T, int Depth>
json::object member_schema() {
  if constexpr (is_a<T, std::optional>) {
    return member_schema<typename T::value_type, Depth>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return {{"type", "string"}};
  } else if constexpr (std::is_same_v<T, bool>) {
    return {{"type", "boolean"}};
  } else if constexpr (std::is_integral_v<T>) {
    json::object s{{"type", "integer"}};
    // Beyond 2^53 JSON numbers are not exact; the 64-bit types state no bound.
    if constexpr (sizeof(T) < 8) {
      s["minimum"] = static_cast<std::int64_t>(std::numeric_limits<T>::min());
      s["maximum"] = static_cast<std::int64_t>(std::numeric_limits<T>::max());
    } else if constexpr (std::is_unsigned_v<T>) {
      s["minimum"] = 0;
    }
    return s;
  } else if constexpr (std::is_floating_point_v<T>) {
    return {{"type", "number"}};
  } else if constexpr (DescribedEnum<T>) {
    json::array names;
    for (std::string_view n : enum_names<T>()) names.emplace_back(json::string(n));
    return {{"type", "string"}, {"enum", std::move(names)}};
  } else if constexpr (std::is_same_v<T, json::value>) {
    return {};
  } else if constexpr (std::is_same_v<T, json::object>) {
    return {{"type", "object"}};
  } else if constexpr (std::is_same_v<T, json::array>) {
    return {{"type", "array"}};
  } else if constexpr (std::is_same_v<T, StringMap>) {
    return {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}};
  } else if constexpr (is_a<T, OneOrMany>) {
    json::object item = member_schema<typename T::value_type, Depth>();
    return {{"anyOf", json::array{item, json::object{{"type", "array"}, {"items", item}}}}};
  } else if constexpr (is_array_v<T>) {
    return {{"type", "array"}, {"items", member_schema<typename T::value_type, Depth>()}};
  } else {
    static_assert(Described<T>, "json_schema: declare the member's type with MCP_DESCRIBE (unions have no derived schema)");
    return json_schema<T, Depth + 1>();
  }
}

template <class T, int Depth>
json::object json_schema() {
  static_assert(Described<T>, "json_schema: declare the type with MCP_DESCRIBE");
  static_assert(Depth < 16, "json_schema: the type nests more than 16 levels (does it contain itself?)");
  static_assert(field_docs_name_members<T>(), "json_schema: a field_docs entry names no member of the type");
  json::object properties;
  json::array required;
  bool open = !Closed<T>;
  for_each_member<T>([&](auto D) {
    constexpr Name name = wire_name(decltype(D)::name);
    using M = std::remove_cvref_t<decltype(std::declval<T&>().*D.pointer)>;
    if constexpr (name.view() == "extra") {
      open = true;
    } else if constexpr (name.view() != "_meta") {
      json::object s = member_schema<M, Depth>();
      if (auto doc = field_doc<T>(decltype(D)::name); !doc.empty()) s["description"] = json::string(doc);
      properties[name.view()] = std::move(s);
      if constexpr (!is_a<M, std::optional> && !omitted_when_empty<M>) required.emplace_back(json::string(name.view()));
    }
  });
  json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  if (!open) schema["additionalProperties"] = false;
  return schema;
}

}  // namespace mcp::wire
