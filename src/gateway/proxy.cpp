#include "gateway/proxy.hpp"

#include <chrono>
#include <set>

#include "gateway/forwarding.hpp"
#include "mcp/protocol/input_required.hpp"
#include "mcp/session/thread_pool.hpp"
#include "gateway/key.hpp"
#include "log/log.hpp"
#include "mcp/signature/derive.hpp"
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

Result<void> Proxy::watch(const std::string& uri, bool on) {
  // Held across the upstream's answer, so two subscribes of one URI cannot both go out.
  std::lock_guard lock(watch_mu_);
  if (!on) {
    auto it = watched_.find(uri);
    if (it == watched_.end() || --it->second > 0) return {};
    watched_.erase(it);
    // The last watcher may go as a session is torn down, on a thread that must not wait on the
    // upstream: the unsubscribe goes out from the pool, unless the URI is watched again by then.
    auto job = [weak = weak_from_this(), uri] {
      auto self = weak.lock();
      if (!self) return;
      std::lock_guard again(self->watch_mu_);
      if (self->watched_.contains(uri)) return;
      if (auto r = self->upstream()->unsubscribe(uri); !r) {
        MCP_LOG_WARN("gateway {}: unsubscribing from {} failed: {}", self->options_.name, peer_text(uri), r.error().message);
      }
    };
    if (!ThreadPool::shared()->post(job)) MCP_LOG_WARN("gateway {}: no thread to unsubscribe from {}", options_.name, peer_text(uri));
    return {};
  }
  if (int& n = watched_[uri]; n++ > 0) return {};
  if (auto r = upstream()->subscribe(uri); !r) {
    watched_.erase(uri);
    return fail(Error{r.error().code, "upstream " + options_.name + " refused the subscription: " + r.error().message, {}});
  }
  return {};
}

void Proxy::resource_updated(const std::string& uri) {
  server_->notify_resource_updated(uri);
  std::shared_ptr<ProxyObserver> observer;
  {
    // Not refresh_mu_: this runs on the upstream's reader thread, which a refresh waits on.
    std::lock_guard lock(observer_mu_);
    observer = observer_.lock();
  }
  if (observer) observer->resource_updated(*this, uri);
}

void Proxy::resubscribe() {
  std::lock_guard lock(watch_mu_);
  for (const auto& [uri, n] : watched_) {
    if (auto r = upstream()->subscribe(uri); !r) {
      MCP_LOG_WARN("gateway {}: subscribing again to {} after a restart failed: {}", options_.name, peer_text(uri), r.error().message);
    }
  }
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
  std::string serialized = json::serialize(to_json(vouched));
  if (serialized == vouched_json_) return;
  // Not held to it: a decision made elsewhere shows at once in lists (the pin stage asks the store
  // each time), before the refresher has re-derived this; a client that holds the gateway to the
  // signature it was given sees such a change as outside it, as SEP-2091 means it to.
  if (auto ok = server_->set_signature(std::move(vouched), serving(false)); !ok) {
    // Over the signature's limits: the gateway vouches for nothing rather than for an older set
    // (which may hold items rejected since).
    MCP_LOG_ERROR("gateway {}: cannot serve the derived signature ({}); serving an empty one", options_.name,
                  ok.error().message);
    (void)server_->set_signature(ServerSignature{}, serving(false));
    serialized = json::serialize(to_json(ServerSignature{}));
  }
  vouched_json_ = std::move(serialized);
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
      MCP_LOG_WARN("gateway {}: the upstream lists {} '{}' twice; serving the first", options_.name, item_noun(kind),
                   peer_text(key_of(item)));
      return true;
    });
  }
  std::map<std::string, PinState> states;
  // Each item's definition, once as JSON (for its pin and the observer) and once serialized (to
  // tell what changed since it was registered).
  std::vector<json::value> definitions;
  std::vector<std::string> serialized;
  definitions.reserve(listed->size());
  serialized.reserve(listed->size());
  for (const auto& item : *listed) {
    const json::value& definition = definitions.emplace_back(to_json(item));
    auto state = pins_->observe(options_.name, kind, key_of(item), definition.as_object(), options_.new_items);
    if (!state) return fail(state.error());
    states[key_of(item)] = *state;
    serialized.push_back(json::serialize(definition));
    if (*state == PinState::approved) {
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
  auto remove = [&](const std::string& key) { unserve(*server_, kind, key); };
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
                        MCP_LOG_WARN("gateway {}: not serving template {}: {}", options_.name, peer_text(t.uri_template),
                                     added.error().message);
                    },
                    remove, vouched);
  }
  return false;
}

