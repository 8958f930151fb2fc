// mcp/protocol/wire_codec.hpp — the one codec of every type declared with MCP_WIRE_TYPE
// (mcp/protocol/wire.hpp): wire::encode(value) and wire::decode<T>(json).
//
// Decoding never throws and never trusts the peer: a wrong type, a missing required field, an
// unknown union tag or a rule of the schema broken comes back as an Error with code -32602 whose
// message names the path ("ListToolsResult.tools[0] -> Tool.inputSchema: expected an object"; peer
// strings quoted through peer_text). It recurses only along the C++ types, never along the input:
// how deep a value can nest is fixed at compile time (and the parser bounds the rest).
//
// Users may declare their own types with MCP_WIRE_TYPE and use the same codec (typed tool arguments).
#pragma once

#include <boost/describe.hpp>
#include <boost/mp11.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "mcp/protocol/wire.hpp"

namespace mcp::wire {

template <class T>
concept Described = boost::describe::has_describe_members<T>::value;
template <class T>
concept Tagged = requires { wire_tag(static_cast<const T*>(nullptr)); };

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_optional_array : std::false_type {};
template <class T> struct is_optional_array<OptionalArray<T>> : std::true_type {};
template <class T> struct is_one_or_many : std::false_type {};
template <class T> struct is_one_or_many<OneOrMany<T>> : std::true_type {};
template <class T>
constexpr bool is_array_v = is_vector<T>::value || is_optional_array<T>::value || is_one_or_many<T>::value;
template <class T> struct is_variant : std::false_type {};
template <class... Ts> struct is_variant<std::variant<Ts...>> : std::true_type {};

// ---- pieces shared by every instantiation (src/protocol/wire_codec.cpp) -------------------------

// A double as JSON: integral values go out as integers ("50", not "5E1"), so a peer's integer
// stays an integer through a round trip.
json::value number_to_json(double d);
// An integer in the JSON sense: JavaScript peers may send 3.0 for 3.
std::optional<std::int64_t> as_integer(const json::value& v);
Error field_error(std::string_view what, std::string_view key, std::string_view problem);
Error nested_error(std::string_view what, std::string_view key, const Error& inner);
// Rules of the schema beyond shapes, shared by wire_check hooks and the remaining hand-written readers.
// `_meta.progressToken` of a request's params must be a string or an integer.
std::optional<Error> check_request_meta(std::string_view what, const std::optional<json::object>& meta);
// Priorities lie in [0, 1].
Result<void> check_unit_interval(std::string_view what, std::string_view key, const std::optional<double>& v);
// Sizes are byte counts.
Result<void> check_non_negative(std::string_view what, std::string_view key, const std::optional<std::int64_t>& v);
std::string index_key(std::string_view key, std::size_t i);
// The index of `s` in `names`, for enumerations written by name.
std::optional<std::size_t> find_name(std::span<const std::string_view> names, std::string_view s);
// "<what>: expected \"a\", \"b\" or \"c\"".
Error enum_error(std::string_view what, std::span<const std::string_view> names);

// A tagged type's objects carry their tag in "type", unless the type names another member with a
// `wire_tag_key` hook (elicitation's "mode"); `wire_tag_optional` lets objects leave the tag out
// (older peers' elicitation requests), and it is still always written.
template <class T>
constexpr std::string_view tag_key() {
  constexpr const T* t = nullptr;
  if constexpr (requires { wire_tag_key(t); }) return wire_tag_key(t);
  else return "type";
}
template <class T>
constexpr bool tag_optional() {
  constexpr const T* t = nullptr;
  if constexpr (requires { wire_tag_optional(t); }) return wire_tag_optional(t);
  else return false;
}

template <class T>
constexpr std::string_view type_name() {
  if constexpr (Described<T>) return wire_type_name(static_cast<const T*>(nullptr));
  else return "value";
}

template <class D>
constexpr Name member_name() {
  return wire_name(D::name);
}

// ---- encode ------------------------------------------------------------------------------------

template <class T> json::value encode(const T& v);

template <class T>
json::value encode_value(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) return json::value(v);
  else if constexpr (std::is_same_v<T, bool>) return json::value(v);
  else if constexpr (std::is_same_v<T, double>) return number_to_json(v);
  else if constexpr (std::is_integral_v<T>) return json::value(static_cast<std::int64_t>(v));
  else if constexpr (std::is_same_v<T, json::value> || std::is_same_v<T, json::object> || std::is_same_v<T, json::array>)
    return json::value(v);
  else if constexpr (is_array_v<T>) {
    if constexpr (is_one_or_many<T>::value)
      if (v.size() == 1 && !v.as_array) return encode_value(v.front());
    json::array a;
    a.reserve(v.size());
    for (const auto& item : v) a.push_back(encode_value(item));
    return a;
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    json::object o;
    for (const auto& [k, s] : v) o[k] = s;
    return o;
  } else if constexpr (is_variant<T>::value) {
    return std::visit([](const auto& alt) { return encode_value(alt); }, v);
  } else if constexpr (Described<T>) {
    return encode(v);
  } else {
    return to_json(v);  // a hand-written codec
  }
}

