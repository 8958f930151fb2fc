#include "mcp/protocol/sampling.hpp"

#include <array>
#include <utility>

#include "protocol/codec.hpp"
#include "protocol/sampling_content.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::to_json_array;
using detail::write_extra;

namespace {

constexpr std::array<std::string_view, 3> kToolChoiceModes = {"auto", "required", "none"};
constexpr std::array<std::string_view, 3> kIncludeContexts = {"none", "thisServer", "allServers"};

// Enumerators are declared in the order of their table, so the index is the value.
template <class E, std::size_t N>
std::optional<E> parse_enum(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<E>(i);
  return std::nullopt;
}

}  // namespace

std::string_view to_string(ToolChoiceMode m) { return kToolChoiceModes[static_cast<std::size_t>(m)]; }
std::optional<ToolChoiceMode> parse_tool_choice_mode(std::string_view s) {
  return parse_enum<ToolChoiceMode>(kToolChoiceModes, s);
}
std::string_view to_string(IncludeContext c) { return kIncludeContexts[static_cast<std::size_t>(c)]; }
std::optional<IncludeContext> parse_include_context(std::string_view s) {
  return parse_enum<IncludeContext>(kIncludeContexts, s);
}

json::value to_json(ToolChoiceMode m) { return json::string(to_string(m)); }
json::value to_json(IncludeContext c) { return json::string(to_string(c)); }

template <>
Result<ToolChoiceMode> from_json<ToolChoiceMode>(const json::value& v) {
  const auto* s = v.if_string();
  auto m = s ? parse_tool_choice_mode(*s) : std::nullopt;
  if (!m) return fail(Error::invalid_params("ToolChoiceMode: expected \"auto\", \"required\" or \"none\""));
  return *m;
}

template <>
Result<IncludeContext> from_json<IncludeContext>(const json::value& v) {
  const auto* s = v.if_string();
  auto c = s ? parse_include_context(*s) : std::nullopt;
  if (!c) return fail(Error::invalid_params("IncludeContext: expected \"none\", \"thisServer\" or \"allServers\""));
  return *c;
}

json::value to_json(const ModelHint& h) {
  json::object o;
  if (h.name) o["name"] = *h.name;
  write_extra(o, h.extra, std::nullopt);
  return o;
}

template <>
Result<ModelHint> from_json<ModelHint>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ModelHint"));
  MCP_TRY(name, r.opt_str("name"));
  return ModelHint{std::move(name), r.rest()};
}

json::value to_json(const ModelPreferences& p) {
  json::object o;
  if (!p.hints.empty()) o["hints"] = to_json_array(p.hints);
  if (p.cost_priority) o["costPriority"] = detail::number_to_json(*p.cost_priority);
  if (p.speed_priority) o["speedPriority"] = detail::number_to_json(*p.speed_priority);
  if (p.intelligence_priority) o["intelligencePriority"] = detail::number_to_json(*p.intelligence_priority);
  write_extra(o, p.extra, std::nullopt);
  return o;
}

template <>
Result<ModelPreferences> from_json<ModelPreferences>(const json::value& v) {
  constexpr std::string_view what = "ModelPreferences";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(hints, r.opt_list<ModelHint>("hints"));
  MCP_TRY(cost, detail::opt_unit_interval(r, what, "costPriority"));
  MCP_TRY(speed, detail::opt_unit_interval(r, what, "speedPriority"));
  MCP_TRY(intelligence, detail::opt_unit_interval(r, what, "intelligencePriority"));
  return ModelPreferences{std::move(hints), cost, speed, intelligence, r.rest()};
}

json::value to_json(const ToolChoice& c) {
  json::object o;
  if (c.mode) o["mode"] = to_json(*c.mode);
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<ToolChoice> from_json<ToolChoice>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ToolChoice"));
  MCP_TRY(mode, r.opt<ToolChoiceMode>("mode"));
  return ToolChoice{mode, r.rest()};
}

json::value to_json(const CreateMessageRequestParams& p) {
  json::object o;
  o["messages"] = to_json_array(p.messages);
  if (p.model_preferences) o["modelPreferences"] = to_json(*p.model_preferences);
  if (p.system_prompt) o["systemPrompt"] = *p.system_prompt;
  if (p.include_context) o["includeContext"] = to_json(*p.include_context);
  if (p.temperature) o["temperature"] = detail::number_to_json(*p.temperature);
  o["maxTokens"] = p.max_tokens;
  if (!p.stop_sequences.empty()) o["stopSequences"] = to_json_array(p.stop_sequences);
  if (p.metadata) o["metadata"] = *p.metadata;
  if (!p.tools.empty()) o["tools"] = to_json_array(p.tools);
  if (p.tool_choice) o["toolChoice"] = to_json(*p.tool_choice);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<CreateMessageRequestParams> from_json<CreateMessageRequestParams>(const json::value& v) {
  constexpr std::string_view what = "CreateMessageRequestParams";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(messages, r.list<SamplingMessage>("messages"));
  MCP_TRY(prefs, r.opt<ModelPreferences>("modelPreferences"));
  MCP_TRY(system_prompt, r.opt_str("systemPrompt"));
  MCP_TRY(include_context, r.opt<IncludeContext>("includeContext"));
  MCP_TRY(temperature, r.opt_number("temperature"));
  MCP_TRY(max_tokens, r.opt_int("maxTokens"));
  if (!max_tokens) return fail(detail::field_error(what, "maxTokens", "required field is missing"));
  MCP_TRY(stop_sequences, detail::opt_strings(r, what, "stopSequences"));
  MCP_TRY(metadata, r.opt_object("metadata"));
  MCP_TRY(tools, r.opt_list<Tool>("tools"));
  MCP_TRY(tool_choice, r.opt<ToolChoice>("toolChoice"));
  MCP_TRY(meta, detail::request_meta(r, what));
  CreateMessageRequestParams p;
  p.messages = std::move(messages);
  p.model_preferences = std::move(prefs);
  p.system_prompt = std::move(system_prompt);
  p.include_context = include_context;
  p.temperature = temperature;
  p.max_tokens = *max_tokens;
  p.stop_sequences = std::move(stop_sequences);
  p.metadata = std::move(metadata);
  p.tools = std::move(tools);
  p.tool_choice = std::move(tool_choice);
  p.meta = std::move(meta);
  p.extra = r.rest();
  return p;
}

json::value to_json(const CreateMessageResult& res) {
  json::object o;
  o["role"] = to_json(res.role);
  o["content"] = detail::sampling_content_to_json(res.content, res.content_as_array);
  o["model"] = res.model;
  if (res.stop_reason) o["stopReason"] = *res.stop_reason;
  write_extra(o, res.extra, res.meta);
  return o;
}

template <>
Result<CreateMessageResult> from_json<CreateMessageResult>(const json::value& v) {
  constexpr std::string_view what = "CreateMessageResult";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(role, r.req<Role>("role"));
  auto raw = r.opt_value("content");
  if (!raw) return fail(detail::field_error(what, "content", "required field is missing"));
  MCP_TRY(content, detail::sampling_content_from_json(*raw, what));
  MCP_TRY(model, r.str("model"));
  MCP_TRY(stop_reason, r.opt_str("stopReason"));
  MCP_TRY(meta, r.meta());
  CreateMessageResult res;
  res.role = role;
  res.content = std::move(content.first);
  res.content_as_array = content.second;
  res.model = std::move(model);
  res.stop_reason = std::move(stop_reason);
  res.meta = std::move(meta);
  res.extra = r.rest();
  return res;
}

}  // namespace mcp
