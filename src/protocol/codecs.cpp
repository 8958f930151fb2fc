// The to_json/from_json of every protocol type (mcp/protocol/wire.hpp), header by header, and the
// schema's rules beyond shapes: a type's wire_check comes before its codec, so that decode<T> sees it.
#include "mcp/protocol/all.hpp"
#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

namespace {

using wire::field_error;

// Priorities lie in [0, 1].
Result<void> check_unit_interval(std::string_view what, std::string_view key, const std::optional<double>& v) {
  if (v && !(*v >= 0.0 && *v <= 1.0)) return fail(field_error(what, key, "expected a number between 0 and 1"));
  return {};
}

// Sizes are byte counts.
Result<void> check_non_negative(std::string_view what, std::string_view key, const std::optional<std::int64_t>& v) {
  if (v && *v < 0) return fail(field_error(what, key, "expected a non-negative integer"));
  return {};
}

// A capability set's "experimental" maps names to objects.
Result<void> check_experimental(std::string_view what, const std::optional<json::object>& exp) {
  if (exp)
    for (const auto& kv : *exp)
      if (!kv.value().is_object())
        return fail(field_error(what, "experimental." + peer_text(kv.key()), "expected an object"));
  return {};
}

// The "type"s of the schema's PrimitiveSchemaDefinition alternatives: clients can only render flat
// forms of primitive fields.
constexpr std::string_view kPrimitiveTypes[] = {"string", "number", "integer", "boolean", "array"};

// An accepted form value: string | number | boolean | string[].
bool is_form_value(const json::value& v) {
  if (v.is_string() || v.is_number() || v.is_bool()) return true;
  const auto* a = v.if_array();
  if (!a) return false;
  for (const auto& e : *a)
    if (!e.is_string()) return false;
  return true;
}

}  // namespace

MCP_WIRE_ENUM_CODEC(Role, parse_role, "user", "assistant")
Result<void> wire_check(const Annotations& a) { return check_unit_interval("Annotations", "priority", a.priority); }
MCP_WIRE_CODECS(Annotations)

MCP_WIRE_CODECS(RequestParams, NotificationParams, EmptyResult)

Result<void> wire_check(const ClientCapabilities& c) {
  return check_experimental("ClientCapabilities", c.experimental);
}
Result<void> wire_check(const ServerCapabilities& c) {
  return check_experimental("ServerCapabilities", c.experimental);
}
MCP_WIRE_CODECS(ListChangedCapability, ResourcesCapability, SamplingCapability, ElicitationCapability,
                ClientCapabilities, ServerCapabilities)

MCP_WIRE_CODECS(PromptReference, ResourceTemplateReference, CompletionArgument, CompletionContext,
                CompleteRequestParams, Completion, CompleteResult)
MCP_WIRE_UNION_CODEC(CompletionReference, "reference type")

Result<void> wire_check(const ResourceLink& r) { return check_non_negative("ResourceLink", "size", r.size); }
// The old form (2025-11-25) of an embedded resource's annotations, beside the resource instead of in
// it (SEP-2093): moved in, unless the resource has its own, which win.
Result<void> wire_check(EmbeddedResource& e) {
  auto it = e.extra.find("annotations");
  if (it == e.extra.end()) return {};
  auto old = from_json<Annotations>(it->value());
  if (!old) return fail(Error::invalid_params("EmbeddedResource.annotations: " + old.error().message));
  std::visit([&](auto& contents) {
    if (!contents.annotations) contents.annotations = std::move(*old);
  }, e.resource);
  e.extra.erase(it);
  return {};
}
MCP_WIRE_CODECS(TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)
MCP_WIRE_UNION_CODEC(ContentBlock, "content type")
std::string_view content_type(const ContentBlock& c) { return wire::tag_of(c); }

Result<void> wire_check(const RequestedSchema& s) {
  constexpr std::string_view what = "RequestedSchema";
  for (const auto& p : s.properties) {
    const std::string key = "properties." + peer_text(p.key());
    const auto* def = p.value().if_object();
    if (!def) return fail(field_error(what, key, "expected an object"));
    const auto* t = def->if_contains("type");
    if (!t || !t->is_string() || !wire::find_name(kPrimitiveTypes, t->get_string()))
      return fail(wire::enum_error(std::string(what) + "." + key + ".type", kPrimitiveTypes));
  }
  if (const auto* d = s.extra.if_contains("$schema"); d && !d->is_string() && !d->is_null())
    return fail(field_error(what, "$schema", "expected a string"));
  return {};
}

// The JSON Schema says integer where the TypeScript source says number; a form's number field
// legitimately answers 2.5, so any number is accepted.
Result<void> wire_check(const ElicitResult& r) {
  if (r.content)
    for (const auto& kv : *r.content)
      if (!is_form_value(kv.value()))
        return fail(field_error("ElicitResult", "content." + peer_text(kv.key()),
                                "expected a string, a number, a boolean or an array of strings"));
  return {};
}

