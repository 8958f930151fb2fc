// The tool-use pairing rule of a conversation.
#include "mcp/protocol/sampling_message.hpp"

#include <set>

namespace mcp {

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
