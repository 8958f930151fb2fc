#include "mcp/protocol/sampling_message.hpp"

#include <set>

#include "protocol/codec.hpp"
#include "protocol/sampling_content.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::to_json_array;
using detail::write_extra;

json::value to_json(const ToolUseContent& t) {
  json::object o;
  o["type"] = "tool_use";
  o["id"] = t.id;
  o["name"] = t.name;
  o["input"] = t.input;
  write_extra(o, t.extra, t.meta);
  return o;
}

template <>
Result<ToolUseContent> from_json<ToolUseContent>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ToolUseContent"));
  MCP_CHECK(detail::expect_type(r, "ToolUseContent", "tool_use"));
  MCP_TRY(id, r.str("id"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(input, r.object("input"));
  MCP_TRY(meta, r.meta());
  return ToolUseContent{std::move(id), std::move(name), std::move(input), std::move(meta), r.rest()};
}

json::value to_json(const ToolResultContent& t) {
  json::object o;
  o["type"] = "tool_result";
  o["toolUseId"] = t.tool_use_id;
  o["content"] = to_json_array(t.content);
  if (t.structured_content) o["structuredContent"] = *t.structured_content;
  if (t.is_error) o["isError"] = *t.is_error;
  write_extra(o, t.extra, t.meta);
  return o;
}

template <>
Result<ToolResultContent> from_json<ToolResultContent>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ToolResultContent"));
  MCP_CHECK(detail::expect_type(r, "ToolResultContent", "tool_result"));
  MCP_TRY(id, r.str("toolUseId"));
  MCP_TRY(content, r.list<ContentBlock>("content"));
  MCP_TRY(structured, r.opt_object("structuredContent"));
  MCP_TRY(is_error, r.opt_bool("isError"));
  MCP_TRY(meta, r.meta());
  return ToolResultContent{std::move(id), std::move(content), std::move(structured),
                           is_error,      std::move(meta),    r.rest()};
}

std::string_view content_type(const SamplingMessageContentBlock& c) {
  static constexpr std::string_view kTypes[] = {"text", "image", "audio", "tool_use", "tool_result"};
  return kTypes[c.index()];
}

json::value to_json(const SamplingMessageContentBlock& c) {
  return std::visit([](const auto& alt) { return to_json(alt); }, c);
}

template <>
Result<SamplingMessageContentBlock> from_json<SamplingMessageContentBlock>(const json::value& v) {
  if (!v.is_object()) return fail(Error::invalid_params("SamplingMessageContentBlock: expected an object"));
  const json::string* type = detail::type_tag(v);
  if (!type) return fail(Error::invalid_params("SamplingMessageContentBlock.type: expected a string"));
  auto as_block = [](auto r) -> Result<SamplingMessageContentBlock> {
    if (!r) return fail(std::move(r.error()));
    return SamplingMessageContentBlock(std::move(*r));
  };
  if (*type == "text") return as_block(from_json<TextContent>(v));
  if (*type == "image") return as_block(from_json<ImageContent>(v));
  if (*type == "audio") return as_block(from_json<AudioContent>(v));
  if (*type == "tool_use") return as_block(from_json<ToolUseContent>(v));
  if (*type == "tool_result") return as_block(from_json<ToolResultContent>(v));
  return fail(Error::invalid_params("SamplingMessageContentBlock.type: content type \"" + peer_text(*type) +
                                    "\" is not allowed in sampling"));
}

namespace detail {

json::value sampling_content_to_json(const std::vector<SamplingMessageContentBlock>& content, bool as_array) {
  if (content.size() == 1 && !as_array) return to_json(content.front());
  return to_json_array(content);
}

Result<std::pair<std::vector<SamplingMessageContentBlock>, bool>> sampling_content_from_json(const json::value& v,
                                                                                             std::string_view what) {
  std::vector<SamplingMessageContentBlock> out;
  if (const auto* arr = v.if_array()) {
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
      auto block = from_json<SamplingMessageContentBlock>((*arr)[i]);
      if (!block) {
        Error e = block.error();
        e.message = std::string(what) + ".content[" + std::to_string(i) + "] -> " + e.message;
        return fail(std::move(e));
      }
      out.push_back(std::move(*block));
    }
    return std::pair{std::move(out), true};
  }
  auto block = from_json<SamplingMessageContentBlock>(v);
  if (!block) {
    Error e = block.error();
    e.message = std::string(what) + ".content -> " + e.message;
    return fail(std::move(e));
  }
  out.push_back(std::move(*block));
  return std::pair{std::move(out), false};
}

}  // namespace detail

json::value to_json(const SamplingMessage& m) {
  json::object o;
  o["role"] = to_json(m.role);
  o["content"] = detail::sampling_content_to_json(m.content, m.content_as_array);
  write_extra(o, m.extra, m.meta);
  return o;
}

template <>
Result<SamplingMessage> from_json<SamplingMessage>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "SamplingMessage"));
  MCP_TRY(role, r.req<Role>("role"));
  auto raw = r.opt_value("content");
  if (!raw) return fail(detail::field_error("SamplingMessage", "content", "required field is missing"));
  MCP_TRY(content, detail::sampling_content_from_json(*raw, "SamplingMessage"));
  MCP_TRY(meta, r.meta());
  std::size_t results = 0;
  for (const auto& b : content.first) results += std::holds_alternative<ToolResultContent>(b);
  if (results != 0 && results != content.first.size())
    return fail(
        detail::field_error("SamplingMessage", "content", "tool_result blocks cannot be mixed with other content"));
  return SamplingMessage{role, std::move(content.first), content.second, std::move(meta), r.rest()};
}

Result<void> check_tool_use_pairing(const std::vector<SamplingMessage>& messages) {
  auto error = [](std::size_t i, const std::string& problem) {
    return fail(Error::invalid_params("messages[" + std::to_string(i) + "]: " + problem));
  };
  std::set<std::string> open_uses;  // ids the previous message asked for and not yet answered
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& m = messages[i];
    std::set<std::string> uses;
    std::set<std::string> results;
    for (const auto& b : m.content) {
      if (const auto* u = std::get_if<ToolUseContent>(&b)) {
        if (!uses.insert(u->id).second) return error(i, "duplicate tool use id \"" + u->id + "\"");
      } else if (const auto* t = std::get_if<ToolResultContent>(&b)) {
        if (!results.insert(t->tool_use_id).second)
          return error(i, "duplicate tool result for \"" + t->tool_use_id + "\"");
      }
    }
    if (!uses.empty() && m.role != Role::assistant) return error(i, "tool uses must come from the assistant");
    if (!open_uses.empty()) {
      if (m.role != Role::user || results.size() != m.content.size())
        return error(i, "expected a user message of tool results answering the previous tool uses");
    }
    if (results != open_uses) {
      for (const auto& id : open_uses)
        if (!results.contains(id)) return error(i, "no tool result for tool use \"" + id + "\"");
      for (const auto& id : results)
        if (!open_uses.contains(id)) return error(i, "tool result \"" + id + "\" answers no preceding tool use");
    }
    open_uses = std::move(uses);
  }
  if (!open_uses.empty())
    return error(messages.size() - 1, "tool use \"" + *open_uses.begin() + "\" is never answered");
  return {};
}

}  // namespace mcp
