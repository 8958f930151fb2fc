// Proxy, the requests it forwards to its upstream (proxy.hpp): calls, gets and reads across the
// rounds of their client's input (bridge.hpp), completion, subscriptions, and the audit record
// each answer goes through. proxy.cpp keeps what the proxy mirrors: lists, pins and signatures.
#include <algorithm>
#include <chrono>
#include <utility>

#include "gateway/call_audit.hpp"
#include "gateway/call_record.hpp"
#include "gateway/proxy.hpp"
#include "log/log.hpp"
#include "log/log_budget.hpp"
#include "mcp/protocol/input_required.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/session/thread_pool.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp::gateway {

namespace {

template <class R>
std::string_view outcome_of(const Result<R>& r) {
  if (!r) return "error";
  if constexpr (std::is_same_v<R, json::object>) {  // a tool's result, as the upstream sent it
    const json::value* is_error = r->if_contains("isError");
    if (is_error && is_error->is_bool() && is_error->get_bool()) return "tool-error";
  }
  return "ok";
}

}  // namespace

void Proxy::call_tool(const std::string& name, const json::object& args, std::shared_ptr<RequestContext> ctx,
                      Reply<json::object> reply) {
  // The arguments are copied once, into the upstream's request: begin() starts the upstream call
  // once, so the start moves that copy out (arguments may be megabytes; each copy showed in the
  // bench's --argument-bytes runs). The result comes back as the upstream wrote it and goes on
  // so (call_tool_json_async, add_async_json_tool): decoding it into a CallToolResult and
  // writing it again was ~8% of the serving thread's work per call (bench/RESULTS.md).
  auto sent = std::make_shared<json::object>(args);
  forward<json::object>(method::kToolsCall, name, args, std::move(ctx), std::move(reply),
                        [name, sent](Client& up, CallOptions o, std::function<void(Result<json::object>)> done) {
                          up.call_tool_json_async(name, std::move(*sent), std::move(o), std::move(done));
                        },
                        Target{ListKind::tools, name});
}

void Proxy::get_prompt(const std::string& name, const std::map<std::string, std::string>& args,
                       std::shared_ptr<RequestContext> ctx, Reply<GetPromptResult> reply) {
  json::object recorded;
  for (const auto& [k, v] : args) recorded[k] = v;
  forward<GetPromptResult>(method::kPromptsGet, name, recorded, std::move(ctx), std::move(reply),
                           [name, args](Client& up, CallOptions o, std::function<void(Result<GetPromptResult>)> done) {
                             up.get_prompt_async(name, args, std::move(o), std::move(done));
                           },
                           Target{ListKind::prompts, name});
}

