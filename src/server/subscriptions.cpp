// resources/subscribe and resources/unsubscribe (MCP 2025-11-25): a session's subscriptions, each
// holding its URI's watch (WatchLease, resource_tree.cpp) while it lasts.
//
// A subscribe is answered once its URI is watched, which may wait on the application's hook or, at
// a gateway, on the upstream: it waits as a callback, on no thread (Server::Impl::watch_uri). While
// it waits, a second subscribe of the URI is answered with it, and an unsubscribe of the URI is
// answered at once and lets the watch go when it lands.
#include "server/server_session.hpp"

namespace mcp {

Result<std::string> ServerSessionImpl::subscription_uri(const ServerRequest& r) const {
  if (!server_->opts.resource_subscriptions) return fail(Error::method_not_found(r.in.method));
  auto request = from_json<ResourceRequestParams>(r.in.params);
  if (!request) return fail(Error::invalid_params(r.in.method + ": " + request.error().message));
  const auto& opts = server_->opts;
  if (request->uri.size() > opts.max_uri_bytes) {
    return fail(Error::invalid_params("uri is " + std::to_string(request->uri.size()) + " bytes, over the limit of " +
                                      std::to_string(opts.max_uri_bytes) + " (max_uri_bytes)"));
  }
  return std::move(request->uri);
}

void ServerSessionImpl::subscribe(const std::shared_ptr<ServerRequest>& r) {
  auto uri = subscription_uri(*r);
  if (!uri) return void(finish(*r, fail(std::move(uri.error()))));
  std::optional<Result<json::value>> now;  // answered here, outside the lock
  {
    std::lock_guard lock(mu_);
    if (subscriptions_.contains(*uri)) {
      now = json::value(json::object{});
    } else if (auto it = subscribing_.find(*uri); it != subscribing_.end()) {
      it->second.dropped = false;  // subscribed again after an unsubscribe
      it->second.also.push_back(r);
      return;
    } else if (const std::size_t held = subscriptions_.size() + subscribing_.size();
               held >= server_->opts.max_subscriptions) {
      now = fail(Error::invalid_params("this session already holds " + std::to_string(held) +
                                       " subscriptions, the limit (max_subscriptions); unsubscribe first"));
    } else {
      subscribing_.emplace(*uri, Subscribing{});
    }
  }
  if (now) return void(finish(*r, std::move(*now)));
  server_->watch_uri(*uri, [weak = weak_from_this(), r, uri = *uri](Result<WatchLease> lease) {
    // A session already gone lets the lease go with this callback.
    if (auto self = weak.lock()) self->subscribed_to(uri, r, std::move(lease));
  });
}

void ServerSessionImpl::subscribed_to(const std::string& uri, const std::shared_ptr<ServerRequest>& first,
                                      Result<WatchLease> lease) {
  WatchLease released;  // let go after the lock
  std::vector<std::shared_ptr<ServerRequest>> answered{first};
  {
    std::lock_guard lock(mu_);
    bool keep = !gone_;
    if (auto it = subscribing_.find(uri); it != subscribing_.end()) {
      keep = keep && !it->second.dropped;
      for (auto& also : it->second.also) answered.push_back(std::move(also));
      subscribing_.erase(it);
    }
    if (lease && keep)
      subscriptions_.try_emplace(uri, std::move(*lease));
    else if (lease)
      released = std::move(*lease);
  }
  for (const auto& r : answered) {
    if (lease)
      finish(*r, json::object{});
    else
      finish(*r, fail(Error{lease.error().code, r->in.method + ": " + lease.error().message, lease.error().data}));
  }
}

Result<json::value> ServerSessionImpl::unsubscribe(ServerRequest& r) {
  auto uri = subscription_uri(r);
  if (!uri) return fail(std::move(uri.error()));
  WatchLease released;  // let go after the lock
  std::lock_guard lock(mu_);
  if (auto it = subscriptions_.find(*uri); it != subscriptions_.end()) {
    released = std::move(it->second);
    subscriptions_.erase(it);
  } else if (auto pending = subscribing_.find(*uri); pending != subscribing_.end()) {
    pending->second.dropped = true;
  }
  return json::object{};
}

}  // namespace mcp
