// Private: reads a JSON object field by field for from_json<T> implementations.
//
// Each accessor removes the field it reads from the pending set, so `rest()` returns exactly the
// fields the type did not know (plus nothing it did), which the type keeps in `extra`.
// Errors name the path ("Tool.inputSchema: expected object"), code -32602.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"

// MCP_TRY(var, expr): evaluates a Result; on failure returns its error from the enclosing function,
// otherwise moves the value into a new local `var`.
#define MCP_TRY(var, expr)                    \
  auto var##_r = (expr);                      \
  if (!var##_r) return fail(var##_r.error()); \
  auto var = std::move(*var##_r)

namespace mcp::detail {

class ObjectReader {
 public:
  // Fails unless v is an object. `what` prefixes every error message.
  static Result<ObjectReader> open(const json::value& v, std::string_view what);

  Result<std::string> str(std::string_view key);
  Result<std::optional<std::string>> opt_str(std::string_view key);
  Result<std::optional<double>> opt_number(std::string_view key);
  Result<std::optional<std::int64_t>> opt_int(std::string_view key);
  Result<std::optional<bool>> opt_bool(std::string_view key);
  Result<json::object> object(std::string_view key);
  Result<std::optional<json::object>> opt_object(std::string_view key);
  Result<std::optional<json::array>> opt_array(std::string_view key);
  Result<json::array> array(std::string_view key);
  // Any JSON value, or nullopt when absent.
  std::optional<json::value> opt_value(std::string_view key);

  // Reads an optional array whose elements convert with from_json<T>.
  template <class T>
  Result<std::vector<T>> opt_list(std::string_view key) {
    std::vector<T> out;
    auto arr = opt_array(key);
    if (!arr) return fail(arr.error());
    if (!*arr) return out;
    out.reserve((*arr)->size());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      auto item = from_json<T>((**arr)[i]);
      if (!item) return fail(prefix(std::string(key) + "[" + std::to_string(i) + "]", item.error()));
      out.push_back(std::move(*item));
    }
    return out;
  }
  template <class T>
  Result<std::vector<T>> list(std::string_view key) {
    if (!obj_.contains(key)) return fail(missing(key));
    return opt_list<T>(key);
  }
  // Reads an optional nested object that converts with from_json<T>.
  template <class T>
  Result<std::optional<T>> opt(std::string_view key) {
    auto it = obj_.find(key);
    if (it == obj_.end() || it->value().is_null()) { obj_.erase(key); return std::optional<T>{}; }
    auto v = from_json<T>(it->value());
    if (!v) return fail(prefix(std::string(key), v.error()));
    obj_.erase(key);
    return std::optional<T>(std::move(*v));
  }
  template <class T>
  Result<T> req(std::string_view key) {
    auto it = obj_.find(key);
    if (it == obj_.end()) return fail(missing(key));
    auto v = from_json<T>(it->value());
    if (!v) return fail(prefix(std::string(key), v.error()));
    obj_.erase(key);
    return v;
  }

  // `_meta`, if present and an object.
  Result<std::optional<json::object>> meta() { return opt_object("_meta"); }
  // Fields not consumed so far.
  json::object rest() { return std::move(obj_); }

 private:
  ObjectReader(json::object obj, std::string what) : obj_(std::move(obj)), what_(std::move(what)) {}
  Error missing(std::string_view key) const;
  Error wrong_type(std::string_view key, std::string_view expected) const;
  Error prefix(const std::string& key, const Error& inner) const;

  json::object obj_;
  std::string what_;
};

// Writes `extra` and `meta` back after a type's known fields; known fields win on a name clash.
void write_extra(json::object& out, const json::object& extra, const std::optional<json::object>& meta);

}  // namespace mcp::detail