void Proxy::call_tool(const std::string& name, const json::object& args, std::shared_ptr<RequestContext> ctx,
                      Reply<CallToolResult> reply) {
  forward<CallToolResult>(method::kToolsCall, name, args, std::move(ctx), std::move(reply),
                          [name, args](Client& up, CallOptions o, std::function<void(Result<CallToolResult>)> done) {
                            up.call_tool_async(name, args, std::move(o), std::move(done));
                          });
}

void Proxy::get_prompt(const std::string& name, const std::map<std::string, std::string>& args,
                       std::shared_ptr<RequestContext> ctx, Reply<GetPromptResult> reply) {
  json::object recorded;
  for (const auto& [k, v] : args) recorded[k] = v;
  forward<GetPromptResult>(method::kPromptsGet, name, recorded, std::move(ctx), std::move(reply),
                           [name, args](Client& up, CallOptions o, std::function<void(Result<GetPromptResult>)> done) {
                             up.get_prompt_async(name, args, std::move(o), std::move(done));
                           });
}

void Proxy::read_resource(const std::string& uri, std::shared_ptr<RequestContext> ctx, Reply<ReadResourceResult> reply) {
  forward<ReadResourceResult>(method::kResourcesRead, uri, json::object{}, std::move(ctx), std::move(reply),
                              [uri](Client& up, CallOptions o, std::function<void(Result<ReadResourceResult>)> done) {
                                up.read_resource_async(uri, std::move(o), std::move(done));
                              });
}

void Proxy::complete(CompleteRequestParams params, const RequestContext& ctx, Reply<CompleteResult> reply) {
  const Target target = std::visit(
      [](const auto& ref) {
        if constexpr (std::is_same_v<std::decay_t<decltype(ref)>, PromptReference>) return Target{ListKind::prompts, ref.name};
        else return Target{ListKind::resource_templates, ref.uri};
      },
      params.ref);
  if (auto refused = admission(target)) return void(reply(fail(std::move(*refused))));
  {
    // Only for what the upstream lists (and so was pinned): a name it never listed is not asked of it.
    std::lock_guard lock(mu_);
    const auto listed = listed_states_.find(target.kind);
    if (listed == listed_states_.end() || !listed->second.contains(target.key)) {
      return void(reply(fail(Error::invalid_params(std::string(item_noun(target.kind)) + " '" + peer_text(target.key) +
                                                   "' is not offered by upstream " + options_.name))));
    }
  }
  auto up = upstream();
  if (!up->server_supports("completions")) {
    return void(reply(fail(Error::method_not_found("completion/complete (upstream " + options_.name + " offers no completions)"))));
  }
  CallOptions o;
  o.cancel = ctx.cancellation();
  up->complete_async(params, std::move(o), [name = options_.name, reply](Result<CompleteResult> r) {
    if (!r && !r.error().from_peer) r.error().message = "upstream " + name + ": " + r.error().message;
    reply(std::move(r));
  });
}

namespace {

// The members of the request state that name the bridged call (bridge.hpp) a retry continues, and
// the keys of the round it answers.
constexpr std::string_view kCallState = "gatewayCall";
constexpr std::string_view kAskedState = "asked";

}  // namespace

// One forwarded call, across the rounds of its client's input (bridge.hpp): what the upstream
// answered, and what the audit record needs.
template <class R>
struct Proxy::Forwarded {
  std::string method;
  std::string item;
  std::string digest;
  std::string client;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  CancellationToken cancel;  // the upstream request's: a cancel of any round's request reaches it
  std::mutex mu;
  std::optional<Result<R>> result;
};

