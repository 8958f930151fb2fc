// The client's subscriptions/listen (MCP 2026-07-28, basic/patterns/subscriptions.mdx): one open
// request carries the change notifications the callbacks want and the resources subscribed to.
// Changing what it should carry replaces it: the new one is sent and acknowledged first, then the
// old one is cancelled (over HTTP its connection is closed, which is how the revision cancels),
// so a change made in between reaches the client (on the old one). What the old one sends once
// it ended is dropped (notifications name their listen), and a resources/updated for a URI no
// longer subscribed to is dropped too, so nothing arrives for it after unsubscribe() returned.
#include <algorithm>
#include <atomic>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "client/client_impl.hpp"

namespace mcp {

namespace {
// A listen lasts until it is replaced or the client closes: no deadline of its own.
constexpr std::chrono::hours kListenTimeout{24 * 365};
// What one client may subscribe to: each URI travels in every listen request.
constexpr std::size_t kMaxSubscriptions = 256;
}  // namespace

Result<void> Client::Impl::relisten() {
  if (!stateless || !session) return {};
  std::lock_guard serial(relisten_mu);
  json::object filter;
  // Someone to tell: the callbacks, or a stage (which sees every notification).
  if (opts.on_list_changed || opts.on_notification || !stages.empty()) {
    if (supports("tools.listChanged")) filter["toolsListChanged"] = true;
    if (supports("prompts.listChanged")) filter["promptsListChanged"] = true;
    if (supports("resources.listChanged")) filter["resourcesListChanged"] = true;
  }
  CancellationToken next;
  CancellationToken previous;
  std::int64_t previous_id = -1;
  std::uint64_t mine = 0;
  {
    std::lock_guard lock(mu);
    if (!subscriptions.empty() && supports("resources.subscribe")) {
      json::array uris;
      for (const auto& u : subscriptions) uris.emplace_back(json::string(u));
      filter["resourceSubscriptions"] = std::move(uris);
    }
    previous = listen_cancel;
    previous_id = current_listen_id;
    listen_cancel = next;
    listening = !filter.empty();
    if (listening) mine = ++listens_sent;
  }
  // The replaced listen ends once its successor is in force (make before break); its
  // notifications are dropped from then on.
  auto end_previous = [&] {
    previous.cancel("replaced by a new subscriptions/listen");
    std::lock_guard lock(mu);
    if (previous_id >= 0) listen_ended(previous_id);
  };
  if (filter.empty()) {
    end_previous();
    return {};
  }
  json::object params{{"notifications", std::move(filter)}};
  RequestOptions ro;
  ro.meta = envelope_members();
  ro.timeout = kListenTimeout;
  ro.cancel = next;
  auto id = std::make_shared<std::atomic<std::int64_t>>(-1);
  ro.on_id = [this, id](std::int64_t sent) {
    id->store(sent);
    std::lock_guard lock(mu);
    current_listen_id = sent;
  };
  session->request_async(method::kSubscriptionsListen, params, std::move(ro), [this, next, mine, id](Result<json::value> r) {
    if (!r && !next.cancelled())
      MCP_LOG_WARN("client: subscriptions/listen ended: {}", peer_text(r.error().message, kMaxQuotedReasonBytes));
    else if (r && !next.cancelled())  // the server's graceful end (its shutdown): no more changes come on it
      MCP_LOG_WARN("client: the server ended subscriptions/listen; change notifications stop until the next listen");
    std::lock_guard lock(mu);
    if (id->load() >= 0) listen_ended(id->load());
    // The current listen refused or ended: nothing will acknowledge it, so nobody waits for it.
    // (One replaced by a newer listen says nothing about the newer one.)
    if (mine != listens_sent) return;
    if (!r && listens_acked < mine) listen_refused.emplace(mine, r.error());
    listens_acked = std::max(listens_acked, mine);
    listen_acked.notify_all();
  });
  {
    std::unique_lock lock(mu);
    listen_acked.wait_for(lock, opts.probe_timeout, [&] { return listens_acked >= mine; });
  }
  end_previous();
  std::lock_guard lock(mu);
  if (listen_refused && listen_refused->first == mine) return fail(listen_refused->second);
  return {};
}

void Client::Impl::listen_acknowledged(std::optional<std::int64_t> subscription) {
  std::lock_guard lock(mu);
  // The acknowledgement of the listen sent last (relisten() sends one at a time); a late one of a
  // replaced listen changes nothing. A server that does not name it is taken at its word.
  if (subscription && *subscription != current_listen_id) return;
  listens_acked = listens_sent;
  listen_acked.notify_all();
}

void Client::Impl::listen_ended(std::int64_t id) {
  if (std::find(ended_listens.begin(), ended_listens.end(), id) != ended_listens.end()) return;
  ended_listens.push_back(id);
  if (ended_listens.size() > kEndedListens) ended_listens.pop_front();
}

bool Client::Impl::from_ended_listen(std::optional<std::int64_t> subscription) const {
  if (!subscription) return false;  // not a listen's (or a server that does not name it)
  std::lock_guard lock(mu);
  return std::find(ended_listens.begin(), ended_listens.end(), *subscription) != ended_listens.end();
}

bool Client::Impl::subscribed(const std::string& uri) const {
  std::lock_guard lock(mu);
  return subscriptions.contains(uri);
}

void Client::Impl::stop_listening() {
  CancellationToken token;
  {
    std::lock_guard lock(mu);
    token = listen_cancel;
    listening = false;
  }
  token.cancel("the client closed");
}

Result<void> Client::Impl::change_subscription(const std::string& uri, bool on) {
  if (!supports("resources.subscribe")) {
    return fail(error_code::kMethodNotFound, "the server did not declare the 'resources.subscribe' capability");
  }
  {
    std::lock_guard lock(mu);
    if (on && !subscriptions.contains(uri) && subscriptions.size() >= kMaxSubscriptions) {
      return fail(Error::invalid_params("this client already holds " + std::to_string(kMaxSubscriptions) +
                                        " subscriptions, the most one listen carries"));
    }
    const bool changed = on ? subscriptions.insert(uri).second : subscriptions.erase(uri) > 0;
    if (!changed) return {};
  }
  auto listening_now = relisten();
  if (listening_now || !on) return listening_now;
  // Refused (the resource cannot be watched, say): the subscription is not made, and the listen
  // goes back to what it carried before.
  {
    std::lock_guard lock(mu);
    subscriptions.erase(uri);
  }
  if (auto back = relisten(); !back)
    MCP_LOG_WARN("client: subscriptions/listen not restored: {}",
                 peer_text(back.error().message, kMaxQuotedReasonBytes));
  return fail(std::move(listening_now.error()));
}

}  // namespace mcp
