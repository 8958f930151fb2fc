// Private: the SDK's logger (spdlog, to stderr). Use MCP_LOG_xxx(fmt, args...).
#pragma once

#include <spdlog/spdlog.h>

namespace mcp::detail {
spdlog::logger& logger();
}  // namespace mcp::detail

#define MCP_LOG_DEBUG(...) ::mcp::detail::logger().debug(__VA_ARGS__)
#define MCP_LOG_INFO(...) ::mcp::detail::logger().info(__VA_ARGS__)
#define MCP_LOG_WARN(...) ::mcp::detail::logger().warn(__VA_ARGS__)
#define MCP_LOG_ERROR(...) ::mcp::detail::logger().error(__VA_ARGS__)