void Proxy::read_resource(const std::string& uri, std::shared_ptr<RequestContext> ctx, Reply<ReadResourceResult> reply,
                          const std::string& via_template) {
  forward<ReadResourceResult>(method::kResourcesRead, uri, json::object{}, std::move(ctx), std::move(reply),
                              [uri](Client& up, CallOptions o, std::function<void(Result<ReadResourceResult>)> done) {
                                up.read_resource_async(uri, std::move(o), std::move(done));
                              },
                              via_template.empty() ? Target{ListKind::resources, uri}
                                                   : Target{ListKind::resource_templates, via_template, uri});
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
struct Proxy::Forwarded final : Flight {
  explicit Forwarded(CallFacts f) : facts(std::move(f)) {}
  const CallFacts facts;
  std::weak_ptr<Proxy> proxy;
  // The first round's request, answered when the upstream's answer lands, or by the round
  // promoted() starts if the upstream asks for input first (which of the two: Flight's lock).
  std::shared_ptr<RequestContext> ctx;
  std::optional<Reply<R>> reply;
  // A cancel of the first round's request cancels the upstream's (the token, Flight's) until
  // that round is answered.
  std::atomic<bool> first_round = true;
  std::mutex mu;
  std::optional<Result<R>> result;

  void promoted(const std::shared_ptr<PendingCall>& call) override {
    auto self = std::static_pointer_cast<Forwarded>(shared_from_this());
    call->set_payload(self);
    auto owner = proxy.lock();
    Reply<R> first = std::move(*reply);
    reply.reset();
    if (!owner) return void(first(fail(Error::internal("the gateway is stopping"))));
    owner->round<R>(call, self, std::move(ctx), std::move(first),
                    std::shared_ptr<std::atomic<bool>>(self, &first_round));
  }
};

template <class R>
void Proxy::forward(std::string_view method, const std::string& item, const json::object& arguments,
                    std::shared_ptr<RequestContext> ctx, Reply<R> reply, Start<R> start, Target admitted) {
  // A request the gateway answers itself is recorded as refused (call_audit.hpp).
  auto refuse = [&](Error why, std::string digest = {}) {
    if (digest.empty()) digest = arguments_digest(trust::canonicalize(arguments));
    reply(record<R>(facts(method, item, std::move(digest), *ctx), fail(std::move(why)), true));
  };
  if (const auto& state = ctx->request_state()) {
    // A retry: the call is waiting at the gateway; its client's answers go to the upstream's
    // requests that wait for them.
    const json::object* o = state->if_object();
    const json::value* id = o ? o->if_contains(kCallState) : nullptr;
    auto call = id && id->is_string() ? bridge_.find(std::string(id->get_string())) : nullptr;
    auto fwd = call ? std::static_pointer_cast<Forwarded<R>>(call->payload()) : nullptr;
    if (!call || !fwd || fwd->facts.method != method || fwd->facts.item != item) {
      return refuse(Error::invalid_params("this " + std::string(method) + " is no longer waiting for input at the gateway (it ended "
                                          "or was forgotten): send the original request again, without inputResponses or requestState"));
    }
    // The upstream answered while the client was away (its questions went unanswered): the retry
    // takes that answer, whatever round it answers; only the first retry gets it (round()).
    if (call->ended()) return round<R>(std::move(call), std::move(fwd), std::move(ctx), std::move(reply));
    // The state names the round it answers: a retry of an earlier round (replayed) is refused.
    const json::value* asked = o->if_contains(kAskedState);
    const auto keys = call->awaiting();
    json::array awaiting;
    for (const auto& key : keys) awaiting.emplace_back(json::string(key));
    if (!asked || *asked != json::value(awaiting)) {
      return refuse(Error::invalid_params("this retry answers an earlier round of the " + std::string(method) +
                                          " than the one waiting at the gateway: send the latest requestState"));
    }
    for (const auto& key : keys) {
      if (const json::object* answer = ctx->input_response(key)) call->answer(key, json::value(*answer));
    }
    call->ask_again();  // what the retry left unanswered
    return round<R>(std::move(call), std::move(fwd), std::move(ctx), std::move(reply));
  }
  // The arguments in RFC 8785 form: hashed for the audit record, and shown to a person asked.
  auto canonical = trust::canonicalize(arguments);
  std::string digest = arguments_digest(canonical);
  if (!options_.policy.asks(item)) {
    auto call = facts(method, item, std::move(digest), *ctx);  // before ctx is moved from
    return begin<R>(std::move(call), std::move(ctx), std::move(reply), std::move(start));
  }
  // The policy asks a person first (approvals.hpp): the request waits, holding no thread, and
  // its client is told where to decide while it waits.
  auto approvals = options_.approvals;
  if (!approvals) {
    return refuse(Error::invalid_params(std::string(method) + " of " + peer_text(item) + " (upstream " + options_.name +
                                        ") waits for a person to allow it, and this gateway has nobody to ask"),
                  std::move(digest));
  }
  // The call's facts are taken now: a denial, or the call's record once allowed, measures the wait.
  auto call_facts = facts(method, item, digest, *ctx);
  Ask ask{.server = options_.name, .method = std::string(method), .item = item, .client = ctx->session_id(),
          .arguments = canonical ? *canonical : std::string("(not canonicalisable)"), .digest = std::move(digest)};
  const double total = std::chrono::duration<double>(options_.ask_timeout).count();
  auto asked = approvals->ask(
      std::move(ask), options_.ask_timeout,
      [ctx, total](std::chrono::seconds waited, const std::string& message) {
        ctx->progress(static_cast<double>(waited.count()), total, message);
      },
      [weak = weak_from_this(), call_facts, ctx, reply, start, admitted = std::move(admitted)](Result<void> allowed) mutable {
        auto self = weak.lock();
        if (!self) return void(reply(fail(Error::internal("the gateway is stopping"))));
        auto refuse_waited = [&](Error why) { reply(self->record<R>(call_facts, fail(std::move(why)), true)); };
        if (!allowed) return refuse_waited(std::move(allowed.error()));
        if (ctx->cancelled()) return refuse_waited(Error::cancelled("the request was cancelled while it waited"));
        // The item may have changed while the call waited (a person allowed the call they saw,
        // not a definition quarantined since): it is admitted again, as it was the first time.
        if (auto refused = self->admission(admitted)) return refuse_waited(std::move(*refused));
        self->begin<R>(std::move(call_facts), std::move(ctx), std::move(reply), std::move(start));
      });
  if (!asked) return void(reply(record<R>(call_facts, fail(std::move(asked.error())), true)));
  // The context is held weakly: the token keeps this callback, and a callback holding the token
  // (through the context) would keep both forever.
  ctx->cancellation().on_cancel([weak = std::weak_ptr<Approvals>(approvals), id = asked->id,
                                 context = std::weak_ptr<RequestContext>(ctx)] {
    auto a = weak.lock();
    if (!a) return;
    auto c = context.lock();
    a->withdraw(id, "the request was cancelled while it waited" + (c ? " (" + peer_text(c->cancellation().reason(), 128) + ")" : std::string()));
  });
}

template <class R>
void Proxy::begin(CallFacts call, std::shared_ptr<RequestContext> ctx, Reply<R> reply, Start<R> start) {
  // A forwarded call's latency is the upstream's time, not a person's who was asked first.
  call.start = std::chrono::steady_clock::now();
  auto fwd = std::make_shared<Forwarded<R>>(std::move(call));
  fwd->proxy = weak_from_this();
  if (auto entered = bridge_.enter(fwd); !entered) return void(reply(record<R>(fwd->facts, fail(std::move(entered.error())), true)));
  // Held weakly: the context's token keeps this callback, and the flight keeps the context.
  ctx->cancellation().on_cancel([weak = std::weak_ptr<Forwarded<R>>(fwd)] {
    auto f = weak.lock();
    if (f && f->first_round.load()) f->upstream_token().cancel("cancelled by the client");
  });
  fwd->ctx = std::move(ctx);
  fwd->reply = std::move(reply);
  CallOptions o{.cancel = fwd->upstream_token()};  // named: no token of its own made and dropped
  // The answer arrives on the upstream client's reader thread; no thread waits while it works.
  start(*upstream(), std::move(o), [fwd](Result<R> r) { landed<R>(fwd, std::move(r)); });
}

template <class R>
void Proxy::landed(const std::shared_ptr<Forwarded<R>>& fwd, Result<R> r) {
  auto self = fwd->proxy.lock();
  if (auto call = self ? self->bridge_.land(*fwd) : fwd->land()) {
    // Asked for input on the way: the call's round answers its client (round()), once ended. It
    // is recorded now, when the upstream has answered, not when a retry claims the answer: its
    // client may never come back for it.
    if (self) r = self->template record<R>(fwd->facts, std::move(r));
    {
      std::lock_guard lock(fwd->mu);
      fwd->result = std::move(r);
    }
    return call->end();
  }
  fwd->first_round.store(false);
  Reply<R> reply = std::move(*fwd->reply);
  fwd->reply.reset();
  fwd->ctx.reset();
  if (!self) return void(reply(std::move(r)));
  reply(self->template record<R>(fwd->facts, std::move(r)));
}

template <class R>
void Proxy::round(std::shared_ptr<PendingCall> call, std::shared_ptr<Forwarded<R>> fwd,
                  std::shared_ptr<RequestContext> ctx, Reply<R> reply, std::shared_ptr<std::atomic<bool>> live) {
  if (!live) {
    // A cancel of this round's request cancels the upstream's, until this round is answered (a
    // retry's request may end while the call goes on).
    live = std::make_shared<std::atomic<bool>>(true);
    ctx->cancellation().on_cancel([live, cancel = fwd->upstream_token()] {
      if (live->load()) cancel.cancel("cancelled by the client");
    });
  }
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
      if (!r) {
        Error again = Error::invalid_params("this " + std::string(fwd->facts.method) + " was already answered");
        if (!self) return void(reply(fail(std::move(again))));
        // A record of this retry's own (its session, its client), not of the call it named.
        auto retry = self->facts(fwd->facts.method, fwd->facts.item, fwd->facts.digest, *ctx);
        return void(reply(self->record<R>(retry, fail(std::move(again)), true)));
      }
      if (!self) return void(reply(std::move(*r)));
      self->bridge_.finish(call->id());
      return void(reply(std::move(*r)));  // recorded when it landed
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
    reply(record<R>(facts(fwd->facts.method, fwd->facts.item, fwd->facts.digest, *ctx),
                    fail(Error::invalid_params("another request is already continuing this " + std::string(fwd->facts.method) + " at the gateway")),
                    true));
  }
}

