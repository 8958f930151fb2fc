// Private to the gateway: what an administrator allows of an upstream, by name and by annotation
// (the gateway section's servers.NAME):
//
//   "allow":       ["read_*", "list_*"]   only items matching one of these (absent: every item)
//   "deny":        ["*delete*"]           never items matching one of these (wins over everything)
//   "denyHints":   ["destructiveHint"]    never tools that may have this behaviour...
//   "allowHinted": ["write_note"]         ...unless they match one of these
//   "ask":         ["send_*"]             a person allows each call first (approvals.hpp)
//
// Patterns match the item's key (a tool's or prompt's name, a resource's URI, a template's
// uriTemplate) as a whole, `*` any run of characters, `?` one character. A hint is judged in the
// worst case, with the schema's defaults for what a tool leaves out: a tool without annotations may
// be destructive (unless read-only) and open-world; "readOnlyHint" and "idempotentHint" deny tools
// that say they are. A denied item is hidden from its list and refused with an error naming the
// rule (PolicyStage).
//
// And what an item needs of the client that uses it, as the SDK's per-request client
// capabilities have it (mcp/server/requirements.hpp):
//
//   "requireCapabilities": [{"items": "trigger-sampling*", "capabilities": {"sampling": {}},
//                            "whenMissing": "hide"}]
//
// The first rule whose pattern matches an item's key applies. A request that does not declare the
// capabilities is refused (-32021 naming what is missing); a list request lacking them sees the
// item marked with what it needs ("show", the default) or not at all ("hide"). An upstream's
// session is shared by every client, so the upstream cannot tell them apart: this is where a tool
// that asks its client for sampling or elicitation is kept from clients that cannot answer.
//
// Thread-safety: immutable once built.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/error.hpp"
#include "mcp/protocol/list_kind.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/server/requirements.hpp"
#include "mcp/server/stage.hpp"

namespace mcp::gateway {

// `pattern` against all of `text`: `*` any run, `?` one byte. Iterative, O(|pattern| * |text|) at worst.
bool glob_match(std::string_view pattern, std::string_view text);

inline constexpr std::size_t kMaxCapabilityRules = 256;

struct CapabilityRule {
  std::string items;  // the pattern
  CapabilityRequirement requirement;
};

struct ItemPolicy {
  std::vector<std::string> allow;         // empty: every item
  std::vector<std::string> deny;
  std::vector<std::string> deny_hints;    // "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"
  std::vector<std::string> allow_hinted;
  std::vector<std::string> ask;           // calls, gets and reads wait for a person's decision
  std::vector<CapabilityRule> require;  // "requireCapabilities"

  bool empty() const { return allow.empty() && deny.empty() && deny_hints.empty(); }
  // Why item `key` of `kind` is denied (the rule, for the error), or nothing when it is allowed.
  // `tool` is the tool's definition, for its annotations.
  std::optional<std::string> denies(ListKind kind, const std::string& key, const Tool* tool) const;
  // Whether a request for item `key` waits for a person's decision (and is not denied).
  bool asks(const std::string& key) const;
  // What item `key` needs of its client: the first rule matching it, if any.
  const CapabilityRequirement* requirement(const std::string& key) const;
};

// Reads the five keys, and "requireCapabilities", from a servers.NAME object into `policy`; other keys are left to the caller.
// Errors: a value of the wrong type, an unknown hint name.
[[nodiscard]] Result<bool> read_policy_key(std::string_view key, const json::value& value, ItemPolicy& policy,
                                           const std::string& where);

// The refusal of a request for `target` (upstream `server`'s item) if `policy` denies it: -32602
// naming the rule. A read through a template is judged by the template and by the URI read.
std::optional<Error> policy_refusal(const ItemPolicy& policy, const std::string& server, const Target& target);

// Hides what `policy` denies from every list and refuses requests for it (-32602, naming the rule).
class PolicyStage final : public Stage {
 public:
  PolicyStage(ItemPolicy policy, std::string server) : policy_(std::move(policy)), server_(std::move(server)) {}
  std::string_view name() const override { return "policy"; }
  std::optional<Result<json::value>> on_request(Call& call) override;
  bool on_list_item(const Call& call, ListedItem& item) override;

 private:
  ItemPolicy policy_;
  std::string server_;
};

}  // namespace mcp::gateway
