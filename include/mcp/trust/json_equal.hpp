// mcp/trust/json_equal.hpp — JSON equality as canonical bytes (RFC 8785) would decide it, without
// serialising.
//
// Two values are equal when JCS would print them alike: object members compared as sets (order
// ignored), numbers compared as numbers (1 == 1.0, and -0 == 0), strings byte for byte. The
// signature checker compares schemas and annotations on every list, the manifest enforcer compares
// listed tools with signed ones: this walks the two trees once, with an explicit stack (a peer's
// nesting never becomes our recursion), and allocates only for deep trees.
#pragma once

#include "mcp/json.hpp"

namespace mcp::trust {

[[nodiscard]] bool canonically_equal(const json::value& a, const json::value& b);
[[nodiscard]] bool canonically_equal(const json::object& a, const json::object& b);

}  // namespace mcp::trust
