// Private to the SDK: whether two JSON values are equal, as json::value's == says, for values a
// request compares on every call (a stateless request's client capabilities and info against the
// last request's, src/server/stateless.cpp).
//
// Why not ==: Boost.JSON 1.81's object comparison copies each member it looks at (its loop takes
// members by value), an allocation per member per comparison. Here nothing is copied, and the
// walk keeps its own stack: how deep a peer's value nests never reaches the thread's.
#pragma once

#include "mcp/json.hpp"

namespace mcp::detail {

bool json_equal(const json::value& a, const json::value& b);
bool json_equal(const json::object& a, const json::object& b);

}  // namespace mcp::detail