template <class R>
void Proxy::forward(std::string_view method, const std::string& item, const json::object& arguments,
                    std::shared_ptr<RequestContext> ctx, Reply<R> reply,
                    std::function<void(Client&, CallOptions, std::function<void(Result<R>)>)> start) {
  if (const auto& state = ctx->request_state()) {
    // A retry: the call is waiting at the gateway; its client's answers go to the upstream's
    // requests that wait for them.
    const json::object* o = state->if_object();
    const json::value* id = o ? o->if_contains(kCallState) : nullptr;
    auto call = id && id->is_string() ? bridge_.find(std::string(id->get_string())) : nullptr;
    auto fwd = call ? std::static_pointer_cast<Forwarded<R>>(call->payload()) : nullptr;
    if (!call || !fwd || fwd->method != method || fwd->item != item) {
      return void(reply(fail(Error::invalid_params("this " + std::string(method) + " is no longer waiting for input at the gateway (it ended "
                                              "or was forgotten): send the original request again, without inputResponses or requestState"))));
    }
    // The state names the round it answers: a retry of an earlier round (replayed) is refused.
    const json::value* asked = o->if_contains(kAskedState);
    json::array awaiting;
    for (const auto& key : call->awaiting()) awaiting.emplace_back(json::string(key));
    if (!asked || *asked != json::value(awaiting)) {
      return void(reply(fail(Error::invalid_params("this retry answers an earlier round of the " + std::string(method) +
                                                   " than the one waiting at the gateway: send the latest requestState"))));
    }
    for (const auto& key : call->awaiting()) {
      if (const json::object* answer = ctx->input_response(key)) call->answer(key, json::value(*answer));
    }
    call->ask_again();  // what the retry left unanswered
    return round<R>(std::move(call), std::move(fwd), std::move(ctx), std::move(reply));
  }
  auto fwd = std::make_shared<Forwarded<R>>();
  auto begun = bridge_.begin(fwd->cancel);
  if (!begun) return void(reply(fail(begun.error())));
  auto call = std::move(*begun);
  fwd->method = std::string(method);
  fwd->item = item;
  fwd->digest = digest_of(arguments);
  fwd->client = ctx->session_id();
  call->set_payload(fwd);
  CallOptions o;
  o.cancel = fwd->cancel;
  // The answer arrives on the upstream client's reader thread; no thread waits while it works.
  start(*upstream(), std::move(o), [fwd, call](Result<R> r) {
    {
      std::lock_guard lock(fwd->mu);
      fwd->result = std::move(r);
    }
    call->end();
  });
  round<R>(std::move(call), std::move(fwd), std::move(ctx), std::move(reply));
}

template <class R>
void Proxy::round(std::shared_ptr<PendingCall> call, std::shared_ptr<Forwarded<R>> fwd, std::shared_ptr<RequestContext> ctx,
                  Reply<R> reply) {
  // A cancel of this round's request cancels the upstream's, until this round is answered (a
  // retry's request may end while the call goes on).
  auto live = std::make_shared<std::atomic<bool>>(true);
  ctx->cancellation().on_cancel([live, cancel = fwd->cancel] {
    if (live->load()) cancel.cancel("cancelled by the client");
  });
  const bool waiting = call->next([weak = weak_from_this(), call, fwd, ctx, reply, live](bool ended, InputRequests asks) mutable {
    auto self = weak.lock();
    if (ended) {
      live->store(false);
      // Taken once: a replayed retry that raced the one that took it gets an error, not a copy.
      std::optional<Result<R>> r;
      {
        std::lock_guard lock(fwd->mu);
        r.swap(fwd->result);
      }
      if (!r) return void(reply(fail(Error::invalid_params("this " + fwd->method + " was already answered"))));
      if (!self) return void(reply(std::move(*r)));
      self->bridge_.finish(call->id());
      return void(reply(self->record<R>(fwd->method, fwd->item, fwd->digest, fwd->client, fwd->start, std::move(*r))));
    }
    // What this client cannot answer (it did not declare the capability) is refused at the
    // upstream, which may well go on without it; the rest is asked of the client.
    InputRequests pass;
    for (auto& [key, request] : asks) {
      const auto capability = input_request_capability(request);
      if (!capability.empty() && ctx->client_supports(capability)) {
        pass.emplace(key, std::move(request));
      } else {
        call->answer(key, fail(Error::method_not_found(request.method + " (the client calling through mcp-trust gateway did not declare the '" +
                                                       std::string(capability) + "' capability)")));
      }
    }
    if (pass.empty() || !self) {
      if (!self) return void(reply(fail(Error::internal("the gateway is stopping"))));
      return self->round<R>(std::move(call), std::move(fwd), std::move(ctx), std::move(reply));
    }
    live->store(false);
    json::array keys;
    for (const auto& key : call->awaiting()) keys.emplace_back(json::string(key));
    reply(ctx->input_required(std::move(pass), json::object{{kCallState, call->id()}, {kAskedState, std::move(keys)}}));
  });
  if (!waiting) {
    live->store(false);
    reply(fail(Error::invalid_params("another request is already continuing this " + fwd->method + " at the gateway")));
  }
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
