// Per-item capability requirements (mcp/server/requirements.hpp): the requirements stage, and
// Server::require_capabilities. The stage is the innermost of the chain (after availability), and
// judges every request with the ClientView that request has: its own _meta's (2026-07-28) or its
// session's initialize's (2025-11-25).
#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/methods.hpp"
#include "server/server_impl.hpp"

namespace mcp {

namespace {

// What a list request is judged by: its own capabilities, plus those it says the requests that
// follow from it will declare (alternative 2 of the seed).
json::object list_capabilities(const Call& call) {
  const json::object& own = call.context.client_capabilities();
  const auto& meta = call.context.request_meta();
  const json::value* related = meta ? meta->if_contains(kRelatedRequestCapabilitiesKey) : nullptr;
  if (!related || !related->is_object()) return own;
  return merge_capabilities(own, related->get_object());
}

class RequirementsStage final : public Stage {
 public:
  explicit RequirementsStage(std::shared_ptr<const RequirementTable> table) : table_(std::move(table)) {}
  std::string_view name() const override { return "requirements"; }

  // A call, get or read is judged by what that request itself declares: -32021 naming the rest.
  std::optional<Result<json::value>> on_request(Call& call) override {
    const Target* t = call.target;
    if (!t) return std::nullopt;
    auto it = table_->items.find({t->kind, t->key});
    if (it == table_->items.end()) return std::nullopt;
    json::object missing = missing_capabilities(it->second.capabilities, call.context.client_capabilities());
    if (missing.empty()) return std::nullopt;
    std::string message = std::string(item_noun(t->kind)) + " '" + peer_text(t->key) +
                          "' needs client capabilities this request did not declare: " + json::serialize(missing);
    return fail(Error{error_code::kMissingRequiredClientCapability, std::move(message),
                      json::object{{"requiredCapabilities", std::move(missing)}}});
  }

  bool on_list_item(const Call& call, ListedItem& listed) override {
    const RequirementTable::Key key{listed.kind, listed.key};
    if (auto it = table_->items.find(key); it != table_->items.end()) {
      const CapabilityRequirement& req = it->second;
      if (req.when_missing == CapabilityRequirement::WhenMissing::show) {
        json::value& meta = listed.item["_meta"];
        if (!meta.is_object()) meta = json::object{};
        meta.as_object()[kRequiredCapabilitiesKey] = req.capabilities;
        return true;
      }
      return missing_capabilities(req.capabilities, list_capabilities(call)).empty();
    }
    // A substitute is listed only to requests that would not see the item it stands in for.
    if (auto sub = table_->substitute_for.find(key); sub != table_->substitute_for.end()) {
      auto main = table_->items.find({listed.kind, sub->second});
      return main == table_->items.end() ||
             !missing_capabilities(main->second.capabilities, list_capabilities(call)).empty();
    }
    return true;
  }

 private:
  std::shared_ptr<const RequirementTable> table_;
};

}  // namespace

std::shared_ptr<Stage> make_requirements_stage(std::shared_ptr<const RequirementTable> table) {
  return std::make_shared<RequirementsStage>(std::move(table));
}

void Server::require_capabilities(ListKind kind, std::string key, CapabilityRequirement requirement) {
  {
    std::lock_guard lock(impl_->mu);
    auto table = std::make_shared<RequirementTable>(impl_->requirements ? *impl_->requirements : RequirementTable{});
    // Forget what this item required before, and its substitute's link to it.
    if (auto old = table->items.find({kind, key}); old != table->items.end()) {
      table->substitute_for.erase({kind, old->second.substitute});
      table->items.erase(old);
    }
    if (!requirement.capabilities.empty()) {
      if (requirement.when_missing == CapabilityRequirement::WhenMissing::substitute && !requirement.substitute.empty())
        table->substitute_for[{kind, requirement.substitute}] = key;
      table->items[{kind, std::move(key)}] = std::move(requirement);
    }
    impl_->lists_vary_by_capabilities = !table->items.empty();
    impl_->requirements = std::move(table);
    impl_->rebuild_stages();
  }
  availability_changed(kind);
}

}  // namespace mcp
