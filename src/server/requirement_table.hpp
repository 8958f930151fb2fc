// Private: the server's per-item capability requirements, as the requirements stage reads them.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "mcp/protocol/list_kind.hpp"
#include "mcp/server/requirements.hpp"

namespace mcp {

struct RequirementTable {
  using Key = std::pair<ListKind, std::string>;
  std::map<Key, CapabilityRequirement> items;
  // A substitute's key -> the key of the item it stands in for.
  std::map<Key, std::string> substitute_for;
};

}  // namespace mcp
