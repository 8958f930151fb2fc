// What the commands that talk to a server share (client, scan): the trailing grammar after `--`,
// starting the server as a child over stdio, and readable JSON output.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/error.hpp"
#include "mcp/json.hpp"

namespace mcp::cli {

// `mcp-trust client ... -- COMMAND ARGS... ACTION`: the action is the last tokens that form one.
struct ClientAction {
  enum class Kind { tools, call, watch, tree, meta } kind = Kind::tools;
  std::string tool;                    // call
  json::object arguments;              // call
  std::chrono::milliseconds duration{0};  // watch
  std::string uri;                     // tree (empty: the server's own list), meta
  std::size_t depth = 3;               // tree --depth
};

// Splits `tokens` (everything after the options) into the server command and the action. Usage
// errors come back as messages. `allow_empty_command` when the server is named otherwise (--url).
struct ClientInvocation {
  std::vector<std::string> command;
  ClientAction action;
};
Result<ClientInvocation> parse_client_tokens(const std::vector<std::string>& tokens, bool allow_empty_command);

// `mcp-trust scan -- COMMAND ARGS... --out FILE`: takes a trailing "--out FILE" off `tokens`.
std::optional<std::string> take_trailing_out(std::vector<std::string>& tokens);

// Starts `command` as a child and connects `client` to it over stdio. The child's stderr is copied
// to ours, prefixed with its program name.
Result<InitializeResult> connect_child(Client& client, const std::vector<std::string>& command);

// Connects `client` to a Streamable HTTP endpoint.
Result<InitializeResult> connect_url(Client& client, const std::string& url);

// The SDK logs to stderr; the commands report for themselves. Silences it unless MCP_LOG is set.
void quiet_sdk_logs();

// JSON for people: members in canonical (RFC 8785) order, two-space indentation.
std::string pretty_json(const json::value& v);

// "read-only", "destructive", "idempotent", "closed-world" etc. of a tool's listed annotations.
std::string describe_hints(const std::optional<ToolAnnotations>& annotations);

}  // namespace mcp::cli
