// Input and output shared by the mcp-trust commands: reading files or stdin with a size limit,
// writing secret files with owner-only permissions, durations, error reporting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"

namespace mcp::cli {

// Default cap on any input: 64 MiB, far above any manifest or tool list.
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

// Reads the whole file at `path`, or stdin when `path` is "-". Fails on directories, unreadable
// files and inputs above `max_bytes`, with a message naming the path.
Result<std::string> read_input(const std::string& path, std::size_t max_bytes = kMaxInputBytes);

// Writes `data` to stdout exactly; false when the write failed (e.g. a closed pipe, a full disk).
bool write_stdout(std::string_view data);

// Creates `path` with mode 0600 and writes `data`. Refuses to replace an existing file unless
// `overwrite`, in which case the file is truncated and its mode reset to 0600.
Result<void> write_secret_file(const std::string& path, std::string_view data, bool overwrite);
// Creates or replaces `path` (mode 0644) with `data`.
Result<void> write_public_file(const std::string& path, std::string_view data);

// "30d", "12h", "90m", "45s", "500ms", "2w" -> milliseconds; nullopt unless a positive integer
// followed by one of those units, at most 2^53 - 1 ms.
std::optional<std::int64_t> parse_duration_ms(std::string_view text);

// "2025-06-15T15:06:40.000Z" for Unix ms, or the bare number when out of calendar range.
std::string format_time(std::int64_t unix_ms);

// Prints "mcp-trust <command>: <message>" to stderr.
void report(std::string_view command, std::string_view message);

// Who a decision made on the command line is recorded as: "cli:" and $USER ("unknown" without).
std::string cli_person();

}  // namespace mcp::cli
