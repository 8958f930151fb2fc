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
#include <boost/preprocessor/seq/for_each.hpp>
#include <boost/preprocessor/variadic/to_seq.hpp>
#include <array>
#include <limits>
#include <span>
#include <type_traits>

#include "mcp/protocol/wire.hpp"

namespace mcp::wire {

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

template <class T>
concept Tagged = requires { wire_tag(static_cast<const T*>(nullptr)); };
template <class T>
concept Described = boost::describe::has_describe_members<T>::value;
// A protocol type (MCP_WIRE_TYPE), read and written through its to_json/from_json.
template <class T>
concept HasCodec = requires { wire_has_codec(static_cast<const T*>(nullptr)); };
// An application's type (MCP_DESCRIBE): read and written directly; unknown members are refused.
template <class T>
concept Closed = requires { wire_closed(static_cast<const T*>(nullptr)); };
template <class T>
concept DescribedEnum = std::is_enum_v<T> && boost::describe::has_describe_enumerators<T>::value;

// The enumerator names of a BOOST_DESCRIBE_ENUM, in declaration order.
template <DescribedEnum E>
constexpr auto enum_names() {
  using List = boost::describe::describe_enumerators<E>;
  std::array<std::string_view, boost::mp11::mp_size<List>::value> names{};
  std::size_t i = 0;
  boost::mp11::mp_for_each<List>([&](auto D) { names[i++] = D.name; });
  return names;
}

template <class T>
Result<T> decode(const json::value& v);

// Whether T is a specialisation of Tmpl.
template <class T, template <class...> class Tmpl>
constexpr bool is_a = false;
template <template <class...> class Tmpl, class... A>
constexpr bool is_a<Tmpl<A...>, Tmpl> = true;

using StringMap = std::map<std::string, std::string>;
template <class T>
constexpr bool is_array_v = is_a<T, std::vector> || is_a<T, OptionalArray> || is_a<T, OneOrMany>;
// Members that are not written when empty, and read as empty when absent or null.
template <class T>
constexpr bool omitted_when_empty = is_a<T, OptionalArray> || std::is_same_v<T, StringMap>;

template <class T, class F>
constexpr void for_each_member(F&& f) {
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(f);
}

// The tag of the alternative a union holds ("text", "tool_use", ...).
template <class... Ts>
constexpr std::string_view tag_of(const std::variant<Ts...>& v) {
  return std::visit([](const auto& alt) { return wire_tag(&alt).value; }, v);
}

// ---- pieces shared by every instantiation (src/protocol/wire_codec.cpp) -------------------------

// A double as JSON: integral values go out as integers ("50", not "5E1"), so a peer's integer
// stays an integer through a round trip.
json::value number_to_json(double d);
// An integer in the JSON sense: JavaScript peers may send 3.0 for 3.
std::optional<std::int64_t> as_integer(const json::value& v);
Error field_error(std::string_view what, std::string_view key, std::string_view problem);
Error nested_error(std::string_view what, std::string_view key, const Error& inner);
// `_meta.progressToken` of a request's params must be a string or an integer (`meta` null: no _meta).
std::optional<Error> check_request_meta(std::string_view what, const json::object* meta);
std::string index_key(std::string_view key, std::size_t i);
// The index of `s` in `names`, for enumerations written by name.
std::optional<std::size_t> find_name(std::span<const std::string_view> names, std::string_view s);
// "\"a\", \"b\" or \"c\"".
std::string quoted_names(std::span<const std::string_view> names);
// "<what>: expected \"a\", \"b\" or \"c\"".
Error enum_error(std::string_view what, std::span<const std::string_view> names);

// ---- encode ------------------------------------------------------------------------------------

template <class T>
json::value encode(const T& v);

// The position of `e` among its type's enumerators (not its value, which may be anything).
template <DescribedEnum E>
std::size_t enum_index(E e) {
  std::size_t i = 0, found = 0;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto D) {
    if (D.value == e) found = i;
    ++i;
  });
  return found;
}

template <class T>
json::value encode_value(const T& v) {
  if constexpr (std::is_floating_point_v<T>) {
    return number_to_json(static_cast<double>(v));
  } else if constexpr (DescribedEnum<T>) {
    return json::string(enum_names<T>()[enum_index(v)]);
  } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> || std::is_same_v<T, json::value> ||
                       std::is_same_v<T, json::object> || std::is_same_v<T, json::array>) {
    return json::value(v);
  } else if constexpr (std::is_integral_v<T>) {
    return json::value(static_cast<std::int64_t>(v));
  } else if constexpr (is_array_v<T>) {
    if constexpr (is_a<T, OneOrMany>)
      if (v.size() == 1 && !v.as_array) return encode_value(v.front());
    json::array a;
    a.reserve(v.size());
    for (const auto& item : v) a.push_back(encode_value(item));
    return a;
  } else if constexpr (std::is_same_v<T, StringMap>) {
    json::object o;
    for (const auto& [k, s] : v) o[k] = s;
    return o;
  } else if constexpr (is_a<T, std::variant>) {
    return std::visit([](const auto& alt) { return encode_value(alt); }, v);
  } else if constexpr (Described<T> && !HasCodec<T>) {
    return encode(v);  // an application's type
  } else {
    return to_json(v);  // a declared type, or a hand-written codec
  }
}

