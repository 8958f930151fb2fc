// Private to the gateway: one upstream MCP server behind a Server of ours, with trust on first use.
// Mirrors the upstream's tools, prompts, resources and resource templates (the kinds its
// capabilities declare): each item listed is pinned (pin_store.hpp); one quarantined or rejected is
// hidden from its list and a call, get or read of it is refused with why and how to approve it;
// every call, get and read is appended to the audit log. A list_changed from the upstream re-lists
// it, and tells our clients when what they may see changed. A decision made meanwhile by another
// process (`mcp-trust gateway approve`) holds from the next list or call: pin states are kept in
// memory only while the state folder's pins-changes counter is unchanged (pin_store.hpp).
//
// Trust on the upstream's behalf: the Server serves a capability signature (SEP-2091): the one
// configured, or one derived at each refresh from what is approved and allowed (quarantined,
// rejected and denied items are outside it), and, given the gateway's key, a signed tools/manifest
// of the tools a client may see. A decision made elsewhere is noticed at the next list or call
// that meets the item, and the derived signature follows it (sessions keep the one they were given
// at initialize; 2026-07-28 requests get the current one).
//
// Also forwarded: completion, subscriptions (watch), and what the upstream asks during a call
// (bridge.hpp). What the upstream is told of its client (roots, log level) is upstream.hpp's.
//
// Thread-safety: the Server serves its sessions on its own threads; refresh() may be called from
// any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gateway/approvals.hpp"
#include "gateway/bridge.hpp"
#include "gateway/metrics.hpp"
#include "gateway/pin_store.hpp"
#include "gateway/policy.hpp"
#include "log/log_budget.hpp"
#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/signature/checker.hpp"
#include "mcp/trust/ed25519.hpp"
#include "session/async_holds.hpp"

namespace mcp::gateway {

class Proxy;

// Told what a Proxy serves, so that it can be served elsewhere too (the aggregate, aggregate.hpp).
// Called on the thread refreshing the proxy, one refresh at a time; keep it quick.
class ProxyObserver {
 public:
  virtual ~ProxyObserver() = default;
  // An item now served (new, or its definition changed), as the upstream lists it.
  virtual void served(Proxy& proxy, ListKind kind, const std::string& key, const json::object& definition) = 0;
  virtual void unserved(Proxy& proxy, ListKind kind, const std::string& key) = 0;
  // What clients may see of `kind` changed without a definition changing (a decision, a restart).
  virtual void changed(Proxy& proxy, ListKind kind) = 0;
  // The upstream says the resource `uri` changed (it was subscribed to through the proxy).
  virtual void resource_updated(Proxy& proxy, const std::string& uri) = 0;
  // The signature served for the upstream (proxy.server()->signature()) changed, or is told for
  // the first time.
  virtual void vouched(Proxy& proxy) = 0;
  // Held while the proxy tells it of many items at once (a refresh, a replay on observe()): a
  // Server's batch (Server::batch_changes), so that its clients are told once. None by default.
  virtual std::optional<Server::ChangeBatch> batch_changes() { return std::nullopt; }
};

struct ProxyOptions {
  std::string name = "upstream";  // the server's name in pins, the audit log and errors
  NewItems new_items = NewItems::allow;
  std::string state_dir;          // shown in the errors that say how to approve
  ItemPolicy policy{};            // what is denied whatever its pin (policy.hpp)
  std::shared_ptr<Metrics> metrics{};  // every forwarded request is counted here, if set
  // Where a request the policy asks about waits for a person (null: such requests are refused,
  // saying there is nobody to ask), and for how long.
  std::shared_ptr<Approvals> approvals{};
  std::chrono::milliseconds ask_timeout{120'000};
  // Served as the upstream's capability signature (and held to it); unset: derived from what is
  // approved at each refresh, not held (the pins hold the upstream; see docs/gateway.md, "Trust").
  std::optional<ServerSignature> signature{};
  std::shared_ptr<const trust::Ed25519SecretKey> key{};  // signs tools/manifest, if set
  bool in_server_card = false;                            // the signature is also in a served card
  // Watchers waiting for this upstream's answer to their URI's subscribe (or for an unsubscribe of
  // it to end) at once, over all URIs: past it a subscribe is refused at once, saying why. Each
  // costs memory only, and the upstream client's pending request.
  std::size_t max_subscribes_waiting = 256;
};

class Proxy : public std::enable_shared_from_this<Proxy> {
 public:
  // `upstream` must be connected. Lists it once, pins what it offers, and registers the tools.
  static Result<std::shared_ptr<Proxy>> start(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins,
                                              std::shared_ptr<AuditLog> audit, ProxyOptions options,
                                              ServerOptions server_options = {});
  ~Proxy();

  std::shared_ptr<Server> server() const { return server_; }
  const std::string& name() const { return options_.name; }
  // Tells `observer` what is served now, then of every change (held weakly; one observer).
  void observe(std::weak_ptr<ProxyObserver> observer);

