// Private to the gateway: what the audit log keeps of one forwarded call, and its canonical text.
//
// Every call through the gateway is recorded before it is answered, so this is on every call's
// path. The record's body is written as RFC 8785 text straight from its fields (their names are
// fixed, so their order is known), not built as a JSON object and canonicalized: the same bytes,
// without a DOM's allocations. Tested against trust::canonicalize of the same members.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"

namespace mcp::gateway {

struct CallRecord {
  std::string_view server;     // the upstream's name
  std::string_view method;     // tools/call, prompts/get, resources/read
  std::string_view item;       // the tool's or prompt's name, or the resource's URI (peer text, bounded)
  std::string_view arguments;  // the arguments' digest ("sha256:...")
  std::string_view client;     // the client's session, as known
  std::string_view client_info;  // its name and version as it gave them ("name/version"; empty: none)
  std::int64_t latency_us = 0;
  std::string_view outcome;               // "ok", "tool-error", "error", "refused"
  std::optional<std::string_view> error;  // the error's message (peer text, bounded)
};

// What a record keeps of a call's arguments, from their RFC 8785 text (trust::canonicalize): its
// SHA-256 tag, or, for arguments JCS has no form for, a marker saying so (the call is still
// recorded).
std::string arguments_digest(const Result<std::string>& canonical);

// The record's body as its RFC 8785 text: {"arguments","client","clientInfo"?,"error"?,"item",
// "latencyUs","method","outcome","server"}. An error if a string is not valid UTF-8 (JCS has no form for it).
[[nodiscard]] Result<std::string> call_record_text(const CallRecord& r);

}  // namespace mcp::gateway
