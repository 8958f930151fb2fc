#include "client/manifest_compare.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include "mcp/trust/json_equal.hpp"

namespace mcp::detail {

namespace {

// The definition's members in the order a person reads them, so the field named is the one a
// reviewer would look at first (a rug pull is usually a description edit).
constexpr std::array<std::string_view, 9> kOrder = {"name",        "title",  "description", "inputSchema", "outputSchema",
                                                     "annotations", "icons", "execution",   "_meta"};

std::string shown(const json::value* v) {
  if (v == nullptr) return "(absent)";
  std::string s = json::serialize(*v);
  // Long enough to see an appended instruction start, short enough for one log line.
  constexpr std::size_t kMax = 80;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

std::optional<ToolDifference> differs(const json::object& listed, const json::object& signed_tool,
                                      std::string_view key) {
  const json::value* a = listed.if_contains(key);
  const json::value* b = signed_tool.if_contains(key);
  if (a == nullptr && b == nullptr) return std::nullopt;
  if (a != nullptr && b != nullptr && trust::canonically_equal(*a, *b)) return std::nullopt;
  return ToolDifference{std::string(key), "listed " + shown(a) + ", signed " + shown(b)};
}

}  // namespace

std::optional<ToolDifference> first_difference(const json::object& listed, const json::object& signed_tool) {
  for (std::string_view key : kOrder)
    if (auto d = differs(listed, signed_tool, key)) return d;
  std::set<std::string, std::less<>> others;
  for (const auto* o : {&listed, &signed_tool})
    for (const auto& kv : *o) others.emplace(kv.key());
  for (const auto& key : others) {
    if (std::find(kOrder.begin(), kOrder.end(), key) != kOrder.end()) continue;
    if (auto d = differs(listed, signed_tool, key)) return d;
  }
  return std::nullopt;
}

}  // namespace mcp::detail
