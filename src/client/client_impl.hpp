// Private: the state behind a Client, shared by client.cpp (the 2025-11-25 handshake, the calls,
// the chain of stages), stateless.cpp (MCP 2026-07-28: the probe, the per-request _meta, multi
// round-trip, x-mcp-header) and listen.cpp (subscriptions/listen).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <deque>
#include <set>
#include <string>
#include <vector>

#include "client/manifest_enforcer.hpp"
#include "client/response_cache.hpp"
#include "client/signature_enforcer.hpp"
#include "session/timer.hpp"
#include "mcp/client/client.hpp"
#include "mcp/protocol/header_params.hpp"

namespace mcp {

struct Client::Impl final : Session::Handler, ClientStageHost {
  explicit Impl(ClientOptions o);

  ClientOptions opts;
  std::vector<std::shared_ptr<ClientStage>> stages;     // the chain, outermost first
  std::shared_ptr<SignatureEnforcer> enforcer;          // null without a signature policy
  std::shared_ptr<ManifestEnforcer> manifest_enforcer;  // null without a manifest policy
  std::shared_ptr<Session> session;
  // A stage refused the session: every later call fails with this.
  std::optional<Error> ended_by;
  InitializeResult init;
  json::object server_caps;
  // What this client declares, made once from its handlers: the same on every request.
  const json::object declared;
  mutable std::mutex mu;

  // The profile the server granted (profiles.cpp); set by connect.
  std::optional<std::string> profile;
  // connect's last step: the granted profile is one requested, and a profile mcp-trust publishes
  // is met. `granted`: what the server answered (initialize's "profile", or discover's _meta).
  Result<void> accept_profile(const json::object& result, std::optional<std::string> granted);

  // --- MCP 2026-07-28 (stateless.cpp) ---
  // Set by connect, before any call, never changed after: a stateless session sends every request
  // with `envelope` in its _meta, and no handshake.
  bool stateless = false;
  json::object envelope;
  // The envelope (and the log level asked for) as _meta members written into each request's text
  // (RequestOptions::meta) rather than copied into its params; guarded by mu, made again when the
  // log level changes.
  std::shared_ptr<const jsonrpc::MetaMembers> envelope_meta;
  void make_envelope_meta();  // requires mu
  std::optional<std::string> log_level;  // guarded by mu; sent as _meta logLevel
  // The x-mcp-header parameters of each tool of the last tools/list, by name (guarded by mu).
  std::map<std::string, std::vector<HeaderParam>> tool_headers;
  ResponseCache cache;
  // subscriptions/listen (listen.cpp), guarded by mu.
  std::set<std::string> subscriptions;
  CancellationToken listen_cancel;
  bool listening = false;
  // Listens go out in rounds, one at a time: a round's listen carries what is wanted when it is
  // sent, and its round ends once it is in force (acknowledged), refused, or not acknowledged
  // within probe_timeout (then taken as in force). Changes made while a round is out wait for the
  // next, which carries them all: one listen for however many came meanwhile. Nothing waits on a
  // thread for a round.
  std::uint64_t listen_round = 0;  // the number of the round out, or of the next one
  bool listen_out = false;
  bool listen_stopped = false;  // the client closed: no more rounds (stop_listening)
  using ListenWaiter = std::function<void(Result<void>)>;
  std::vector<ListenWaiter> listen_round_waiters;  // answered when the round out ends
  std::vector<ListenWaiter> listen_next_waiters;   // changes made while it is out
  static constexpr std::size_t kMaxQueuedListenChanges = 1024;  // waiting for the next round
  CancellationToken listen_previous;      // the listen the round out replaces, cancelled as it ends
  std::int64_t listen_previous_id = -1;
  detail::TimerHandle listen_timer;  // the round out's probe_timeout
  // The JSON-RPC id of the newest listen sent (its subscription id), and of the last ones ended
  // (replaced, refused, closed; at most kEndedListens): a notification naming an ended listen is
  // dropped, so a replaced listen cannot repeat what its successor carries.
  std::int64_t current_listen_id = -1;
  std::deque<std::int64_t> ended_listens;
  static constexpr std::size_t kEndedListens = 64;

  json::object capabilities() const { return declared; }
  bool supports(std::string_view capability) const;

  // Session::Handler
  Result<json::value> handle_request(InboundRequest& req) override;
  void handle_notification(const jsonrpc::Notification& n) override;
  void handle_closed(const std::optional<Error>& reason) override;