MCP_WIRE_CODECS(RequestedSchema, ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult,
                ElicitationCompleteNotificationParams)
MCP_WIRE_UNION_CODEC(ElicitRequestParams, "elicitation mode")
MCP_WIRE_ENUM_CODEC(ElicitAction, parse_elicit_action, "accept", "decline", "cancel")

MCP_WIRE_CODECS(Icon, Implementation, InitializeRequestParams, InitializeResult)

MCP_WIRE_ENUM_CODEC(LoggingLevel, parse_logging_level, "debug", "info", "notice", "warning", "error", "critical",
                    "alert", "emergency")
MCP_WIRE_CODECS(SetLevelRequestParams, LoggingMessageNotificationParams)

Result<void> wire_check(const ProgressNotificationParams& p) {
  if (!is_string_or_integer(p.progress_token))
    return fail(field_error("ProgressNotificationParams", "progressToken", "expected a string or an integer"));
  return {};
}

Result<void> wire_check(const CancelledNotificationParams& p) {
  if (p.request_id && !is_string_or_integer(*p.request_id))
    return fail(field_error("CancelledNotificationParams", "requestId", "expected a string or an integer"));
  return {};
}

MCP_WIRE_CODECS(ProgressNotificationParams, CancelledNotificationParams, PaginatedRequestParams)

MCP_WIRE_CODECS(PromptArgument, Prompt, PromptMessage, GetPromptRequestParams, GetPromptResult, ListPromptsResult)

Result<void> wire_check(const Resource& r) { return check_non_negative("Resource", "size", r.size); }
MCP_WIRE_CODECS(ResourceCapabilities, ListResourcesRequestParams, Resource, ResourceTemplate, ListResourcesResult, ListResourceTemplatesResult,
                ResourceRequestParams, ReadResourceResult, ResourceUpdatedNotificationParams, ResourceMetadataResult)

Result<void> wire_check(const TextResourceContents& c) { return check_non_negative("TextResourceContents", "size", c.size); }
Result<void> wire_check(const BlobResourceContents& c) { return check_non_negative("BlobResourceContents", "size", c.size); }
MCP_WIRE_CODECS(TextResourceContents, BlobResourceContents)
json::value to_json(const ResourceContents& c) { return wire::encode_value(c); }

// Told apart by its fields rather than a tag.
template <>
Result<ResourceContents> from_json<ResourceContents>(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return fail(Error::invalid_params("ResourceContents: expected an object"));
  if (o->contains("text") == o->contains("blob"))
    return fail(Error::invalid_params("ResourceContents: expected exactly one of \"text\" and \"blob\""));
  if (o->contains("text")) return from_json<TextResourceContents>(v);
  return from_json<BlobResourceContents>(v);
}

MCP_WIRE_CODECS(Root, ListRootsResult)

Result<void> wire_check(const ModelPreferences& p) {
  constexpr std::string_view what = "ModelPreferences";
  if (auto r = check_unit_interval(what, "costPriority", p.cost_priority); !r) return r;
  if (auto r = check_unit_interval(what, "speedPriority", p.speed_priority); !r) return r;
  return check_unit_interval(what, "intelligencePriority", p.intelligence_priority);
}

MCP_WIRE_CODECS(ModelHint, ModelPreferences, ToolChoice, CreateMessageRequestParams, CreateMessageResult)
MCP_WIRE_ENUM_CODEC(ToolChoiceMode, parse_tool_choice_mode, "auto", "required", "none")
MCP_WIRE_ENUM_CODEC(IncludeContext, parse_include_context, "none", "thisServer", "allServers")

Result<void> wire_check(const SamplingMessage& m) {
  std::size_t results = 0;
  for (const auto& b : m.content) results += std::holds_alternative<ToolResultContent>(b);
  if (results != 0 && results != m.content.size())
    return fail(field_error("SamplingMessage", "content", "tool_result blocks cannot be mixed with other content"));
  return {};
}

MCP_WIRE_CODECS(ToolUseContent, ToolResultContent, SamplingMessage)
MCP_WIRE_UNION_CODEC(SamplingMessageContentBlock, "sampling content type")
std::string_view content_type(const SamplingMessageContentBlock& c) { return wire::tag_of(c); }

MCP_WIRE_CODECS(ToolAnnotations, ToolExecution, Tool, ListToolsResult, CallToolRequestParams, CallToolResult)

MCP_WIRE_ENUM_CODEC(CacheScope, parse_cache_scope, "public", "private")
Result<void> wire_check(const DiscoverResult& r) {
  return r.ttl_ms < 0 ? fail(field_error("DiscoverResult", "ttlMs", "must not be negative")) : Result<void>{};
}
MCP_WIRE_CODECS(DiscoverResult, SubscriptionFilter, SubscriptionsListenRequestParams, InputRequest)

}  // namespace mcp
