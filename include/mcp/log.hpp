// mcp/log.hpp — the SDK's own diagnostics. They always go to stderr: on stdio, stdout is the protocol.
#pragma once

#include <string_view>

namespace mcp {

// "trace", "debug", "info", "warn", "error", "off". Default "warn"; the MCP_LOG environment variable
// sets it at start-up. Unknown names leave the level unchanged and return false.
bool set_log_level(std::string_view level);

}  // namespace mcp
