// The non-template part of typed tools (mcp/server/typed_tool.hpp).
#include "mcp/server/typed_tool.hpp"

namespace mcp::typed_tool_detail {

CallToolResult invalid_arguments(std::string_view type_name, const Error& error) {
  std::string_view message = error.message;
  std::string text = "invalid arguments (-32602): ";
  // The decoder names paths from the struct ("Forecast.days: ..."); the model knows them as
  // "arguments.days". Nested structs keep their own names after the first step.
  if (message.starts_with(type_name)) {
    text += "arguments";
    message.remove_prefix(type_name.size());
  }
  text += message;
  return CallToolResult::error(std::move(text));
}

}  // namespace mcp::typed_tool_detail
