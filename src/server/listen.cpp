// subscriptions/listen (MCP 2026-07-28, basic/patterns/subscriptions.mdx): the one request on which
// a stateless client receives change notifications. The request is never answered while it lasts:
// its first message is notifications/subscriptions/acknowledged with what the server honours, then
// each list_changed or resources/updated it opted in to, every one tagged with the listen's id in
// _meta["io.modelcontextprotocol/subscriptionId"] and sent as related to it (over HTTP, on its SSE
// stream). It ends when the client cancels it (notifications/cancelled on stdio; closing the
// stream over HTTP, which ends the request's session) or the connection closes, or the server
// closes the session (shutdown, expiry): then it is answered, `{"resultType": "complete"}`.
#include <algorithm>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

bool wants(const SubscriptionFilter& f, std::string_view method, const std::string& uri) {
  if (method == method::kToolsListChanged) return f.tools_list_changed.value_or(false);
  if (method == method::kPromptsListChanged) return f.prompts_list_changed.value_or(false);
  if (method == method::kResourcesListChanged) return f.resources_list_changed.value_or(false);
  if (method == method::kResourcesUpdated)
    return std::find(f.resource_subscriptions.begin(), f.resource_subscriptions.end(), uri) != f.resource_subscriptions.end();
  return false;
}

json::object tagged(json::object params, const jsonrpc::Id& id) {
  json::value& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object{};
  meta.as_object()[meta_key::kSubscriptionId] = id;
  return params;
}

// The watches of `uris`, taken together: `done` (from any thread) once every one has come, with all
// of them, or with the first refusal (the others then let go).
void watch_all(Server::Impl& server, const std::vector<std::string>& uris,
               std::function<void(Result<std::vector<WatchLease>>)> done) {
  if (uris.empty()) return done(std::vector<WatchLease>{});
  struct Gather {
    std::mutex mu;
    std::size_t left;
    std::vector<WatchLease> leases;
    std::optional<Error> refused;
    std::function<void(Result<std::vector<WatchLease>>)> done;
  };
  auto g = std::make_shared<Gather>();
  g->left = uris.size();
  g->done = std::move(done);
  for (const auto& uri : uris) {
    server.watch_uri(uri, [g](Result<WatchLease> lease) {
      std::unique_lock lock(g->mu);
      if (lease)
        g->leases.push_back(std::move(*lease));
      else if (!g->refused)
        g->refused = std::move(lease.error());
      if (--g->left > 0) return;
      auto leases = std::move(g->leases);
      auto refused = std::move(g->refused);
      auto finished = std::move(g->done);
      lock.unlock();
      if (refused) {
        leases.clear();  // let go before the refusal is answered
        return finished(fail(std::move(*refused)));
      }
      finished(std::move(leases));
    });
  }
}

}  // namespace

