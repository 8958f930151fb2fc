// Private: field readers shared by the manifest and trust-store parsers.
#pragma once

#include <cstdint>
#include <optional>

#include "mcp/json.hpp"

namespace mcp::trust::detail {

// The value as an integer if it is one JavaScript holds exactly (|v| <= 2^53 - 1), whether Boost
// parsed it as int64, uint64 or an integral double; otherwise nullopt.
std::optional<std::int64_t> safe_integer(const json::value& v);

}  // namespace mcp::trust::detail
