// The non-template pieces of the generic codec (mcp/protocol/wire_codec.hpp).
#include "mcp/protocol/wire_codec.hpp"

#include <cmath>

#include "mcp/protocol/base.hpp"

namespace mcp::wire {

namespace {
// Beyond 2^53 a double no longer names a single integer.
bool is_integral(double d) { return std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9.0e15; }
}  // namespace

json::value number_to_json(double d) {
  if (is_integral(d)) return static_cast<std::int64_t>(d);
  return d;
}

std::optional<std::int64_t> as_integer(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v.get_uint64());
  if (v.is_double() && is_integral(v.get_double())) return static_cast<std::int64_t>(v.get_double());
  return std::nullopt;
}

Error field_error(std::string_view what, std::string_view key, std::string_view problem) {
  std::string m(what);
  m += '.';
  m += key;
  m += ": ";
  m += problem;
  return Error::invalid_params(std::move(m));
}

Error nested_error(std::string_view what, std::string_view key, const Error& inner) {
  Error e = inner;
  e.message = std::string(what) + "." + std::string(key) + " -> " + inner.message;
  return e;
}

std::optional<Error> check_request_meta(std::string_view what, const json::object* meta) {
  if (!meta) return std::nullopt;
  if (const auto* t = meta->if_contains("progressToken"); t && !is_string_or_integer(*t))
    return field_error(what, "_meta.progressToken", "expected a string or an integer");
  return std::nullopt;
}

std::string index_key(std::string_view key, std::size_t i) {
  return std::string(key) + "[" + std::to_string(i) + "]";
}

std::optional<std::size_t> find_name(std::span<const std::string_view> names, std::string_view s) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return i;
  return std::nullopt;
}

std::string quoted_names(std::span<const std::string_view> names) {
  std::string m;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) m += i + 1 == names.size() ? " or " : ", ";
    m += '"';
    m += names[i];
    m += '"';
  }
  return m;
}

Error enum_error(std::string_view what, std::span<const std::string_view> names) {
  return Error::invalid_params(std::string(what) + ": expected " + quoted_names(names));
}

}  // namespace mcp::wire