  // Requests for the upstream's items (by their names and URIs there), forwarded asynchronously:
  // a cancel of `ctx` cancels the upstream's request; the answer is recorded in the audit log and
  // the metrics, then sent with `reply`. The caller has admitted the request (admission()).
  // What the upstream asks its client meanwhile (sampling, elicitation) is asked of this request's
  // client as a multi round-trip result, and `ctx` may be a retry carrying the answers (bridge.hpp).
  // A tool's result goes on as the upstream wrote it, checked at its top level only
  // (Client::call_tool_json_async): its content blocks are the client's to check.
  void call_tool(const std::string& name, const json::object& args, std::shared_ptr<RequestContext> ctx,
                 Reply<json::object> reply);
  void get_prompt(const std::string& name, const std::map<std::string, std::string>& args,
                  std::shared_ptr<RequestContext> ctx, Reply<GetPromptResult> reply);
  // `via_template`: the upstream's template that serves `uri` (empty: a listed resource).
  void read_resource(const std::string& uri, std::shared_ptr<RequestContext> ctx, Reply<ReadResourceResult> reply,
                     const std::string& via_template = {});
  // completion/complete for the upstream's prompt (`ref/prompt`, its name there) or template
  // (`ref/resource`), admitted like a get or a read of it, then forwarded. An error if the
  // upstream does not offer completions.
  void complete(CompleteRequestParams params, const RequestContext& ctx, Reply<CompleteResult> reply);
  // Where the upstream client's sampling and elicitation requests go (upstream.cpp).
  Bridge& bridge() { return bridge_; }
  // Subscriptions, forwarded (the SDK's ResourceTree::watch_async on each forwarded resource and
  // template): the first watcher of `uri` (a session of our Server or of the aggregate's)
  // subscribes at the upstream, the last one gone unsubscribes. `done` is called, from any thread,
  // once the upstream has answered the first one's subscribe (at once when the URI is watched
  // already, and for a stop). Nothing waits on a thread for the upstream meanwhile: the watchers of
  // a URI wait as callbacks (detail::AsyncHolds) for its one subscribe, sent without blocking
  // (Client::subscribe_async). Errors: the upstream refused it (every watcher that waited for it
  // gets the refusal), or too many subscribes already wait on this upstream.
  void watch(const std::string& uri, bool on, std::function<void(Result<void>)> done);
  // The upstream's notifications/resources/updated: to our subscribed sessions and the observer,
  // for a URI watched through this proxy (any other is dropped).
  void resource_updated(const std::string& uri);
  // After a restart: subscribes the new upstream session to every URI still watched.
  void resubscribe();
  // Why a request for (or a list showing) the item is refused: the policy's rule, else its pin's
  // state (quarantined, rejected); nothing when it is served. `target.key` is the upstream's key.
  std::optional<Error> admission(const Target& target);
  // What the upstream's item `key` needs of the client that uses it (policy.hpp), wherever served.
  const CapabilityRequirement* requirement(const std::string& key) const { return options_.policy.requirement(key); }
  // Lists the upstream again (every kind it offers), pins what it lists, and registers what changed.
  [[nodiscard]] Result<void> refresh();
  // Asks for a refresh from the proxy's own thread (for the upstream's list_changed, which arrives
  // on its reader thread, where a request must not be made).
  void refresh_later();
  // The upstream client calls go to; set_upstream() replaces it (a restarted upstream): calls in
  // flight finish on the old one, new calls use the new one. Call refresh() after.
  std::shared_ptr<Client> upstream() const;
  void set_upstream(std::shared_ptr<Client> upstream);
  // Tells our clients every list the upstream offers may have changed (after a restart).
  void announce_lists();