template <class T>
json::value encode(const T& v) {
  static_assert(Described<T>, "declare the type with MCP_WIRE_TYPE");
  json::object o;
  if constexpr (Tagged<T>) o[tag_key<T>()] = wire_tag(static_cast<const T*>(nullptr));
  const json::object* extra = nullptr;
  const std::optional<json::object>* meta = nullptr;
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto D) {
    constexpr Name name = member_name<decltype(D)>();
    const auto& m = v.*D.pointer;
    using M = std::remove_cvref_t<decltype(m)>;
    if constexpr (name.view() == "extra") extra = &m;
    else if constexpr (name.view() == "_meta") meta = &m;
    else if constexpr (is_optional<M>::value) {
      if (m) o[name.view()] = encode_value(*m);
    } else if constexpr (is_optional_array<M>::value || std::is_same_v<M, std::map<std::string, std::string>>) {
      if (!m.empty()) o[name.view()] = encode_value(m);
    } else {
      o[name.view()] = encode_value(m);
    }
  });
  if (extra)
    for (const auto& kv : *extra)
      if (!o.contains(kv.key())) o.emplace(kv.key(), kv.value());
  if (meta && *meta) o["_meta"] = **meta;
  return o;
}

// ---- decode ------------------------------------------------------------------------------------

// Reads one value into `out`; `what.key` names it in errors.
template <class T>
std::optional<Error> read_value(T& out, const json::value& v, std::string_view what, std::string_view key) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) return field_error(what, key, "expected a string");
    out.assign(v.get_string().data(), v.get_string().size());
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_bool()) return field_error(what, key, "expected a boolean");
    out = v.get_bool();
  } else if constexpr (std::is_same_v<T, double>) {
    if (v.is_double()) out = v.get_double();
    else if (v.is_int64()) out = static_cast<double>(v.get_int64());
    else if (v.is_uint64()) out = static_cast<double>(v.get_uint64());
    else return field_error(what, key, "expected a number");
  } else if constexpr (std::is_integral_v<T>) {
    auto i = as_integer(v);
    if (!i) return field_error(what, key, "expected an integer");
    out = static_cast<T>(*i);
  } else if constexpr (std::is_same_v<T, json::value>) {
    out = v;
  } else if constexpr (std::is_same_v<T, json::object>) {
    if (!v.is_object()) return field_error(what, key, "expected an object");
    out = v.get_object();
  } else if constexpr (std::is_same_v<T, json::array>) {
    if (!v.is_array()) return field_error(what, key, "expected an array");
    out = v.get_array();
  } else if constexpr (is_array_v<T>) {
    if constexpr (is_one_or_many<T>::value) {
      out.as_array = v.is_array();
      if (!out.as_array) {
        out.assign(1, typename T::value_type{});
        return read_value(out.front(), v, what, key);
      }
    }
    if (!v.is_array()) return field_error(what, key, "expected an array");
    const auto& a = v.get_array();
    out.clear();
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      typename T::value_type item{};
      if (auto e = read_value(item, a[i], what, index_key(key, i))) return e;
      out.push_back(std::move(item));
    }
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    if (!v.is_object()) return field_error(what, key, "expected an object");
    out.clear();
    for (const auto& kv : v.get_object()) {
      if (!kv.value().is_string()) return field_error(what, std::string(key) + "." + peer_text(kv.key()), "expected a string");
      out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
    }
  } else {
    // A nested type is read through its from_json, never decode<T> here: decode<T> consults T's
    // wire_check, which only T's own source file sees, and an instantiation elsewhere would skip it.
    auto r = from_json<T>(v);
    if (!r) return nested_error(what, key, r.error());
    out = std::move(*r);
  }
  return std::nullopt;
}

// A union of tagged types (a content block, a completion reference): the alternative whose tag is
// the value's, or when it has none, the alternative whose tag is optional. `what` names the union in
// errors, `noun` what an unknown tag is ("content type"). A union needs a name, so it keeps a
// from_json of its own that calls this.
template <class V>
Result<V> decode_union(const json::value& v, std::string_view what, std::string_view noun) {
  constexpr std::string_view key = tag_key<std::variant_alternative_t<0, V>>();
  const json::object* o = v.if_object();
  if (!o) return fail(Error::invalid_params(std::string(what) + ": expected an object"));
  const json::value* tag = o->if_contains(key);
  const bool untagged = !tag || tag->is_null();
  if (!untagged && !tag->is_string()) return fail(field_error(what, key, "expected a string"));
  std::optional<Result<V>> out;
  [&]<class... Ts>(std::type_identity<std::variant<Ts...>>) {
    static_assert((Tagged<Ts> && ...), "every alternative needs a tag");
    static_assert(((tag_key<Ts>() == key) && ...), "the alternatives share their tag's member");
    auto try_one = [&]<class A>(std::type_identity<A>) {
      if (out) return;
      if (untagged ? !tag_optional<A>() : tag->get_string() != wire_tag(static_cast<const A*>(nullptr))) return;
      auto r = from_json<A>(v);  // not decode<A>: see read_value
      out = r ? Result<V>(V(std::move(*r))) : Result<V>(fail(r.error()));
    };
    (try_one(std::type_identity<Ts>{}), ...);
  }(std::type_identity<V>{});
  if (out) return std::move(*out);
  if (untagged) return fail(field_error(what, key, "expected a string"));
  return fail(field_error(what, key, "unknown " + std::string(noun) + " \"" + peer_text(tag->get_string()) + "\""));
}

