// mcp/protocol/stateless.hpp — what MCP 2026-07-28 adds to every message (basic/index.mdx "_meta",
// "ResultType"; server/discover.mdx; server/utilities/caching.mdx): the per-request fields a
// request carries in `_meta` instead of an initialize handshake, the fields every result carries,
// and server/discover's result. docs/protocol-2026-07-28.md has the references.
//
// Conventions: mcp/protocol/wire.hpp. The `_meta` keys are not member names, so RequestMeta is read
// by hand (read_request_meta), with the same errors as the codec.
#pragma once

#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/logging.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// The reserved `_meta` keys of 2026-07-28.
namespace meta_key {
inline constexpr std::string_view kProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view kServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view kSubscriptionId = "io.modelcontextprotocol/subscriptionId";
}  // namespace meta_key

// What one stateless request says about its client: nothing carries over from another request.
struct RequestMeta {
  std::string protocol_version{};
  json::object client_capabilities{};      // the ClientCapabilities object as sent
  std::optional<json::object> client_info{};  // an Implementation, for display only
  std::optional<LoggingLevel> log_level{};    // notifications/message for this request only, at or above it
};

// Whether a request's params are stateless: their `_meta` names a protocol version. A request
// without it is a 2025-11-25 request (it belongs to an initialized session).
bool is_stateless_request(const json::object& params);

// The per-request fields of a stateless request's params. Errors: -32602 naming the key when a
// required one is missing or any is malformed (the protocol version's *value* is not judged here).
[[nodiscard]] Result<RequestMeta> read_request_meta(const json::object& params);

// The same fields, checked the same way, as views into `params` (valid while they are unchanged):
// for a reader that keeps what it read only when it differs from what it has (a server's sessions
// compare each request's envelope with the previous one's instead of copying it every time).
struct RequestMetaView {
  std::string_view protocol_version{};
  const json::object* client_capabilities = nullptr;  // never null in a checked view
  const json::object* client_info = nullptr;          // null: not sent
  std::optional<LoggingLevel> log_level{};
};
[[nodiscard]] Result<RequestMetaView> check_request_meta(const json::object& params);

// `resultType` (required on every 2026-07-28 result): "complete", or "input_required" for a
// request the server needs more input for (multi round-trip).
inline constexpr std::string_view kResultComplete = "complete";
inline constexpr std::string_view kResultInputRequired = "input_required";

// Caching hints of a cacheable result (server/utilities/caching.mdx): how long it stays fresh, and
// whether a cache may share it across authorization contexts.
enum class CacheScope { public_, private_ };
MCP_WIRE_ENUM(CacheScope, parse_cache_scope)

struct DiscoverResult {
  std::string result_type{kResultComplete};
  std::vector<std::string> supported_versions{};
  ServerCapabilities capabilities{};
  std::optional<std::string> instructions{};
  std::int64_t ttl_ms = 0;
  CacheScope cache_scope = CacheScope::private_;
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(DiscoverResult, result_type, supported_versions, capabilities, instructions, ttl_ms, cache_scope, meta,
              extra)

// subscriptions/listen (basic/patterns/subscriptions.mdx): the notifications a client opts in to on
// one long-lived request. Each type is opt-in; absent or false is not wanted.
struct SubscriptionFilter {
  std::optional<bool> tools_list_changed{};
  std::optional<bool> prompts_list_changed{};
  std::optional<bool> resources_list_changed{};
  OptionalArray<std::string> resource_subscriptions{};  // notifications/resources/updated for these URIs
  json::object extra{};
};
MCP_WIRE_TYPE(SubscriptionFilter, tools_list_changed, prompts_list_changed, resources_list_changed,
              resource_subscriptions, extra)

struct SubscriptionsListenRequestParams {
  SubscriptionFilter notifications{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(SubscriptionsListenRequestParams, notifications, meta, extra)

}  // namespace mcp
