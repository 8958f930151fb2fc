// mcp/protocol/capabilities.hpp — what each side supports, exchanged in initialize (schema
// 2025-11-25: "ClientCapabilities", "ServerCapabilities"). Conventions: mcp/protocol/wire.hpp.
//
// Capability sets are open: a capability this SDK does not model ("tasks", later revisions'
// "extensions", the trust extensions' "signature" or "io.modelcontextprotocol/signed-manifests")
// stays in `extra` untouched, and so do unknown keys inside the modelled sub-objects.
// Sub-capabilities the schema leaves as open objects are kept as json::object: present means
// supported.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// roots, prompts and tools: `{ "listChanged"?: boolean }`.
struct ListChangedCapability {
  std::optional<bool> list_changed{};  // will send notifications/*/list_changed
  json::object extra{};
};
MCP_WIRE_TYPE(ListChangedCapability, list_changed, extra)

struct ResourcesCapability {
  std::optional<bool> subscribe{};  // resources/subscribe is supported
  std::optional<bool> list_changed{};
  json::object extra{};
};
MCP_WIRE_TYPE(ResourcesCapability, subscribe, list_changed, extra)

struct SamplingCapability {
  std::optional<json::object> context{};  // includeContext other than "none" is supported
  std::optional<json::object> tools{};    // tools / toolChoice in sampling requests are supported
  json::object extra{};
};
MCP_WIRE_TYPE(SamplingCapability, context, tools, extra)

struct ElicitationCapability {
  std::optional<json::object> form{};
  std::optional<json::object> url{};
  json::object extra{};

  // Declaring neither mode means form mode only, for compatibility with 2025-06-18 clients.
  bool supports_form() const { return form.has_value() || !url.has_value(); }
  bool supports_url() const { return url.has_value(); }
};
MCP_WIRE_TYPE(ElicitationCapability, form, url, extra)

struct ClientCapabilities {
  std::optional<json::object> experimental{};  // name -> object
  std::optional<ListChangedCapability> roots{};
  std::optional<SamplingCapability> sampling{};
  std::optional<ElicitationCapability> elicitation{};
  json::object extra{};
};
MCP_WIRE_TYPE(ClientCapabilities, experimental, roots, sampling, elicitation, extra)

struct ServerCapabilities {
  std::optional<json::object> experimental{};  // name -> object
  std::optional<json::object> logging{};
  std::optional<json::object> completions{};
  std::optional<ListChangedCapability> prompts{};
  std::optional<ResourcesCapability> resources{};
  std::optional<ListChangedCapability> tools{};
  json::object extra{};
};
MCP_WIRE_TYPE(ServerCapabilities, experimental, logging, completions, prompts, resources, tools, extra)

// Per-request capability requirements (docs/wire/per-request-capabilities.md), vendor _meta keys
// (io.modelcontextprotocol/ is reserved for the specification): what an item needs of the client
// that uses it, and what a list request's client will declare on the requests that follow.
inline constexpr std::string_view kRequiredCapabilitiesKey = "dev.mcp-trust/requiredCapabilities";
inline constexpr std::string_view kRelatedRequestCapabilitiesKey = "dev.mcp-trust/relatedRequestCapabilities";

// Whether a capabilities object (as sent on the wire) declares `path`: "tools", "resources.subscribe",
// "sampling.tools". Extension keys that contain dots ("io.modelcontextprotocol/signed-manifests")
// match whole. Null and `false` values do not count as declared.
bool declares_capability(const json::object& capabilities, std::string_view path);

// What of `required` (a ClientCapabilities object an item needs) `declared` (one request's) lacks,
// as an object of the same shape: {} when nothing is missing. Two levels, a capability and its
// sub-capabilities ({"sampling": {"tools": {}}} needs sampling.tools, not only sampling), which is
// as deep as client capabilities go; a sub-capability set to false is not declared.
json::object missing_capabilities(const json::object& required, const json::object& declared);
// `a` with what `b` declares added (the same two levels): a list request's own capabilities and
// those it says its related requests will declare.
json::object merge_capabilities(json::object a, const json::object& b);
// The value at `path` (same lookup), or null if absent.
const json::value* find_capability(const json::object& capabilities, std::string_view path);

}  // namespace mcp