 private:
  Proxy(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins, std::shared_ptr<AuditLog> audit,
        ProxyOptions options, ServerOptions server_options);
  static bool upstream_offers(const Client& upstream, ListKind kind);
  // Pins every listed item, registers each with `add`, removes what is no longer listed with
  // `remove`; true if what clients may see changed.
  // `vouched` receives what is approved and allowed, for the derived signature. True when what
  // clients may see changed (they are told once the signature covers it).
  Result<bool> refresh(Client& upstream, ListKind kind, ServerSignature& vouched);
  template <class Item, class KeyOf, class Add, class Remove>
  Result<bool> mirror(ListKind kind, Result<std::vector<Item>> listed, KeyOf key_of, Add add, Remove remove,
                      ServerSignature& vouched);
  // Serves `vouched` as the signature if it differs from the one served.
  void vouch(ServerSignature vouched);
  SignatureServing serving(bool self_check) const;
  // What the audit record of one request needs, gathered as it arrives.
  struct CallFacts {
    std::string_view method;  // one of mcp/protocol/methods.hpp's constants
    std::string item;
    std::string digest;  // of the arguments (arguments_digest)
    std::shared_ptr<const ClientView> client;  // its session and label (held, not copied per call)
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  };
  // One forwarded request, in flight at the upstream (a Flight, bridge.hpp): answered directly
  // when the upstream's answer lands (landed()); when the upstream asks for input first, its
  // rounds (round()) pass that on and take the client's answers from retries.
  template <class R>
  struct Forwarded;
  // Sends the request to the upstream. Called at most once per forwarded request (by begin()), so
  // it may move out what it captured.
  template <class R>
  using Start = std::function<void(Client&, CallOptions, std::function<void(Result<R>)>)>;
  // `admitted`: what the request was admitted as (a read through a template: the template and the
  // URI), admitted again if it waited for a person.
  template <class R>
  void forward(std::string_view method, const std::string& item, const json::object& arguments,
               std::shared_ptr<RequestContext> ctx, Reply<R> reply, Start<R> start, Target admitted);
  // The first round of a forwarded request (once a person allowed it, if the policy asks).
  template <class R>
  void begin(CallFacts call, std::shared_ptr<RequestContext> ctx, Reply<R> reply, Start<R> start);
  // The upstream's answer to a forwarded request: to the client directly, or through the call's
  // round when the upstream asked for input on the way.
  template <class R>
  static void landed(const std::shared_ptr<Forwarded<R>>& fwd, Result<R> r);
  // One round of a call the upstream asked input for: answers `reply` once the upstream has
  // answered or asks for input. `live`: whether a cancel of `ctx` still reaches the upstream (made
  // and hooked to `ctx` when not given).
  template <class R>
  void round(std::shared_ptr<PendingCall> call, std::shared_ptr<Forwarded<R>> fwd, std::shared_ptr<RequestContext> ctx,
             Reply<R> reply, std::shared_ptr<std::atomic<bool>> live = nullptr);
  CallFacts facts(std::string_view method, const std::string& item, std::string digest, const RequestContext& ctx) const;
  // What a forwarded request's answer goes through: appended to the audit log (an unrecorded
  // request is not answered), counted in the metrics, then sent. `refused`: the gateway answered
  // it itself (an ask denied, a retry it cannot continue).
  template <class R>
  Result<R> record(const CallFacts& call, Result<R> r, bool refused = false);
  // Why a request for the item is refused (nothing: served). Notes a state the last refresh did
  // not see (a decision made elsewhere), so the derived signature follows it.
  std::optional<Error> refusal(ListKind kind, const std::string& key);

  mutable std::mutex upstream_mu_;
  std::shared_ptr<Client> upstream_;  // guarded by upstream_mu_
  std::mutex refresh_mu_;
  std::shared_ptr<PinStore> pins_;
  std::shared_ptr<AuditLog> audit_;
  const ProxyOptions options_;
  Bridge bridge_{options_.name};
  std::shared_ptr<Server> server_;
  std::mutex mu_;
  // Per kind, what the last refresh listed and its pins' states: to remove what went, and to tell
  // clients of changes.
  std::map<ListKind, std::map<std::string, PinState>> listed_states_;
  // Of those, the keys the last listing could not pin (past PinStore::kMaxPinsPerServer) (mu_):
  // any other listed key without a pin lost it since (`mcp-trust gateway forget`).
  std::map<ListKind, std::set<std::string>> over_limit_;
  // Per kind, the definition registered on server_ for each key (serialized JSON).
  std::map<ListKind, std::map<std::string, std::string>> registered_;
  std::string vouched_json_;  // the derived signature served, serialized (refresh_mu_)
  // The configured signature, for admission(): which keys it declares (templates included).
  std::unique_ptr<SignatureChecker> declared_;
  std::mutex observer_mu_;
  std::weak_ptr<ProxyObserver> observer_;  // set under refresh_mu_ and observer_mu_; read under either
  // The watchers of each URI over our two servers, and its subscribe or unsubscribe at the
  // upstream (turn_upstream): one at a time per URI, and never one URI waiting for another.
  std::shared_ptr<detail::AsyncHolds> watches_;
  void turn_upstream(const std::string& uri, bool on, std::function<void(Result<void>)> done);
  detail::LogBudget watch_warnings_;
  // The URIs subscribed to at the upstream (from just before its subscribe goes out to just before
  // its unsubscribe does), for the upstream's updates, which arrive on its reader thread: a set of
  // their own, under a lock no request is sent under.
  std::mutex subscribed_mu_;
  std::set<std::string> subscribed_;
  // Tells our clients (and the observer) that what they may see of `kind` changed.
  void announce(ListKind kind);
  std::condition_variable_any cv_;  // with the refresher's stop_token
  bool refresh_wanted_ = false;
  // Warnings about what the upstream lists (a key listed twice, a template not served): one per
  // item, and a hostile upstream may re-list thousands every second.
  detail::LogBudget list_warnings_;
  std::jthread refresher_;  // last
};

}  // namespace mcp::gateway
