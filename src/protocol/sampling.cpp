// The enumerations by name, and the generic codec (plus: priorities lie in [0, 1]).
#include "mcp/protocol/sampling.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_ENUM_CODEC(ToolChoiceMode, parse_tool_choice_mode, "auto", "required", "none")
MCP_WIRE_ENUM_CODEC(IncludeContext, parse_include_context, "none", "thisServer", "allServers")

Result<void> wire_check(const ModelPreferences& p) {
  constexpr std::string_view what = "ModelPreferences";
  if (auto r = wire::check_unit_interval(what, "costPriority", p.cost_priority); !r) return r;
  if (auto r = wire::check_unit_interval(what, "speedPriority", p.speed_priority); !r) return r;
  return wire::check_unit_interval(what, "intelligencePriority", p.intelligence_priority);
}

MCP_WIRE_CODEC(ModelHint)
MCP_WIRE_CODEC(ModelPreferences)
MCP_WIRE_CODEC(ToolChoice)
MCP_WIRE_CODEC(CreateMessageRequestParams)
MCP_WIRE_CODEC(CreateMessageResult)

}  // namespace mcp
