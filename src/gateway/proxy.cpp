#include "gateway/proxy.hpp"

#include <chrono>
#include <set>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::gateway {

namespace {

constexpr std::chrono::seconds kMinRefreshInterval{1};
constexpr std::size_t kMaxItemsPerKind = 10'000;

using Refusal = std::function<std::optional<Error>(ListKind, const std::string&)>;

// Hides what is not approved from every list, and refuses calls, gets and reads of it, asking the
// proxy (and so the store) each time.
class PinStage final : public Stage {
 public:
  explicit PinStage(Refusal refusal) : refusal_(std::move(refusal)) {}
  std::string_view name() const override { return "pins"; }
  std::optional<Result<json::value>> on_request(Call& call) override {
    if (!call.target) return std::nullopt;
    if (auto why = refusal_(call.target->kind, call.target->key)) return Result<json::value>(fail(std::move(*why)));
    return std::nullopt;
  }
  bool on_list_item(const Call&, ListedItem& item) override { return !refusal_(item.kind, item.key); }

 private:
  Refusal refusal_;
};

std::string digest_of(const json::value& arguments) {
  auto canonical = trust::canonicalize(arguments);
  return canonical ? trust::sha256_tag(*canonical) : std::string("(not canonicalisable)");
}

// A downstream cancel cancels the upstream's request too.
CallOptions cancellable(const RequestContext& ctx) {
  CallOptions o;
  o.cancel = ctx.cancellation();
  return o;
}

template <class R>
std::string_view outcome_of(const Result<R>& r) {
  if (!r) return "error";
  if constexpr (std::is_same_v<R, CallToolResult>) {
    if (r->is_error.value_or(false)) return "tool-error";
  }
  return "ok";
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
  // Policy first: what the administrator denies is refused whatever its pin says.
  if (!p->options_.policy.empty()) p->server_->use(std::make_shared<PolicyStage>(p->options_.policy, p->options_.name));
  p->server_->use(std::make_shared<PinStage>([weak](ListKind kind, const std::string& key) -> std::optional<Error> {
    auto self = weak.lock();
    return self ? self->refusal(kind, key) : std::optional<Error>(Error::internal("the gateway is stopping"));
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
      // At most one re-listing per kMinRefreshInterval, however often the upstream says its lists
      // changed: those that arrive meanwhile are served by the next one.
      raw->cv_.wait_for(lock, stop, kMinRefreshInterval, [] { return false; });
    }
  });
  return p;
}

void Proxy::refresh_later() {
  std::lock_guard lock(mu_);
  refresh_wanted_ = true;
  cv_.notify_all();
}

std::optional<Error> Proxy::refusal(ListKind kind, const std::string& key) const {
  auto state = pins_->state(options_.name, kind, key);
  if (!state) return Error::internal("the gateway's state cannot be read: " + state.error().message);
  if (!*state || **state == PinState::approved) return std::nullopt;
  const std::string how = " (see it with `mcp-trust gateway pins --state " + options_.state_dir +
                          "`; allow it with `mcp-trust gateway approve --state " + options_.state_dir + " " +
                          options_.name + " " + peer_text(key) + "`)";
  const std::string what = std::string(item_noun(kind)) + " '" + peer_text(key) + "' of " + options_.name;
  if (**state == PinState::rejected) return Error::invalid_params(what + " was rejected at the gateway" + how);
  return Error::invalid_params(what + " is quarantined at the gateway: its definition is not the one approved" + how);
}

std::shared_ptr<Client> Proxy::upstream() const {
  std::lock_guard lock(upstream_mu_);
  return upstream_;
}

void Proxy::set_upstream(std::shared_ptr<Client> upstream) {
  std::lock_guard lock(upstream_mu_);
  upstream_ = std::move(upstream);
}

void Proxy::announce_lists() {
  auto up = upstream();
  for (ListKind kind : kListKinds) {
    if (upstream_offers(*up, kind)) server_->availability_changed(kind);
  }
}

bool Proxy::upstream_offers(const Client& upstream, ListKind kind) {
  const auto& caps = upstream.server().capabilities;
  switch (kind) {
    case ListKind::tools: return caps.tools.has_value();
    case ListKind::prompts: return caps.prompts.has_value();
    case ListKind::resources:
    case ListKind::resource_templates: return caps.resources.has_value();
  }
  return false;
}

Result<void> Proxy::refresh() {
  // One refresh at a time (the refresher's, a restart's): each compares with what the last one saw.
  std::lock_guard serial(refresh_mu_);
  auto up = upstream();
  for (ListKind kind : kListKinds) {
    if (!upstream_offers(*up, kind)) continue;
    if (auto ok = refresh(*up, kind); !ok) return fail(Error::internal(std::string(list_method(kind)) + ": " + ok.error().message));
  }
  return {};
}

template <class Item, class KeyOf, class Add, class Remove>
Result<void> Proxy::mirror(ListKind kind, Result<std::vector<Item>> listed, KeyOf key_of, Add add, Remove remove) {
  if (!listed) return fail(listed.error());
  if (listed->size() > kMaxItemsPerKind) {
    return fail(Error::internal("the upstream lists " + std::to_string(listed->size()) + " " + std::string(result_key(kind)) +
                                ", more than the gateway keeps (" + std::to_string(kMaxItemsPerKind) + ")"));
  }
  // One definition per key: an upstream that lists a key twice gets the first one served (two
  // definitions would make the pin flip between them on every refresh).
  {
    std::set<std::string> seen;
    std::erase_if(*listed, [&](const Item& item) {
      if (seen.insert(key_of(item)).second) return false;
      MCP_LOG_WARN("gateway {}: the upstream lists {} '{}' twice; serving the first", options_.name, item_noun(kind),
                   peer_text(key_of(item)));
      return true;
    });
  }
  std::map<std::string, PinState> states;
  std::vector<std::string> definitions;  // each item's, serialized: to tell what changed since registered
  definitions.reserve(listed->size());
  for (const auto& item : *listed) {
    json::value definition = to_json(item);
    auto state = pins_->observe(options_.name, kind, key_of(item), definition.as_object(), options_.new_items);
    if (!state) return fail(state.error());
    states[key_of(item)] = *state;
    definitions.push_back(json::serialize(definition));
  }
  std::set<std::string> gone;
  std::vector<const Item*> to_add;
  bool changed = false;
  {
    std::lock_guard lock(mu_);
    auto& before = listed_states_[kind];
    for (const auto& [key, state] : before)
      if (!states.contains(key)) gone.insert(key);
    changed = states != before;
    before = states;
    // Only what is new or changed is registered again: each registration tells every client the
    // list changed.
    auto& registered = registered_[kind];
    for (const auto& key : gone) registered.erase(key);
    for (std::size_t i = 0; i < listed->size(); ++i) {
      auto& slot = registered[key_of((*listed)[i])];
      if (slot != definitions[i]) {
        slot = std::move(definitions[i]);
        to_add.push_back(&(*listed)[i]);
      }
    }
  }
  // Registered whatever its state: the pin stage decides per list and per request, so a decision
  // made elsewhere holds at once.
  for (const Item* item : to_add) add(*item);
  for (const auto& key : gone) remove(key);
  if (changed) server_->availability_changed(kind);
  return {};
}

Result<void> Proxy::refresh(Client& up, ListKind kind) {
  std::weak_ptr<Proxy> weak = weak_from_this();
  auto stopping = [] { return Error::internal("the gateway is stopping"); };
  switch (kind) {
    case ListKind::tools:
      return mirror(
          kind, up.list_all_tools(), [](const Tool& t) { return t.name; },
          [&](const Tool& t) {
            // Asynchronous: no thread waits while the upstream works; the answer is recorded and
            // sent from the upstream client's reader thread. A cancel from our client cancels the
            // upstream's request.
            server_->add_async_tool(t, [weak, stopping, name = t.name](const json::object& args, std::shared_ptr<RequestContext> ctx,
                                                                       Reply<CallToolResult> reply) {
              auto self = weak.lock();
              if (!self) return void(reply(fail(stopping())));
              self->upstream()->call_tool_async(name, args, cancellable(*ctx),
                                                self->recorder<CallToolResult>(method::kToolsCall, name, args, *ctx, reply));
            });
          },
          [&](const std::string& key) { server_->remove_tool(key); });
    case ListKind::prompts:
      return mirror(
          kind, up.list_all_prompts(), [](const Prompt& p) { return p.name; },
          [&](const Prompt& p) {
            server_->add_async_prompt(p, [weak, stopping, name = p.name](const std::map<std::string, std::string>& args,
                                                                         std::shared_ptr<RequestContext> ctx,
                                                                         Reply<GetPromptResult> reply) {
              auto self = weak.lock();
              if (!self) return void(reply(fail(stopping())));
              json::object recorded;
              for (const auto& [k, v] : args) recorded[k] = v;
              self->upstream()->get_prompt_async(name, args, cancellable(*ctx),
                                                 self->recorder<GetPromptResult>(method::kPromptsGet, name, recorded, *ctx, reply));
            });
          },
          [&](const std::string& key) { server_->remove_prompt(key); });
    case ListKind::resources:
      return mirror(
          kind, up.list_all_resources(), [](const Resource& r) { return r.uri; },
          [&](const Resource& r) {
            server_->add_async_resource(r, [weak, stopping](const std::string& uri, std::shared_ptr<RequestContext> ctx,
                                                            Reply<ReadResourceResult> reply) {
              auto self = weak.lock();
              if (!self) return void(reply(fail(stopping())));
              self->forward_read(uri, *ctx, std::move(reply));
            });
          },
          [&](const std::string& key) { server_->remove_resource(key); });
    case ListKind::resource_templates:
      return mirror(
          kind, up.list_all_resource_templates(), [](const ResourceTemplate& t) { return t.uri_template; },
          [&](const ResourceTemplate& t) {
            auto added = server_->add_async_resource_template(
                t, [weak, stopping](const std::string& uri, const UriTemplate::Variables&, std::shared_ptr<RequestContext> ctx,
                                    Reply<ReadResourceResult> reply) {
                  auto self = weak.lock();
                  if (!self) return void(reply(fail(stopping())));
                  self->forward_read(uri, *ctx, std::move(reply));
                });
            // An upstream's template that is not RFC 6570 cannot be matched: it is pinned (and
            // visible in `pins`) but not served.
            if (!added) MCP_LOG_WARN("gateway {}: not serving template {}: {}", options_.name, peer_text(t.uri_template), added.error().message);
          },
          [&](const std::string& key) { server_->remove_resource_template(key); });
  }
  return {};
}

void Proxy::forward_read(const std::string& uri, const RequestContext& ctx, Reply<ReadResourceResult> reply) {
  upstream()->read_resource_async(uri, cancellable(ctx),
                                  recorder<ReadResourceResult>(method::kResourcesRead, uri, json::object{}, ctx, std::move(reply)));
}

template <class R>
std::function<void(Result<R>)> Proxy::recorder(std::string_view method, const std::string& item, const json::value& arguments,
                                               const RequestContext& ctx, Reply<R> reply) {
  return [weak = weak_from_this(), m = std::string(method), item, digest = digest_of(arguments), client = ctx.session_id(),
          start = std::chrono::steady_clock::now(), reply](Result<R> r) {
    auto self = weak.lock();
    if (!self) return void(reply(std::move(r)));
    reply(self->record<R>(m, item, digest, client, start, std::move(r)));
  };
}

template <class R>
Result<R> Proxy::record(std::string_view method, const std::string& item, const std::string& arguments_digest,
                        const std::string& client, std::chrono::steady_clock::time_point start, Result<R> r) {
  // The upstream's own errors pass as they are; ours (it exited, timed out, the connection
  // dropped) say which upstream.
  if (!r && !r.error().from_peer) r.error().message = "upstream " + options_.name + ": " + r.error().message;
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  const auto us = elapsed.count();
  if (options_.metrics) options_.metrics->observe(options_.name, method, outcome_of(r), elapsed);
  json::object record{{"server", options_.name},
                      {"method", method},
                      {"item", peer_text(item, 1024)},
                      {"arguments", arguments_digest},
                      {"client", client},
                      {"latencyUs", us},
                      {"outcome", outcome_of(r)}};
  if (!r) record["error"] = peer_text(r.error().message);
  // A call record survives the gateway being killed; it reaches the disk with the next decision
  // or checkpoint (an fsync per call would cost ~1 ms).
  if (auto a = audit_->append("call", std::move(record), Db::Durability::process_crash); !a) {
    // An unrecorded request is not answered: the log must hold every call that happened.
    return fail(Error::internal("the gateway could not record the call: " + a.error().message));
  }
  return r;
}

}  // namespace mcp::gateway
