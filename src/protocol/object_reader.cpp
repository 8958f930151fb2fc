#include "protocol/object_reader.hpp"

#include <cmath>

#include "mcp/protocol/wire_codec.hpp"

namespace mcp::detail {

Result<ObjectReader> ObjectReader::open(const json::value& v, std::string_view what) {
  if (!v.is_object()) return fail(Error::invalid_params(std::string(what) + ": expected an object"));
  return ObjectReader(v.get_object(), std::string(what));
}

Error ObjectReader::missing(std::string_view key) const {
  return Error::invalid_params(what_ + "." + std::string(key) + ": required field is missing");
}

Error ObjectReader::wrong_type(std::string_view key, std::string_view expected) const {
  return Error::invalid_params(what_ + "." + std::string(key) + ": expected " + std::string(expected));
}

Error ObjectReader::prefix(const std::string& key, const Error& inner) const {
  return wire::nested_error(what_, key, inner);
}

Result<std::string> ObjectReader::str(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return fail(missing(key));
  if (!it->value().is_string()) return fail(wrong_type(key, "a string"));
  std::string s(it->value().get_string());
  obj_.erase(it);
  return s;
}

Result<std::optional<std::string>> ObjectReader::opt_str(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::optional<std::string>{};
  if (it->value().is_null()) { obj_.erase(it); return std::optional<std::string>{}; }
  if (!it->value().is_string()) return fail(wrong_type(key, "a string"));
  std::string s(it->value().get_string());
  obj_.erase(it);
  return std::optional<std::string>(std::move(s));
}

Result<std::optional<double>> ObjectReader::opt_number(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::optional<double>{};
  const auto& v = it->value();
  std::optional<double> out;
  if (v.is_double()) out = v.get_double();
  else if (v.is_int64()) out = static_cast<double>(v.get_int64());
  else if (v.is_uint64()) out = static_cast<double>(v.get_uint64());
  else if (!v.is_null()) return fail(wrong_type(key, "a number"));
  obj_.erase(it);
  return out;
}

Result<std::optional<std::int64_t>> ObjectReader::opt_int(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::optional<std::int64_t>{};
  const auto& v = it->value();
  std::optional<std::int64_t> out;
  if (v.is_int64()) out = v.get_int64();
  else if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) out = static_cast<std::int64_t>(v.get_uint64());
  // Peers written in JavaScript may send 3.0 for 3; accept integral doubles in range.
  else if (v.is_double() && std::isfinite(v.get_double()) && std::trunc(v.get_double()) == v.get_double() &&
           std::fabs(v.get_double()) < 9.0e15) out = static_cast<std::int64_t>(v.get_double());
  else if (!v.is_null()) return fail(wrong_type(key, "an integer"));
  obj_.erase(it);
  return out;
}

Result<std::optional<bool>> ObjectReader::opt_bool(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::optional<bool>{};
  std::optional<bool> out;
  if (it->value().is_bool()) out = it->value().get_bool();
  else if (!it->value().is_null()) return fail(wrong_type(key, "a boolean"));
  obj_.erase(it);
  return out;
}

Result<json::object> ObjectReader::object(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return fail(missing(key));
  if (!it->value().is_object()) return fail(wrong_type(key, "an object"));
  json::object o = std::move(it->value().get_object());
  obj_.erase(key);
  return o;
}

Result<std::optional<json::object>> ObjectReader::opt_object(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::optional<json::object>{};
  if (it->value().is_null()) { obj_.erase(it); return std::optional<json::object>{}; }
  if (!it->value().is_object()) return fail(wrong_type(key, "an object"));
  json::object o = std::move(it->value().get_object());
  obj_.erase(key);
  return std::optional<json::object>(std::move(o));
}

Result<std::optional<json::array>> ObjectReader::opt_array(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::optional<json::array>{};
  if (it->value().is_null()) { obj_.erase(it); return std::optional<json::array>{}; }
  if (!it->value().is_array()) return fail(wrong_type(key, "an array"));
  json::array a = std::move(it->value().get_array());
  obj_.erase(key);
  return std::optional<json::array>(std::move(a));
}

Result<json::array> ObjectReader::array(std::string_view key) {
  if (!obj_.contains(key)) return fail(missing(key));
  auto a = opt_array(key);
  if (!a) return fail(a.error());
  return std::move(**a);
}

std::optional<json::value> ObjectReader::opt_value(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return std::nullopt;
  json::value v = std::move(it->value());
  obj_.erase(key);
  return v;
}

void write_extra(json::object& out, const json::object& extra, const std::optional<json::object>& meta) {
  for (const auto& kv : extra) {
    if (!out.contains(kv.key())) out.emplace(kv.key(), kv.value());
  }
  if (meta) out["_meta"] = *meta;
}

}  // namespace mcp::detail