void ServerSessionImpl::listen(InboundRequest& in, Responder reply) {
  auto params = from_json<SubscriptionsListenRequestParams>(in.params);
  if (!params) {
    reply(fail(Error::invalid_params(in.method + ": " + params.error().message)));
    return;
  }
  const auto& opts = server_->opts;
  SubscriptionFilter honoured;
  // Tools, prompts and resources are always declared, so their list changes are always honoured;
  // resource updates only if the server offers them, and within the same bounds as resources/subscribe.
  using Flag = std::optional<bool> SubscriptionFilter::*;
  for (Flag flag : {&SubscriptionFilter::tools_list_changed, &SubscriptionFilter::prompts_list_changed,
                    &SubscriptionFilter::resources_list_changed}) {
    if (params->notifications.*flag == true) honoured.*flag = true;
  }
  const auto& uris = params->notifications.resource_subscriptions;
  if (opts.resource_subscriptions && !uris.empty()) {
    if (uris.size() > opts.max_subscriptions) {
      reply(fail(Error::invalid_params(in.method + ": " + std::to_string(uris.size()) + " resourceSubscriptions, over the limit of " +
                                       std::to_string(opts.max_subscriptions) + " (max_subscriptions)")));
      return;
    }
    for (const auto& uri : uris) {
      if (uri.size() > opts.max_uri_bytes) {
        reply(fail(Error::invalid_params(in.method + ": a resourceSubscriptions uri is " + std::to_string(uri.size()) +
                                         " bytes, over the limit of " + std::to_string(opts.max_uri_bytes) + " (max_uri_bytes)")));
        return;
      }
    }
    honoured.resource_subscriptions = uris;
  }
  {
    // Counted while their watches are taken too, so a client cannot open more by sending them fast.
    std::lock_guard lock(mu_);
    if (listens_.size() + opening_listens_ >= opts.max_listens) {
      reply(fail(Error::invalid_params(in.method + ": this connection already holds " +
                                       std::to_string(listens_.size() + opening_listens_) +
                                       " subscriptions/listen requests, the limit (max_listens)")));
      return;
    }
    ++opening_listens_;
  }
  // The watches of its resources (ResourceTree::watch), all of them before the listen is in force;
  // nothing waits on a thread meanwhile.
  watch_all(*server_, honoured.resource_subscriptions,
            [weak = weak_from_this(), id = in.id, method = in.method, cancel = in.cancel, honoured,
             reply](Result<std::vector<WatchLease>> watches) mutable {
              auto self = weak.lock();
              if (!self) return;  // the leases go with this callback, the listen with its session
              {
                std::lock_guard lock(self->mu_);
                --self->opening_listens_;
              }
              if (!watches) {
                reply(fail(Error{watches.error().code, method + ": " + watches.error().message, watches.error().data}));
                return;
              }
              self->open_listen(id, cancel, std::move(honoured), std::move(*watches), std::move(reply));
            });
}

void ServerSessionImpl::open_listen(const jsonrpc::Id& id, CancellationToken cancel, SubscriptionFilter honoured,
                                    std::vector<WatchLease> watches, Responder reply) {
  const std::string key = jsonrpc::id_key(id);
  {
    std::lock_guard lock(mu_);
    // The connection closed while the watches were taken: nobody to listen (they go after the lock).
    if (gone_) return;
    listens_.emplace(key, Listen{id, honoured, std::move(watches), std::move(reply)});
  }
  // Sent outside the lock (a closing session's notify may wait for its close, which needs the
  // lock); the listen receives nothing until its acknowledgement is out, so that comes first.
  (void)session_->notify(method::kSubscriptionsAcknowledged,
                         tagged(json::object{{"notifications", to_json(honoured)}}, id), id);
  std::vector<std::pair<std::string, json::object>> held;
  {
    std::lock_guard lock(mu_);
    if (auto it = listens_.find(key); it != listens_.end()) {
      it->second.acknowledged = true;
      held.swap(it->second.held.items);
    }
  }
  for (auto& [m, p] : held) (void)session_->notify(m, tagged(std::move(p), id), id);
  // Cancelled by the client (or the connection gone): forget it; its Responder goes with it.
  cancel.on_cancel([weak = weak_from_this(), key] {
    if (auto self = weak.lock()) {
      std::optional<Listen> gone;  // its watches go after the lock
      std::lock_guard lock(self->mu_);
      if (auto it = self->listens_.find(key); it != self->listens_.end()) {
        gone.emplace(std::move(it->second));
        self->listens_.erase(it);
      }
    }
  });
}

void ServerSessionImpl::end_listens() {
  std::map<std::string, Listen> ending;  // answered, and their watches let go, after the lock
  {
    std::lock_guard lock(mu_);
    ending.swap(listens_);
  }
  // SubscriptionsListenResult: "complete", naming the subscription (schema.mdx). A listen whose
  // peer has gone is answered into nothing.
  for (auto& [key, l] : ending) {
    (void)l.reply(json::value(tagged(json::object{{"resultType", "complete"}}, l.id)));
  }
}

void ServerSessionImpl::notify_listeners(std::string_view method, const json::object& params, const std::string& uri) {
  std::vector<jsonrpc::Id> to;
  {
    std::lock_guard lock(mu_);
    for (auto& [key, l] : listens_) {
      if (!wants(l.filter, method, uri)) continue;
      if (l.acknowledged) {
        to.push_back(l.id);
      } else {
        l.held.hold(method, params);  // sent right after the acknowledgement
      }
    }
  }
  for (const auto& id : to) (void)session_->notify(method, tagged(params, id), id);
}

}  // namespace mcp
