#include "gateway/proxy.hpp"

#include <chrono>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::gateway {

namespace {

// Hides what is not approved from every tools/list, and refuses calls to it, asking the proxy
// (and so the store) each time.
class PinStage final : public Stage {
 public:
  explicit PinStage(std::function<std::optional<Error>(const std::string&)> refusal) : refusal_(std::move(refusal)) {}
  std::string_view name() const override { return "pins"; }
  std::optional<Result<json::value>> on_request(Call& call) override {
    if (!call.target || call.target->kind != ListKind::tools) return std::nullopt;
    if (auto why = refusal_(call.target->key)) return Result<json::value>(fail(std::move(*why)));
    return std::nullopt;
  }
  bool on_list_item(const Call&, ListedItem& item) override {
    return item.kind != ListKind::tools || !refusal_(item.key);
  }

 private:
  std::function<std::optional<Error>(const std::string&)> refusal_;
};

std::string digest_of(const json::object& arguments) {
  auto canonical = trust::canonicalize(arguments);
  return canonical ? trust::sha256_tag(*canonical) : std::string("(not canonicalisable)");
}

}  // namespace

Proxy::Proxy(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins, std::shared_ptr<AuditLog> audit,
             ProxyOptions options, ServerOptions server_options)
    : upstream_(std::move(upstream)), pins_(std::move(pins)), audit_(std::move(audit)), options_(std::move(options)),
      server_(std::make_shared<Server>(std::move(server_options))) {}

Proxy::~Proxy() = default;  // refresher_ (declared last) stops and joins first

Result<std::shared_ptr<Proxy>> Proxy::start(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins,
                                            std::shared_ptr<AuditLog> audit, ProxyOptions options,
                                            ServerOptions server_options) {
  std::shared_ptr<Proxy> p(new Proxy(std::move(upstream), std::move(pins), std::move(audit), std::move(options),
                                     std::move(server_options)));
  std::weak_ptr<Proxy> weak = p;
  p->server_->use(std::make_shared<PinStage>([weak](const std::string& tool) -> std::optional<Error> {
    auto self = weak.lock();
    return self ? self->refusal(tool) : std::optional<Error>(Error::internal("the gateway is stopping"));
  }));
  if (auto ok = p->refresh(); !ok) return fail(ok.error());
  // The proxy outlives its thread: the thread is its last member, stopped and joined first.
  p->refresher_ = std::jthread([raw = p.get()](std::stop_token stop) {
    std::unique_lock lock(raw->mu_);
    for (;;) {
      raw->cv_.wait(lock, stop, [raw] { return raw->refresh_wanted_; });
      if (stop.stop_requested()) return;
      raw->refresh_wanted_ = false;
      lock.unlock();
      if (auto ok = raw->refresh(); !ok)
        MCP_LOG_ERROR("gateway {}: re-listing the upstream failed: {}", raw->options_.name, ok.error().message);
      lock.lock();
    }
  });
  return p;
}

void Proxy::refresh_later() {
  std::lock_guard lock(mu_);
  refresh_wanted_ = true;
  cv_.notify_all();
}

std::optional<Error> Proxy::refusal(const std::string& tool) const {
  auto state = pins_->state(options_.name, ListKind::tools, tool);
  if (!state) return Error::internal("the gateway's state cannot be read: " + state.error().message);
  if (!*state || **state == PinState::approved) return std::nullopt;
  const std::string how = " (see it with `mcp-trust gateway pins --state " + options_.state_dir +
                          "`; allow it with `mcp-trust gateway approve --state " + options_.state_dir + " " +
                          options_.name + " " + tool + "`)";
  if (**state == PinState::rejected) {
    return Error::invalid_params("tool '" + peer_text(tool) + "' of " + options_.name + " was rejected at the gateway" + how);
  }
  return Error::invalid_params("tool '" + peer_text(tool) + "' of " + options_.name +
                               " is quarantined at the gateway: its definition is not the one approved" + how);
}

Result<void> Proxy::refresh() {
  auto tools = upstream_->list_all_tools();
  if (!tools) return fail(tools.error());
  std::map<std::string, PinState> states;
  for (const auto& t : *tools) {
    auto state = pins_->observe(options_.name, ListKind::tools, t.name, to_json(t).as_object(), options_.new_items);
    if (!state) return fail(state.error());
    states[t.name] = *state;
  }
  std::set<std::string> gone;
  bool changed = false;
  {
    std::lock_guard lock(mu_);
    for (const auto& name : registered_)
      if (!states.contains(name)) gone.insert(name);
    changed = states != listed_states_;
    listed_states_ = states;
    registered_.clear();
    for (const auto& t : *tools) registered_.insert(t.name);
  }
  std::weak_ptr<Proxy> weak = weak_from_this();
  for (const auto& t : *tools) {
    const std::string name = t.name;
    // Registered whatever its state: the pin stage decides per list and per call, so a decision
    // made elsewhere holds at once.
    server_->add_tool(t, [weak, name](const json::object& args, RequestContext& ctx) -> Result<CallToolResult> {
      auto self = weak.lock();
      if (!self) return fail(Error::internal("the gateway is stopping"));
      return self->call(name, args, ctx);
    });
  }
  for (const auto& name : gone) server_->remove_tool(name);
  if (changed) server_->availability_changed(ListKind::tools);
  return {};
}

Result<CallToolResult> Proxy::call(const std::string& name, const json::object& arguments, RequestContext& ctx) {
  const auto start = std::chrono::steady_clock::now();
  auto r = upstream_->call_tool(name, arguments);
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  json::object record{{"server", options_.name},
                      {"tool", name},
                      {"arguments", digest_of(arguments)},
                      {"client", ctx.session_id()},
                      {"latencyUs", us},
                      {"outcome", !r ? "error" : (r->is_error.value_or(false) ? "tool-error" : "ok")}};
  if (!r) record["error"] = peer_text(r.error().message);
  if (auto a = audit_->append("call", std::move(record)); !a) {
    // An unrecorded call is not answered: the log must hold every call that happened.
    return fail(Error::internal("the gateway could not record the call: " + a.error().message));
  }
  return r;
}

}  // namespace mcp::gateway
