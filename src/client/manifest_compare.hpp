// Private: comparing a listed tool with its signed manifest entry, member by member.
#pragma once

#include <optional>
#include <string>

#include "mcp/json.hpp"

namespace mcp::detail {

struct ToolDifference {
  std::string field;   // the first member that differs: "description", "annotations", "icons", ...
  std::string detail;  // "listed <value>, signed <value>", values shortened
};

// The first member of `listed` and `signed_tool` that is not canonically equal (mcp/trust/jcs.hpp
// semantics: member order and number spelling do not matter), or nothing if they are the same.
// Members are visited in the order a reader cares about: title, description, inputSchema,
// outputSchema, annotations, icons, execution, _meta, then any other member by name.
std::optional<ToolDifference> first_difference(const json::object& listed, const json::object& signed_tool);

}  // namespace mcp::detail
