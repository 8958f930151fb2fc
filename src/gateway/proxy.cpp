#include "gateway/proxy.hpp"

#include <chrono>
#include <set>

#include "gateway/call_audit.hpp"
#include "gateway/forwarding.hpp"
#include "gateway/key.hpp"
#include "log/log.hpp"
#include "mcp/signature/derive.hpp"
#include "mcp/protocol/methods.hpp"
#include "session/thread_name.hpp"

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

}  // namespace

Proxy::Proxy(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins, std::shared_ptr<AuditLog> audit,
             ProxyOptions options, ServerOptions server_options)
    : upstream_(std::move(upstream)),
      pins_(std::move(pins)),
      audit_(std::move(audit)),
      options_(std::move(options)),
      server_(std::make_shared<Server>(std::move(server_options))),
      watches_(detail::AsyncHolds::make(
          options_.max_subscribes_waiting, std::to_string(options_.max_subscribes_waiting) +
                                               " subscriptions already wait for upstream " + options_.name +
                                               " to answer: subscribe again once it does")) {}

Proxy::~Proxy() = default;  // refresher_ (declared last) stops and joins first

Result<std::shared_ptr<Proxy>> Proxy::start(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins,
                                            std::shared_ptr<AuditLog> audit, ProxyOptions options,
                                            ServerOptions server_options) {
  std::shared_ptr<Proxy> p(new Proxy(std::move(upstream), std::move(pins), std::move(audit), std::move(options),
                                     std::move(server_options)));
  std::weak_ptr<Proxy> weak = p;
  // Outermost: every call, get or read refused on the way in (below, or by the SDK's own stages)
  // is recorded; what passes is recorded when the upstream answers (record()).
  p->server_->use(refusal_stage([name = p->options_.name](ListKind, const std::string& key) { return Refused{name, key}; },
                                p->options_.name, p->audit_, p->options_.metrics),
                  StagePlace::outermost);
  // Policy first: what the administrator denies is refused whatever its pin says.
  if (!p->options_.policy.empty()) p->server_->use(std::make_shared<PolicyStage>(p->options_.policy, p->options_.name));
  p->server_->use(std::make_shared<PinStage>([weak](ListKind kind, const std::string& key) -> std::optional<Error> {
    auto self = weak.lock();
    return self ? self->refusal(kind, key) : std::optional<Error>(Error::internal("the gateway is stopping"));
  }));
  if (p->options_.signature) {
    if (auto ok = p->server_->set_signature(*p->options_.signature, p->serving(true)); !ok) {
      return fail(Error::invalid_params("the configured signature: " + ok.error().message));
    }
    p->declared_ = std::make_unique<SignatureChecker>(std::make_shared<const ServerSignature>(*p->options_.signature));
  }
  if (p->options_.key) {
    ManifestSigning signing{copy_key(*p->options_.key), "mcp-trust-gateway/" + p->options_.name};
    if (auto ok = p->server_->set_manifest_signing(std::move(signing)); !ok) return fail(ok.error());
  }
  // Completions are forwarded when the upstream offers them (our Server declares them then).
  if (p->upstream()->server_supports("completions")) {
    p->server_->set_async_completer([weak](const CompleteRequestParams& params, std::shared_ptr<RequestContext> ctx,
                                           Reply<CompleteResult> reply) {
      auto self = weak.lock();
      if (!self) return void(reply(fail(Error::internal("the gateway is stopping"))));
      self->complete(params, *ctx, std::move(reply));
    });
  }
  if (auto ok = p->refresh(); !ok) return fail(ok.error());
  // The proxy outlives its thread: the thread is its last member, stopped and joined first.
  p->refresher_ = std::jthread([raw = p.get()](std::stop_token stop) {
    mcp::detail::name_this_thread("mcp-refresher");
    std::unique_lock lock(raw->mu_);
    for (;;) {
      raw->cv_.wait(lock, stop, [raw] { return raw->refresh_wanted_; });
      if (stop.stop_requested()) return;
      raw->refresh_wanted_ = false;
      lock.unlock();
      if (auto ok = raw->refresh(); !ok)
        MCP_LOG_ERROR("gateway {}: re-listing the upstream failed: {}", raw->options_.name,
                      peer_text(ok.error().message));
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

std::optional<Error> Proxy::refusal(ListKind kind, const std::string& key) {
  auto state = pins_->state(options_.name, kind, key);
  if (!state) return Error::internal("the gateway's state cannot be read: " + state.error().message);
  if (!options_.signature && *state) {
    const bool approved = **state == PinState::approved;
    std::lock_guard lock(mu_);
    const auto& seen = listed_states_[kind];
    if (auto it = seen.find(key); it != seen.end() && (it->second == PinState::approved) != approved) {
      refresh_wanted_ = true;  // decided elsewhere: the refresher re-lists and re-derives the signature
      cv_.notify_all();
    }
  }
  if (!*state) {
    // Not pinned, though listed. A name the upstream listed past the pins kept for it
    // (PinStore::kMaxPinsPerServer) is registered like any other (mirror()) and refused here like a
    // quarantined one. Any other lost its pin since it was listed (a person forgot it): refused
    // too, until the refresher has listed it again and pinned it as new, by the upstream's policy.
    std::lock_guard lock(mu_);
    const auto listed = listed_states_.find(kind);
    if (listed == listed_states_.end() || !listed->second.contains(key)) return std::nullopt;
    const std::string what = std::string(item_noun(kind)) + " '" + peer_text(key) + "' of " + options_.name;
    if (!over_limit_[kind].contains(key)) {
      refresh_wanted_ = true;
      cv_.notify_all();
      return Error::invalid_params(what +
                                   " is no longer pinned at the gateway (its pin was forgotten): it is pinned "
                                   "again as a new item when the gateway next lists the upstream, within seconds");
    }
    return Error::invalid_params(what + " is not pinned at the gateway, which keeps at most " +
                                 std::to_string(PinStore::kMaxPinsPerServer) + " pins per upstream: it is not served");
  }
  if (**state == PinState::approved) return std::nullopt;
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
  std::lock_guard serial(refresh_mu_);
  auto up = upstream();
  for (ListKind kind : kListKinds) {
    if (upstream_offers(*up, kind)) announce(kind);
  }
}

void Proxy::announce(ListKind kind) {
  server_->availability_changed(kind);
  if (auto o = observer_.lock()) o->changed(*this, kind);
}

void Proxy::observe(std::weak_ptr<ProxyObserver> observer) {
  std::lock_guard serial(refresh_mu_);
  {
    std::lock_guard lock(observer_mu_);
    observer_ = std::move(observer);
  }
  auto o = observer_.lock();
  if (!o) return;
  auto batch = o->batch_changes();  // every item at once: its clients are told once
  std::map<ListKind, std::map<std::string, std::string>> now;
  {
    std::lock_guard lock(mu_);
    now = registered_;
  }
  for (const auto& [kind, items] : now) {
    for (const auto& [key, serialized] : items) {
      boost::system::error_code ec;
      auto definition = json::parse(serialized, ec);  // our own serialization of a listed item
      if (!ec && definition.is_object()) o->served(*this, kind, key, definition.as_object());
    }
  }
  o->vouched(*this);
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
  // Whatever it changes, each client of the proxy's Server and of the observer's hears of each
  // list once, when the batches end, after the signature below: an upstream listing thousands of
  // new items would otherwise have the gateway tell every client once per item. (Declared in this
  // order, the observer's batch ends last: /mcp hears after the upstream's own path.)
  auto observer = observer_.lock();
  auto observer_batch = observer ? observer->batch_changes() : std::nullopt;
  auto batch = server_->batch_changes();
  auto up = upstream();
  ServerSignature vouched;
  std::vector<ListKind> changed;
  for (ListKind kind : kListKinds) {
    if (!upstream_offers(*up, kind)) continue;
    auto ok = refresh(*up, kind, vouched);
    if (!ok) {
      // What the kinds before it changed is recorded: tell clients now, or the next refresh, seeing
      // no difference, never would. The signature waits for a refresh that lists every kind.
      for (ListKind k : changed) announce(k);
      return fail(Error::internal(std::string(list_method(kind)) + ": " + ok.error().message));
    }
    if (*ok) changed.push_back(kind);
  }
  // The signature first: a client told that a list changed may start a session at once, and must
  // be given the signature that covers the new list.
  if (!options_.signature) vouch(std::move(vouched));
  for (ListKind kind : changed) announce(kind);
  return {};
}

SignatureServing Proxy::serving(bool self_check) const {
  SignatureServing s;
  s.in_server_card = options_.in_server_card;
  s.self_check = self_check;
  return s;
}

void Proxy::vouch(ServerSignature vouched) {
  // Not held to it: a decision made elsewhere shows at once in lists (the pin stage asks the store
  // each time), before the refresher has re-derived this; a client that holds the gateway to the
  // signature it was given sees such a change as outside it, as SEP-2091 means it to.
  if (!serve_vouched(*server_, std::move(vouched), serving(false), vouched_json_, options_.name)) return;
  if (auto o = observer_.lock()) o->vouched(*this);
}

template <class Item, class KeyOf, class Add, class Remove>
Result<bool> Proxy::mirror(ListKind kind, Result<std::vector<Item>> listed, KeyOf key_of, Add add, Remove remove,
                           ServerSignature& vouched) {
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
      MCP_LOG_WARN_WITHIN(list_warnings_, "gateway {}: the upstream lists {} '{}' twice; serving the first",
                          options_.name, item_noun(kind), peer_text(key_of(item)));
      return true;
    });
  }
  std::map<std::string, PinState> states;
  std::set<std::string> over_limit;
  // Each item's definition, once as JSON (for its pin and the observer) and once serialized (to
  // tell what changed since it was registered).
  std::vector<json::value> definitions;
  std::vector<std::string> serialized;
  definitions.reserve(listed->size());
  serialized.reserve(listed->size());
  std::vector<std::string> keys;
  keys.reserve(listed->size());
  for (const auto& item : *listed) {
    definitions.emplace_back(to_json(item));
    keys.push_back(key_of(item));
  }
  // Pinned together, in one transaction: a list of thousands of new items is one flush to the
  // disk, not one each (0.4 ms an item here, far more on a disk that flushes slowly).
  std::vector<PinStore::Observed> observed;
  observed.reserve(listed->size());
  for (std::size_t i = 0; i < listed->size(); ++i) observed.push_back({.key = keys[i], .definition = &definitions[i].as_object()});
  auto observations = pins_->observe_all(options_.name, kind, observed, options_.new_items);
  if (!observations) return fail(observations.error());
  for (std::size_t i = 0; i < listed->size(); ++i) {
    const auto& item = (*listed)[i];
    const json::value& definition = definitions[i];
    const PinStore::Limited limited = (*observations)[i].limited;
    const PinState state = (*observations)[i].state;
    if (limited == PinStore::Limited::pins) {
      over_limit.insert(keys[i]);
      MCP_LOG_WARN_WITHIN(list_warnings_,
                          "gateway {}: not serving the new {} '{}': the upstream already has {} pins, the most kept",
                          options_.name, item_noun(kind), peer_text(key_of(item)), PinStore::kMaxPinsPerServer);
    } else if (limited == PinStore::Limited::changes) {
      MCP_LOG_WARN_WITHIN(
          list_warnings_,
          "gateway {}: the {} '{}' stays quarantined: its definition is the approved one again, but the "
          "upstream's changes are past their budget ({} at once, then one a second)",
          options_.name, item_noun(kind), peer_text(key_of(item)), PinStore::kChangesBurst);
    }
    states[keys[i]] = state;
    serialized.push_back(json::serialize(definition));
    if (state == PinState::approved) {
      if constexpr (std::is_same_v<Item, Tool>) {
        if (!options_.policy.denies(kind, item.name, &item)) vouched.tools.push_back(signature_tool(item));
      } else if (!options_.policy.denies(kind, key_of(item), nullptr)) {
        if constexpr (std::is_same_v<Item, Prompt>) vouched.prompts.push_back(item);
        else if constexpr (std::is_same_v<Item, Resource>) vouched.resources.push_back(item);
        else vouched.resource_templates.push_back(item);
      }
    }
  }
  std::set<std::string> gone;
  std::vector<std::size_t> to_add;  // indices into *listed
  bool changed = false;
  {
    std::lock_guard lock(mu_);
    auto& before = listed_states_[kind];
    for (const auto& [key, state] : before)
      if (!states.contains(key)) gone.insert(key);
    changed = states != before;
    before = states;
    over_limit_[kind] = std::move(over_limit);
    // Only what is new or changed is registered again: each registration tells every client the
    // list changed.
    auto& registered = registered_[kind];
    for (const auto& key : gone) registered.erase(key);
    for (std::size_t i = 0; i < listed->size(); ++i) {
      auto& slot = registered[key_of((*listed)[i])];
      if (slot != serialized[i]) {
        slot = std::move(serialized[i]);
        to_add.push_back(i);
      }
    }
  }
  // Registered whatever its state: the pin stage decides per list and per request, so a decision
  // made elsewhere holds at once.
  auto observer = observer_.lock();
  for (std::size_t i : to_add) {
    add((*listed)[i]);
    if (observer) observer->served(*this, kind, key_of((*listed)[i]), definitions[i].as_object());
  }
  for (const auto& key : gone) {
    remove(key);
    if (observer) observer->unserved(*this, kind, key);
  }
  return changed;
}

Result<bool> Proxy::refresh(Client& up, ListKind kind, ServerSignature& vouched) {
  // Registered whatever their state (the stages decide per request); each request is forwarded
  // through this proxy (forwarding.hpp: asynchronous, recorded, cancellable).
  std::weak_ptr<Proxy> weak = weak_from_this();
  auto remove = [&](const std::string& key) { unserve(*server_, *this, kind, key, key); };
  switch (kind) {
    case ListKind::tools:
      return mirror(kind, up.list_all_tools(), [](const Tool& t) { return t.name; },
                    [&](const Tool& t) { (void)serve_forwarded(*server_, weak, t, t.name); }, remove, vouched);
    case ListKind::prompts:
      return mirror(kind, up.list_all_prompts(), [](const Prompt& p) { return p.name; },
                    [&](const Prompt& p) { (void)serve_forwarded(*server_, weak, p, p.name); }, remove, vouched);
    case ListKind::resources:
      return mirror(kind, up.list_all_resources(), [](const Resource& r) { return r.uri; },
                    [&](const Resource& r) { (void)serve_forwarded(*server_, weak, r); }, remove, vouched);
    case ListKind::resource_templates:
      return mirror(kind, up.list_all_resource_templates(), [](const ResourceTemplate& t) { return t.uri_template; },
                    [&](const ResourceTemplate& t) {
                      // An upstream's template that is not RFC 6570 cannot be matched: it is
                      // pinned (and visible in `pins`) but not served.
                      if (auto added = serve_forwarded(*server_, weak, t); !added)
                        MCP_LOG_WARN_WITHIN(list_warnings_, "gateway {}: not serving template {}: {}", options_.name,
                                            peer_text(t.uri_template), added.error().message);
                    },
                    remove, vouched);
  }
  return false;
}

std::optional<Error> Proxy::admission(const Target& target) {
  if (auto denied = policy_refusal(options_.policy, options_.name, target)) return denied;
  // A configured signature is held wherever the item is served (the proxy's own Server holds it
  // with its signature stage; the aggregate asks here).
  if (const auto& declared = options_.signature) {
    const bool in = [&] {
      switch (target.kind) {
        case ListKind::tools: return declared->find_tool(target.key) != nullptr;
        case ListKind::prompts: return declared->find_prompt(target.key) != nullptr;
        // A resource expanding a declared template is declared by it (SEP-2091), as the proxy's
        // own Server holds it.
        case ListKind::resources:
          return declared->find_resource(target.key) != nullptr || declared_->expands_declared_template(target.key);
        case ListKind::resource_templates: return declared->find_resource_template(target.key) != nullptr;
      }
      return false;
    }();
    if (!in) {
      return Error::invalid_params(std::string(item_noun(target.kind)) + " '" + peer_text(target.key) + "' of " +
                                   options_.name + " is outside the signature configured for it at the gateway");
    }
  }
  return refusal(target.kind, target.key);
}

}  // namespace mcp::gateway