template <class T>
json::value encode(const T& v) {
  static_assert(boost::describe::has_describe_members<T>::value, "declare the type with MCP_WIRE_TYPE");
  json::object o;
  if constexpr (Tagged<T>) o[wire_tag(&v).key] = wire_tag(&v).value;
  const json::object* extra = nullptr;
  const std::optional<json::object>* meta = nullptr;
  for_each_member<T>([&](auto D) {
    constexpr Name name = wire_name(decltype(D)::name);
    const auto& m = v.*D.pointer;
    using M = std::remove_cvref_t<decltype(m)>;
    if constexpr (name.view() == "extra") extra = &m;
    else if constexpr (name.view() == "_meta") meta = &m;
    else if constexpr (is_a<M, std::optional>) {
      if (m) o[name.view()] = encode_value(*m);
    } else if constexpr (omitted_when_empty<M>) {
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
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) return field_error(what, key, "expected a number");
    const double d = v.to_number<double>();
    // A double out of a narrower type's range would make the cast undefined (1e39 as a float).
    if (d < static_cast<double>(std::numeric_limits<T>::lowest()) || d > static_cast<double>(std::numeric_limits<T>::max()))
      return field_error(what, key, "number out of range");
    out = static_cast<T>(d);
  } else if constexpr (std::is_integral_v<T>) {
    auto i = as_integer(v);
    if (!i) return field_error(what, key, "expected an integer");
    // Narrower integers are range-checked: a peer's 2^40 must not wrap into an int's -1.
    if (std::cmp_less(*i, std::numeric_limits<T>::min()) || std::cmp_greater(*i, std::numeric_limits<T>::max()))
      return field_error(what, key,
                         "expected an integer from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
                             std::to_string(std::numeric_limits<T>::max()));
    out = static_cast<T>(*i);
  } else if constexpr (DescribedEnum<T>) {
    static constexpr auto names = enum_names<T>();
    const auto* s = v.if_string();
    auto i = s ? find_name(names, *s) : std::nullopt;
    if (!i) return field_error(what, key, "expected " + quoted_names(names));
    std::size_t at = 0;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto D) {
      if (at++ == *i) out = D.value;
    });
  } else if constexpr (std::is_same_v<T, json::value>) {
    out = v;
  } else if constexpr (std::is_same_v<T, json::object>) {
    if (!v.is_object()) return field_error(what, key, "expected an object");
    out = v.get_object();
  } else if constexpr (std::is_same_v<T, json::array>) {
    if (!v.is_array()) return field_error(what, key, "expected an array");
    out = v.get_array();
  } else if constexpr (is_array_v<T>) {
    out.clear();
    if constexpr (is_a<T, OneOrMany>) {
      out.as_array = v.is_array();
      if (!out.as_array) return read_value(out.emplace_back(), v, what, key);
    }
    if (!v.is_array()) return field_error(what, key, "expected an array");
    const auto& a = v.get_array();
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      typename T::value_type item{};
      if (auto e = read_value(item, a[i], what, index_key(key, i))) return e;
      out.push_back(std::move(item));
    }
  } else if constexpr (std::is_same_v<T, StringMap>) {
    if (!v.is_object()) return field_error(what, key, "expected an object");
    out.clear();
    for (const auto& kv : v.get_object()) {
      if (!kv.value().is_string())
        return field_error(what, std::string(key) + "." + peer_text(kv.key()), "expected a string");
      out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
    }
  } else if constexpr (Described<T> && !HasCodec<T>) {
    auto r = decode<T>(v);  // an application's type: its wire_check, if any, is in its own header
    if (!r) return nested_error(what, key, r.error());
    out = std::move(*r);
  } else {
    // A nested type is read through its from_json, never decode<T> here: decode<T> consults T's
    // wire_check, which only the source file of T's MCP_WIRE_CODEC sees; elsewhere it would be skipped.
    auto r = from_json<T>(v);
    if (!r) return nested_error(what, key, r.error());
    out = std::move(*r);
  }
  return std::nullopt;
}

// A union of tagged types (a content block, a completion reference): the alternative whose tag is
// the value's, or when it has none, the alternative whose tag is optional. `what` names the union in
// errors, `noun` what an unknown tag is ("content type").
template <class V>
Result<V> decode_union(const json::value& v, std::string_view what, std::string_view noun) {
  constexpr std::string_view key = wire_tag(static_cast<const std::variant_alternative_t<0, V>*>(nullptr)).key;
  const json::object* o = v.if_object();
  if (!o) return fail(Error::invalid_params(std::string(what) + ": expected an object"));
  const json::value* tag = o->if_contains(key);
  const bool untagged = !tag || tag->is_null();
  if (!untagged && !tag->is_string()) return fail(field_error(what, key, "expected a string"));
  std::optional<Result<V>> out;
  boost::mp11::mp_for_each<boost::mp11::mp_transform<std::type_identity, V>>([&]<class A>(std::type_identity<A>) {
    constexpr Tag t = wire_tag(static_cast<const A*>(nullptr));
    static_assert(t.key == key, "the alternatives share their tag's member");
    if (out || (untagged ? !t.optional : tag->get_string() != t.value)) return;
    out.emplace(from_json<A>(v));  // not decode<A>: see read_value
  });
  if (out) return std::move(*out);
  if (untagged) return fail(field_error(what, key, "expected a string"));
  return fail(field_error(what, key, "unknown " + std::string(noun) + " \"" + peer_text(tag->get_string()) + "\""));
}

