// mcp/protocol/methods.hpp — every method name of MCP 2025-11-25 and those 2026-07-28 adds, and the
// protocol versions this SDK speaks. The schema-drift test checks this list against the schema's method constants.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace mcp {

namespace method {
// Lifecycle and utilities.
inline constexpr std::string_view kInitialize = "initialize";
inline constexpr std::string_view kPing = "ping";
inline constexpr std::string_view kInitialized = "notifications/initialized";
inline constexpr std::string_view kCancelled = "notifications/cancelled";
inline constexpr std::string_view kProgress = "notifications/progress";
// Server features.
inline constexpr std::string_view kResourcesList = "resources/list";
inline constexpr std::string_view kResourcesTemplatesList = "resources/templates/list";
inline constexpr std::string_view kResourcesRead = "resources/read";
inline constexpr std::string_view kResourcesSubscribe = "resources/subscribe";
inline constexpr std::string_view kResourcesUnsubscribe = "resources/unsubscribe";
inline constexpr std::string_view kResourcesListChanged = "notifications/resources/list_changed";
inline constexpr std::string_view kResourcesUpdated = "notifications/resources/updated";
inline constexpr std::string_view kPromptsList = "prompts/list";
inline constexpr std::string_view kPromptsGet = "prompts/get";
inline constexpr std::string_view kPromptsListChanged = "notifications/prompts/list_changed";
inline constexpr std::string_view kToolsList = "tools/list";
inline constexpr std::string_view kToolsCall = "tools/call";
inline constexpr std::string_view kToolsListChanged = "notifications/tools/list_changed";
inline constexpr std::string_view kLoggingSetLevel = "logging/setLevel";
inline constexpr std::string_view kLoggingMessage = "notifications/message";
inline constexpr std::string_view kCompletionComplete = "completion/complete";
// Client features.
inline constexpr std::string_view kSamplingCreateMessage = "sampling/createMessage";
inline constexpr std::string_view kElicitationCreate = "elicitation/create";
inline constexpr std::string_view kElicitationComplete = "notifications/elicitation/complete";
inline constexpr std::string_view kRootsList = "roots/list";
inline constexpr std::string_view kRootsListChanged = "notifications/roots/list_changed";
// Tasks (experimental in 2025-11-25; named so that they can be recognised and refused).
inline constexpr std::string_view kTasksGet = "tasks/get";
inline constexpr std::string_view kTasksResult = "tasks/result";
inline constexpr std::string_view kTasksCancel = "tasks/cancel";
inline constexpr std::string_view kTasksList = "tasks/list";
inline constexpr std::string_view kTasksStatus = "notifications/tasks/status";

inline constexpr std::array kAll = {
    kInitialize, kPing, kInitialized, kCancelled, kProgress, kResourcesList,
    kResourcesTemplatesList, kResourcesRead, kResourcesSubscribe, kResourcesUnsubscribe,
    kResourcesListChanged, kResourcesUpdated, kPromptsList, kPromptsGet, kPromptsListChanged,
    kToolsList, kToolsCall, kToolsListChanged, kLoggingSetLevel, kLoggingMessage,
    kCompletionComplete, kSamplingCreateMessage, kElicitationCreate, kElicitationComplete,
    kRootsList, kRootsListChanged, kTasksGet, kTasksResult, kTasksCancel, kTasksList, kTasksStatus,
};

// Extensions this SDK implements; not in the schema, so not in kAll. Signed tool manifests.
inline constexpr std::string_view kToolsManifest = "tools/manifest";
// SEP-2093 (a draft): a resource's metadata without its content.
inline constexpr std::string_view kResourcesMetadata = "resources/metadata";

// The param naming the item a request is about (what 2026-07-28's Mcp-Name header mirrors): "name"
// for tools/call and prompts/get, "uri" for resources/read; empty for any other method.
constexpr std::string_view item_param(std::string_view m) {
  if (m == kToolsCall || m == kPromptsGet) return "name";
  if (m == kResourcesRead) return "uri";
  return {};
}

// MCP 2026-07-28 (stateless): methods it adds. Not in kAll, which is the 2025-11-25 schema's list.
inline constexpr std::string_view kServerDiscover = "server/discover";
inline constexpr std::string_view kSubscriptionsListen = "subscriptions/listen";
inline constexpr std::string_view kSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged";

// Notifications are exactly the methods under "notifications/".
constexpr bool is_notification(std::string_view m) { return m.starts_with("notifications/"); }
}  // namespace method

// The handshake revisions, newest first; a server answers an unsupported requested version in
// initialize with kLatestProtocolVersion.
inline constexpr std::array<std::string_view, 3> kSupportedProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                              "2025-03-26"};
inline constexpr std::string_view kLatestProtocolVersion = kSupportedProtocolVersions.front();

// The stateless revisions (no handshake: each request names its version in _meta), newest first.
inline constexpr std::array<std::string_view, 1> kStatelessProtocolVersions = {"2026-07-28"};

constexpr bool is_stateless_protocol_version(std::string_view v) {
  return std::find(kStatelessProtocolVersions.begin(), kStatelessProtocolVersions.end(), v) !=
         kStatelessProtocolVersions.end();
}

constexpr bool is_supported_protocol_version(std::string_view v) {
  return std::find(kSupportedProtocolVersions.begin(), kSupportedProtocolVersions.end(), v) !=
         kSupportedProtocolVersions.end();
}

}  // namespace mcp
