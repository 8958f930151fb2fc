// Private: JSON equality as the canonical bytes would decide it, without serialising.
//
// Two values are equal when RFC 8785 would print them alike: object members compared as sets
// (order ignored), numbers compared as numbers (1 == 1.0, and -0 == 0), strings byte for byte. The
// checker compares schemas and annotations on every list, so this walks the two trees once and
// allocates nothing.
#pragma once

#include "mcp/json.hpp"

namespace mcp::detail {

bool json_equal(const json::value& a, const json::value& b) noexcept;
bool json_equal(const json::object& a, const json::object& b) noexcept;

}  // namespace mcp::detail