template <class T>
bool is_member_name(std::string_view key) {
  if constexpr (Tagged<T>)
    if (key == tag_key<T>()) return true;
  bool known = false;
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto D) {
    constexpr Name name = member_name<decltype(D)>();
    if constexpr (name.view() != "extra") known = known || key == name.view();
  });
  return known;
}

template <class T>
Result<T> decode(const json::value& v) {
  static_assert(Described<T>, "declare the type with MCP_WIRE_TYPE");
  constexpr std::string_view what = type_name<T>();
  const json::object* o = v.if_object();
  if (!o) return fail(Error::invalid_params(std::string(what) + ": expected an object"));
  T out{};
  if constexpr (Tagged<T>) {
    constexpr std::string_view key = tag_key<T>(), expected = wire_tag(static_cast<const T*>(nullptr));
    const json::value* tag = o->if_contains(key);
    if (!tag && !tag_optional<T>()) return fail(field_error(what, key, "required field is missing"));
    if (tag && !(tag_optional<T>() && tag->is_null()) && !(tag->is_string() && tag->get_string() == expected))
      return fail(field_error(what, key, "expected \"" + std::string(expected) + "\""));
  }
  std::optional<Error> err;
  json::object* extra = nullptr;
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto D) {
    constexpr Name name = member_name<decltype(D)>();
    auto& m = out.*D.pointer;
    using M = std::remove_cvref_t<decltype(m)>;
    if constexpr (name.view() == "extra") {
      extra = &m;
    } else {
      if (err) return;
      const json::value* f = o->if_contains(name.view());
      if constexpr (is_optional<M>::value) {
        if (f && !f->is_null()) {
          typename M::value_type x{};
          err = read_value(x, *f, what, name.view());
          if (!err) m = std::move(x);
        }
      } else if constexpr (is_optional_array<M>::value || std::is_same_v<M, std::map<std::string, std::string>>) {
        if (f && !f->is_null()) err = read_value(m, *f, what, name.view());
      } else if (!f) {
        err = field_error(what, name.view(), "required field is missing");
      } else {
        err = read_value(m, *f, what, name.view());
      }
    }
  });
  if (err) return fail(std::move(*err));
  if (extra)
    for (const auto& kv : *o)
      if (!is_member_name<T>(kv.key())) extra->emplace(kv.key(), kv.value());
  if constexpr (requires { wire_is_request_params(static_cast<const T*>(nullptr)); }) {
    if (auto e = check_request_meta(what, out.meta)) return fail(std::move(*e));
  }
  if constexpr (requires { wire_check(out); }) {
    if (auto r = wire_check(out); !r) return fail(r.error());
  }
  return out;
}

}  // namespace mcp::wire

// Defines T's to_json/from_json (declared by MCP_WIRE_TYPE) with the generic codec. In T's
// namespace, in one source file.
#define MCP_WIRE_CODEC(T)                                                        \
  json::value to_json(const T& v) { return ::mcp::wire::encode(v); }             \
  template <>                                                                    \
  Result<T> from_json<T>(const json::value& v) { return ::mcp::wire::decode<T>(v); }

// Defines to_string(E), PARSE(std::string_view), to_json(E) and from_json<E> for an enumeration
// written by name; the names follow the order in which the enumerators are declared. In E's
// namespace, in one source file.
#define MCP_WIRE_ENUM_CODEC(E, PARSE, ...)                                                 \
  namespace {                                                                             \
  constexpr std::string_view wire_names_##E[] = {__VA_ARGS__};                            \
  }                                                                                       \
  std::string_view to_string(E e) { return wire_names_##E[static_cast<std::size_t>(e)]; } \
  std::optional<E> PARSE(std::string_view s) {                                            \
    auto i = ::mcp::wire::find_name(wire_names_##E, s);                                   \
    return i ? std::optional<E>(static_cast<E>(*i)) : std::nullopt;                       \
  }                                                                                       \
  json::value to_json(E e) { return json::string(to_string(e)); }                         \
  template <>                                                                             \
  Result<E> from_json<E>(const json::value& v) {                                          \
    const auto* s = v.if_string();                                                        \
    if (auto e = s ? PARSE(*s) : std::nullopt) return *e;                                 \
    return fail(::mcp::wire::enum_error(#E, wire_names_##E));                             \
  }