template <class T>
bool is_member_name(std::string_view key) {
  if constexpr (Tagged<T>)
    if (key == wire_tag(static_cast<const T*>(nullptr)).key) return true;
  bool known = false;
  for_each_member<T>([&](auto D) {
    constexpr Name name = wire_name(decltype(D)::name);
    known = known || (name.view() != "extra" && key == name.view());
  });
  return known;
}

// decode<T> of a value already known to be an object (a tool call's arguments).
template <class T>
Result<T> decode_object(const json::object& object) {
  static_assert(boost::describe::has_describe_members<T>::value, "declare the type with MCP_WIRE_TYPE");
  constexpr std::string_view what = wire_type_name(static_cast<const T*>(nullptr));
  const json::object* o = &object;
  T out{};
  if constexpr (Tagged<T>) {
    constexpr Tag tag = wire_tag(static_cast<const T*>(nullptr));
    const json::value* t = o->if_contains(tag.key);
    if (!t && !tag.optional) return fail(field_error(what, tag.key, "required field is missing"));
    if (t && !(tag.optional && t->is_null()) && !(t->is_string() && t->get_string() == tag.value))
      return fail(field_error(what, tag.key, "expected \"" + std::string(tag.value) + "\""));
  }
  std::optional<Error> err;
  json::object* extra = nullptr;
  for_each_member<T>([&](auto D) {
    constexpr Name name = wire_name(decltype(D)::name);
    auto& m = out.*D.pointer;
    using M = std::remove_cvref_t<decltype(m)>;
    if constexpr (name.view() == "extra") {
      extra = &m;
    } else if (!err) {
      const json::value* f = o->if_contains(name.view());
      if constexpr (is_a<M, std::optional>) {
        if (f && !f->is_null()) err = read_value(m.emplace(), *f, what, name.view());
      } else if constexpr (omitted_when_empty<M>) {
        if (f && !f->is_null()) err = read_value(m, *f, what, name.view());
      } else if (!f) {
        err = field_error(what, name.view(), "required field is missing");
      } else {
        err = read_value(m, *f, what, name.view());
      }
    }
  });
  if (err) return fail(std::move(*err));
  if (extra) {
    for (const auto& kv : *o)
      if (!is_member_name<T>(kv.key())) extra->emplace(kv.key(), kv.value());
  } else if constexpr (Closed<T>) {
    for (const auto& kv : *o)
      if (!is_member_name<T>(kv.key())) return fail(field_error(what, peer_text(kv.key()), "unknown member"));
  }
  if constexpr (requires { wire_is_request_params(&out); })
    if (auto e = check_request_meta(what, out.meta ? &*out.meta : nullptr)) return fail(std::move(*e));
  if constexpr (requires { wire_check(out); })
    if (auto r = wire_check(out); !r) return fail(r.error());
  return out;
}

template <class T>
Result<T> decode(const json::value& v) {
  const json::object* o = v.if_object();
  if (!o) return fail(Error::invalid_params(std::string(wire_type_name(static_cast<const T*>(nullptr))) + ": expected an object"));
  return decode_object<T>(*o);
}

}  // namespace mcp::wire

// Defines T's to_json/from_json (declared by MCP_WIRE_TYPE) with the generic codec. In T's
// namespace, in one source file, as are the macros below.
#define MCP_WIRE_CODEC(T)                                            \
  json::value to_json(const T& v) { return ::mcp::wire::encode(v); } \
  template <>                                                        \
  Result<T> from_json<T>(const json::value& v) { return ::mcp::wire::decode<T>(v); }

// MCP_WIRE_CODEC of each type listed.
#define MCP_WIRE_CODECS(...) BOOST_PP_SEQ_FOR_EACH(MCP_WIRE_CODEC_EACH_, _, BOOST_PP_VARIADIC_TO_SEQ(__VA_ARGS__))
#define MCP_WIRE_CODEC_EACH_(r, data, T) MCP_WIRE_CODEC(T)

// Defines the to_json/from_json of a union of tagged types (declared by MCP_WIRE_UNION); NOUN says
// in errors what an unknown tag is ("content type").
#define MCP_WIRE_UNION_CODEC(V, NOUN)                                      \
  json::value to_json(const V& v) { return ::mcp::wire::encode_value(v); } \
  template <>                                                              \
  Result<V> from_json<V>(const json::value& v) { return ::mcp::wire::decode_union<V>(v, #V, NOUN); }

// Defines what MCP_WIRE_ENUM(E, PARSE) declares; the names follow the order in which the enumerators
// are declared.
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
