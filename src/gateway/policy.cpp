#include "gateway/policy.hpp"

#include <algorithm>
#include <array>

#include "mcp/signature/reduction.hpp"

namespace mcp::gateway {

namespace {

constexpr std::array<std::string_view, 4> kHintNames = {"readOnlyHint", "destructiveHint", "idempotentHint",
                                                        "openWorldHint"};

bool matches_any(const std::vector<std::string>& patterns, std::string_view key) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return glob_match(p, key); });
}

// Whether `tool` may behave as `hint` says, in the worst case.
bool may_have(std::string_view hint, const Tool& tool) {
  const EffectiveHints h = effective_hints(tool.annotations.value_or(ToolAnnotations{}));
  if (hint == "readOnlyHint") return h.read_only;
  if (hint == "destructiveHint") return !h.read_only && h.destructive;
  if (hint == "idempotentHint") return h.idempotent;
  return h.open_world;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // The classic greedy matcher with one backtrack point: the last `*` seen, and where in the text
  // it last resumed. No recursion, so a hostile name cannot exhaust the stack.
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    // `*` first: a `*` in the text (a name an upstream chose) must not be taken for a literal
    // match of the pattern's `*`, which would lose the backtrack point.
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<std::string> ItemPolicy::denies(ListKind kind, const std::string& key, const Tool* tool) const {
  for (const auto& d : deny)
    if (glob_match(d, key)) return "it matches the deny pattern \"" + d + "\"";
  if (!allow.empty() && !matches_any(allow, key)) return "it matches no allow pattern";
  if (kind == ListKind::tools && tool && !matches_any(allow_hinted, key)) {
    for (const auto& hint : deny_hints)
      if (may_have(hint, *tool)) return "its annotations allow " + hint + ", which is denied";
  }
  return std::nullopt;
}

bool ItemPolicy::asks(const std::string& key) const { return matches_any(ask, key); }

const CapabilityRequirement* ItemPolicy::requirement(const std::string& key) const {
  for (const auto& rule : require)
    if (glob_match(rule.items, key)) return &rule.requirement;
  return nullptr;
}

namespace {

// "requireCapabilities": an array of {"items", "capabilities", "whenMissing"?}.
Result<void> read_requirements(const json::value& value, ItemPolicy& policy, const std::string& where) {
  const auto bad = [&](const std::string& what) {
    return Error::invalid_params("gateway config: " + where + ": \"requireCapabilities\"" + what);
  };
  if (!value.is_array()) return fail(bad(" must be an array of {\"items\", \"capabilities\", \"whenMissing\"}"));
  if (value.as_array().size() > kMaxCapabilityRules) {
    return fail(bad(" has more than " + std::to_string(kMaxCapabilityRules) + " rules"));
  }
  for (const auto& v : value.as_array()) {
    const std::string at = "[" + std::to_string(policy.require.size()) + "]";
    if (!v.is_object()) return fail(bad(at + " must be an object"));
    const auto& o = v.as_object();
    for (const auto& [k, _] : o) {
      if (k != "items" && k != "capabilities" && k != "whenMissing")
        return fail(bad(at + ": unknown key \"" + peer_text(std::string(k), 64) + "\""));
    }
    const auto* items = o.if_contains("items");
    const auto* caps = o.if_contains("capabilities");
    if (!items || !items->is_string()) return fail(bad(at + ".items must be a pattern (a string)"));
    // A client capability is an object ({"sampling": {}}); an empty set would require nothing.
    if (!caps || !caps->is_object() || caps->as_object().empty())
      return fail(bad(at + ".capabilities must be a non-empty object of client capabilities, e.g. {\"sampling\": {}}"));
    for (const auto& [name, c] : caps->as_object()) {
      if (!c.is_object()) return fail(bad(at + ".capabilities." + peer_text(std::string(name), 64) + " must be an object"));
    }
    CapabilityRule rule{.items = std::string(items->as_string()), .requirement = {.capabilities = caps->as_object()}};
    if (const auto* when = o.if_contains("whenMissing")) {
      if (*when == "hide") rule.requirement.when_missing = CapabilityRequirement::WhenMissing::hide;
      else if (*when != "show") return fail(bad(at + ".whenMissing is \"show\" or \"hide\""));
    }
    policy.require.push_back(std::move(rule));
  }
  return {};
}

}  // namespace

Result<bool> read_policy_key(std::string_view key, const json::value& value, ItemPolicy& policy, const std::string& where) {
  if (key == "requireCapabilities") {
    if (auto ok = read_requirements(value, policy, where); !ok) return fail(ok.error());
    return true;
  }
  std::vector<std::string>* list = key == "allow"         ? &policy.allow
                                   : key == "deny"        ? &policy.deny
                                   : key == "denyHints"   ? &policy.deny_hints
                                   : key == "allowHinted" ? &policy.allow_hinted
                                   : key == "ask"         ? &policy.ask
                                                          : nullptr;
  if (!list) return false;
  const auto bad = [&] {
    return Error::invalid_params("gateway config: " + where + ": \"" + std::string(key) + "\" must be an array of strings");
  };
  if (!value.is_array()) return fail(bad());
  for (const auto& v : value.as_array()) {
    if (!v.is_string()) return fail(bad());
    std::string s(v.as_string());
    if (list == &policy.deny_hints && std::find(kHintNames.begin(), kHintNames.end(), s) == kHintNames.end()) {
      return fail(Error::invalid_params("gateway config: " + where + ": unknown hint \"" + peer_text(s, 64) +
                                        "\" (readOnlyHint, destructiveHint, idempotentHint or openWorldHint)"));
    }
    list->push_back(std::move(s));
  }
  return true;
}

std::optional<Error> policy_refusal(const ItemPolicy& policy, const std::string& server, const Target& target) {
  auto why = policy.denies(target.kind, target.key, target.tool);
  if (!why && target.kind == ListKind::resource_templates && !target.uri.empty()) {
    why = policy.denies(ListKind::resources, target.uri, nullptr);
  }
  if (!why) return std::nullopt;
  return Error::invalid_params(std::string(item_noun(target.kind)) + " '" + peer_text(target.key) + "' of " + server +
                               " is denied by the gateway's policy: " + *why);
}

std::optional<Result<json::value>> PolicyStage::on_request(Call& call) {
  if (!call.target) return std::nullopt;
  if (auto why = policy_refusal(policy_, server_, *call.target)) return Result<json::value>(fail(std::move(*why)));
  return std::nullopt;
}

bool PolicyStage::on_list_item(const Call&, ListedItem& item) { return !policy_.denies(item.kind, item.key, item.tool); }

}  // namespace mcp::gateway