  // One request through the chain: the stages inward, the server (with its multi round-trip
  // rounds), filtering and caching, the stages outward.
  Result<json::value> call(std::string_view capability, std::string_view method, json::object params, CallOptions o = {});
  // call() without blocking (client_async.cpp): the checks and stages inward on this thread, the
  // answer's stages outward on the reader thread. No cache. An answer that needs more rounds
  // (multi round-trip input, a header retry) continues on the thread pool with the blocking rounds.
  void call_async(std::string_view capability, std::string_view method, json::object params, CallOptions o,
                  std::function<void(Result<json::value>)> done);
  // call_async with the answer decoded as T.
  template <class T>
  void typed_async(std::string_view capability, std::string_view method, json::object params, CallOptions o,
                   std::function<void(Result<T>)> done);
  // A resources/read answer held to SEP-2093's multi-content rules in ClientOptions::resource_contents' mode.
  Result<ReadResourceResult> checked_read(const std::string& uri, Result<ReadResourceResult> r) const;
  // The parts of call() before and after the exchange.
  Result<void> prepare(std::string_view capability, std::string_view method, json::object& params, const CallOptions& o);
  Result<json::value> finish(std::string_view method, Result<json::value> r);
  // Asynchronous calls not yet answered (their `done` not yet returned): shutdown() waits for them.
  std::mutex async_mu;
  std::condition_variable async_cv;
  int async_jobs = 0;
  // Client::shutdown(): closes the session, then waits until no callback of this client runs.
  void shutdown();
  // True on a thread inside one of this client's callbacks (an answer, a message being read):
  // shutdown() there would wait for this thread itself (session/inside.hpp).
  bool inside_callback() const;
  std::optional<Error> ended() const;
  Error end_session(Error why);
  Result<void> check_list(ListKind kind, const json::value& result, bool complete);
  Result<void> check_children(const std::string& parent, const json::value& result);  // resources.cpp
  Result<json::value> send_direct(std::string_view method, json::object params) override;
  // The handler the client registered for a server's request (or an input request): null if none.
  const ClientRequestHandler* handler_for(std::string_view method) const;

  // client.cpp: the 2025-11-25 handshake.
  Result<InitializeResult> initialize(const std::string& version);
  // Runs the stages' on_initialize and on_connected over `result` (an InitializeResult, or what
  // stands for it in 2026-07-28).
  Result<void> start_stages(const json::object& result);

  // stateless.cpp
  // server/discover as a probe: the discover result when the server speaks a stateless revision
  // we speak (`version` then names it), nothing when it does not (fall back to initialize), or
  // the error that makes both impossible.
  Result<std::optional<json::object>> probe(std::string& version);
  Result<InitializeResult> start_stateless(const std::string& version, json::object discovered);
  // What every stateless request carries in its _meta (RequestOptions::meta); null in a
  // 2025-11-25 session.
  std::shared_ptr<const jsonrpc::MetaMembers> envelope_members() const;
  // Sends `method` and runs the rounds a multi round-trip result asks for, answering each input
  // request with the handler registered for it.
  Result<json::value> exchange(std::string_view method, const json::object& params, const CallOptions& o);
  // The rest of exchange() once the first answer `r` is in: the header retry and the input rounds.
  Result<json::value> continue_exchange(std::string_view method, const json::object& params, const CallOptions& o,
                                        Result<json::value> r);
  // Whether `r` needs continue_exchange.
  bool needs_more_rounds(std::string_view method, const Result<json::value>& r) const;
  RequestOptions request_options(std::string_view method, const json::object& params, const CallOptions& o) const;
  // A tools/list result made what this client may use: tools whose x-mcp-header annotations break
  // a rule dropped (stateless), tools whose listed capability requirements this client cannot
  // meet dropped; the header parameters of the rest remembered (from scratch on a first page).
  void filter_tools(json::value& result, bool first_page);
  // Over a stateless session, what a removed method becomes (ping, setLevel, subscribe).
  Result<json::value> stateless_substitute(std::string_view method, const json::object& params);

  // listen.cpp: keeps one subscriptions/listen open for what the callbacks and subscriptions want.
  // `done` (from any thread, once) when a listen carrying what is wanted now is in force; an
  // error: the server refused it (the previous one is cancelled either way). relisten() waits for it.
  void relisten_async(ListenWaiter done);
  Result<void> relisten();
  // Sends the next round's listen (listen_out set by the caller), and ends a round.
  void send_listen();
  void finish_round(std::uint64_t round, Result<void> result);
  // The client closes: the listen is cancelled, no round goes out after it, and what waits for one
  // is told the client closed (fail_listen_waiters).
  void stop_listening();
  void fail_listen_waiters();
  // A notifications/subscriptions/acknowledged arrived (`subscription`: the id it names, if any).
  void listen_acknowledged(std::optional<std::int64_t> subscription);
  // Whether a notification naming `subscription` comes from a listen that has ended.
  bool from_ended_listen(std::optional<std::int64_t> subscription) const;
  void listen_ended(std::int64_t id);  // under mu
  bool subscribed(const std::string& uri) const;
  // Over 2026-07-28: the subscription changed, then a round of listens (relisten_async); a
  // subscribe the server refuses is undone. change_subscription waits for it.
  void change_subscription_async(const std::string& uri, bool on, ListenWaiter done);
  Result<void> change_subscription(const std::string& uri, bool on);
  // subscribe_async / unsubscribe_async (client_async.cpp): a resources/(un)subscribe request, or
  // change_subscription_async over 2026-07-28. Neither waits on a thread.
  void subscription_async(const std::string& uri, bool on, std::function<void(Result<void>)> done);

  template <class T>
  Result<T> typed(std::string_view capability, std::string_view method, json::object params, CallOptions o = {});
  template <class Item, class Page>
  Result<std::vector<Item>> all(std::string_view capability, std::string_view method, std::vector<Item> Page::*items);
};

}  // namespace mcp
