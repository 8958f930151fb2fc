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
  // The watches of its resources (ResourceTree::watch), taken outside mu_ like resources/subscribe's.
  std::vector<WatchLease> watches;
  for (const auto& uri : honoured.resource_subscriptions) {
    auto lease = server_->watch_uri(uri);
    if (!lease) {
      reply(fail(Error{lease.error().code, in.method + ": " + lease.error().message, lease.error().data}));
      return;
    }
    watches.push_back(std::move(*lease));
  }
  const std::string key = jsonrpc::id_key(in.id);
  {
    std::lock_guard lock(mu_);
    if (listens_.size() >= opts.max_listens) {
      reply(fail(Error::invalid_params(in.method + ": this connection already holds " + std::to_string(listens_.size()) +
                                       " subscriptions/listen requests, the limit (max_listens)")));
      return;  // `watches` go after the lock
    }
    listens_.emplace(key, Listen{in.id, honoured, std::move(watches), std::move(reply)});
  }
  // Sent outside the lock (a closing session's notify may wait for its close, which needs the
  // lock); the listen receives nothing until its acknowledgement is out, so that comes first.
  (void)session_->notify(method::kSubscriptionsAcknowledged,
                         tagged(json::object{{"notifications", to_json(honoured)}}, in.id), in.id);
  std::vector<std::pair<std::string, json::object>> held;
  {
    std::lock_guard lock(mu_);
    if (auto it = listens_.find(key); it != listens_.end()) {
      it->second.acknowledged = true;
      held.swap(it->second.held.items);
    }
  }
  for (auto& [m, p] : held) (void)session_->notify(m, tagged(std::move(p), in.id), in.id);
  // Cancelled by the client (or the connection gone): forget it; its Responder goes with it.
  in.cancel.on_cancel([weak = weak_from_this(), key] {
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
