// Private: the SDK's logger (spdlog, to stderr). Use MCP_LOG_xxx(fmt, args...).
//
// The arguments are evaluated only when the level is on: a debug line on a hot path (the chain's
// log stage formats every request) costs one comparison when debug logging is off, not the
// peer_text copies its arguments make.
#pragma once

#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

namespace mcp::detail {
spdlog::logger& logger();
// The line log_passthrough writes (mcp/log.hpp), in the current format, newline included.
std::string format_passthrough(std::string_view source, std::string_view line);
}  // namespace mcp::detail

#define MCP_LOG_AT_(LEVEL, FN, ...)                            \
  do {                                                         \
    auto& mcp_logger_ = ::mcp::detail::logger();               \
    if (mcp_logger_.should_log(LEVEL)) mcp_logger_.FN(__VA_ARGS__); \
  } while (0)
#define MCP_LOG_DEBUG(...) MCP_LOG_AT_(::spdlog::level::debug, debug, __VA_ARGS__)
#define MCP_LOG_INFO(...) MCP_LOG_AT_(::spdlog::level::info, info, __VA_ARGS__)
#define MCP_LOG_WARN(...) MCP_LOG_AT_(::spdlog::level::warn, warn, __VA_ARGS__)
#define MCP_LOG_ERROR(...) MCP_LOG_AT_(::spdlog::level::err, error, __VA_ARGS__)
