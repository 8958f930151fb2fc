// mcp/log.hpp — the SDK's own diagnostics. They always go to stderr: on stdio, stdout is the protocol.
#pragma once

#include <string_view>

namespace mcp {

// "trace", "debug", "info", "warn", "error", "off". Default "warn"; the MCP_LOG environment variable
// sets it at start-up. Unknown names leave the level unchanged and return false.
bool set_log_level(std::string_view level);

// "text" (the default: "[12:00:00.000] [mcp] [warn] message") or "json": one JSON object per line,
// {"time": RFC 3339 UTC with milliseconds, "level", "logger", "msg"}, for log shippers; every
// character of the message is escaped, so a peer's text can never break a line or forge a field.
// The MCP_LOG_FORMAT environment variable sets it at start-up. Unknown names return false.
bool set_log_format(std::string_view format);

// Writes `line`, which `source` (a child process, say) printed, to the SDK's log at info level but
// regardless of the level set: as "[source] line" in text format, with "source" as a field in json.
void log_passthrough(std::string_view source, std::string_view line);

}  // namespace mcp