Proxy::CallFacts Proxy::facts(std::string_view method, const std::string& item, std::string digest,
                              const RequestContext& ctx) const {
  return CallFacts{.method = method, .item = item, .digest = std::move(digest), .client = ctx.client_view()};
}

template <class R>
Result<R> Proxy::record(const CallFacts& call, Result<R> r, bool refused) {
  // The upstream's own errors pass as they are; ours (it exited, timed out, the connection
  // dropped) say which upstream.
  if (!r && !refused && !r.error().from_peer) r.error().message = "upstream " + options_.name + ": " + r.error().message;
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - call.start);
  // A call record survives the gateway being killed once this returns (journaled, or committed:
  // call_journal.hpp); it reaches the disk with the next decision or checkpoint (an fsync per
  // call would cost ~1 ms).
  auto a = audit_call(*audit_, options_.metrics.get(),
                      CallAudit{.server = options_.name,
                                .method = call.method,
                                .item = call.item,
                                .arguments = call.digest,
                                .client = call.client->session_id,
                                .client_info = call.client->client_label,
                                .latency = elapsed,
                                .outcome = refused ? std::string_view("refused") : outcome_of(r),
                                .error = r ? nullptr : &r.error()});
  if (!a) {
    // An unrecorded request is not answered: the log must hold every call that happened.
    return fail(Error::internal("the gateway could not record the call: " + a.error().message));
  }
  return r;
}

