// Private: shared pieces of the protocol types' to_json / from_json, on top of ObjectReader.
//
// Error messages follow ObjectReader's shape, "<Type>.<field>: <problem>", so that every -32602 a
// peer receives names the offending path the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/wire_codec.hpp"
#include "protocol/object_reader.hpp"

// MCP_CHECK(expr): evaluates a Result<void>; on failure returns its error from the enclosing function.
#define MCP_CHECK(expr)                                                                                 \
  do {                                                                                                  \
    if (auto mcp_check_r_ = (expr); !mcp_check_r_) return ::mcp::fail(std::move(mcp_check_r_.error())); \
  } while (false)

namespace mcp::detail {

using wire::field_error;

template <class T>
json::array to_json_array(const std::vector<T>& items) {
  json::array a;
  a.reserve(items.size());
  for (const auto& i : items) a.push_back(to_json(i));
  return a;
}

inline json::array to_json_array(const std::vector<std::string>& items) {
  json::array a;
  a.reserve(items.size());
  for (const auto& s : items) a.emplace_back(s);
  return a;
}

// Shared with the generic codec (mcp/protocol/wire_codec.hpp).
using wire::as_integer;
using wire::number_to_json;

// Reads an optional array of strings.
Result<std::vector<std::string>> opt_strings(ObjectReader& r, std::string_view what, std::string_view key);

// Reads an optional number that the schema bounds to [0, 1] (priorities).
Result<std::optional<double>> opt_unit_interval(ObjectReader& r, std::string_view what, std::string_view key);

// Reads a "type" discriminator and insists on `expected`; a type read through the wrong struct must
// not silently become another.
Result<void> expect_type(ObjectReader& r, std::string_view what, std::string_view expected);

// `_meta` of a request's params: like ObjectReader::meta(), and `progressToken`, when present, must be
// a string or an integer as the schema's RequestParams demands.
Result<std::optional<json::object>> request_meta(ObjectReader& r, std::string_view what);

// The "type" member of a value about to be dispatched to a variant alternative, or nullptr.
const json::string* type_tag(const json::value& v);

}  // namespace mcp::detail