void Proxy::watch(const std::string& uri, bool on, std::function<void(Result<void>)> done) {
  if (!on) {
    // The last watcher may go as a session is torn down: the unsubscribe goes out without waiting,
    // unless the URI is watched again by then (the holds keep the order).
    watches_->release(uri);
    return done({});
  }
  watches_->hold(
      uri,
      [weak = weak_from_this()](const std::string& key, bool turn_on, std::function<void(Result<void>)> turned) {
        auto self = weak.lock();
        if (!self)
          return turned(turn_on ? Result<void>(fail(Error::internal("the gateway is stopping"))) : Result<void>{});
        self->turn_upstream(key, turn_on, std::move(turned));
      },
      std::move(done));
}

void Proxy::turn_upstream(const std::string& uri, bool on, std::function<void(Result<void>)> done) {
  {
    // Before the request: an update may arrive before its answer does; none is passed on once the
    // unsubscribe is on its way.
    std::lock_guard updates(subscribed_mu_);
    if (on)
      subscribed_.insert(uri);
    else
      subscribed_.erase(uri);
  }
  auto answered = [weak = weak_from_this(), uri, on, done = std::move(done)](Result<void> r) {
    auto self = weak.lock();
    if (r || !self) return done(std::move(r));
    if (!on) {
      MCP_LOG_WARN_WITHIN(self->watch_warnings_, "gateway {}: unsubscribing from {} failed: {}", self->options_.name,
                          peer_text(uri), peer_text(r.error().message));
      return done({});
    }
    {
      std::lock_guard updates(self->subscribed_mu_);
      self->subscribed_.erase(uri);
    }
    done(fail(Error{r.error().code,
                    "upstream " + self->options_.name + " refused the subscription: " + peer_text(r.error().message),
                    {}}));
  };
  if (on)
    upstream()->subscribe_async(uri, std::move(answered));
  else
    upstream()->unsubscribe_async(uri, std::move(answered));
}

void Proxy::resource_updated(const std::string& uri) {
  {
    // Only what the gateway subscribed to at this upstream: an upstream announcing a URI it was
    // not asked about (one that /mcp serves through another upstream's template, say) is not
    // heard.
    std::lock_guard updates(subscribed_mu_);
    if (!subscribed_.contains(uri)) return;
  }
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
  // The URIs watched now. One whose subscribe was under way went to the old session: its watchers
  // get that session's answer (an error, as it closed), and may subscribe again.
  for (const auto& uri : watches_->keys_on()) {
    if (auto r = upstream()->subscribe(uri); !r) {
      MCP_LOG_WARN("gateway {}: subscribing again to {} after a restart failed: {}", options_.name, peer_text(uri),
                   peer_text(r.error().message));
    }
  }
}

}  // namespace mcp::gateway
