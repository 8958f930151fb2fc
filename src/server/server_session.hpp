// Private: one client connection of a Server: the MCP lifecycle on top of the session engine, and
// the dispatch of each method to the Server's registry.
#pragma once

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "json/equal.hpp"
#include "mcp/server/server.hpp"
#include "server/server_impl.hpp"
#include "server/server_request.hpp"

namespace mcp {

// Change notifications that wait until they may be sent (a listen's acknowledgement, an
// initialize result), in order and without repeats: a change notification said twice says nothing
// more, so what waits is bounded by the kinds of change, and by `max` besides.
struct HeldChanges {
  std::vector<std::pair<std::string, json::object>> items;
  void hold(std::string_view method, const json::object& params,
            std::size_t max = std::numeric_limits<std::size_t>::max()) {
    const bool repeat = std::any_of(items.begin(), items.end(), [&](const auto& h) {
      return h.first == method && detail::json_equal(h.second, params);
    });
    if (!repeat && items.size() < max) items.emplace_back(std::string(method), params);
  }
};

class ServerSessionImpl final : public ServerSession,
                                public Session::Handler,
                                public ClientChannel,
                                public std::enable_shared_from_this<ServerSessionImpl> {
 public:
  // Made, not started: the server records it for broadcasts before start() lets its first message
  // in (Server::Impl::open_session).
  static std::shared_ptr<ServerSessionImpl> create(std::shared_ptr<Server::Impl> server, std::shared_ptr<Transport> transport);
  [[nodiscard]] Result<void> start();
  // Through create() only: the owning pointer's deleter is release().
  ServerSessionImpl(std::shared_ptr<Server::Impl> server, std::shared_ptr<Transport> transport);
  ~ServerSessionImpl() override;

  // ServerSession
  std::shared_ptr<const ClientView> client() const override;
  void close() override;
  void wait_closed() override;
  Result<void> notify(std::string_view method, json::object params) override;
  const std::string& id() const override { return id_; }
  void set_identity(std::optional<std::string> identity) override;
  std::shared_ptr<const ServerSignature> signature() const override;

  // Session::Handler (dispatch.cpp): the dispatch table and the chain.
  void start_request(InboundRequest& request, Responder reply) override;
  bool runs_inline(const std::string& method, const json::object* params) const override;
  void handle_notification(const jsonrpc::Notification& notification) override;
  void handle_closed(const std::optional<Error>& reason) override;
  // A running handler keeps its session: see Session::Handler::keep_alive.
  std::shared_ptr<void> keep_alive() override { return weak_from_this().lock(); }

  // ClientChannel
  Result<json::value> request(std::string_view method, json::object params, RequestOptions options) override;
  void request_async(std::string_view method, json::object params, RequestOptions options,
                     std::function<void(Result<json::value>)> done) override;
  Result<void> notify(std::string_view method, json::object params, const jsonrpc::Id& related) override;
  std::string log_level() const override;
  void close_stream(const jsonrpc::Id& request_id) override { session_->close_request_stream(request_id); }

  bool closed() const { return session_->closed(); }
  bool subscribed(const std::string& uri) const;
  void notify_if_ready(std::string_view method, const json::object& params);
  // initialize's result has been handed to the transport: what waited goes out after it.
  void initialized();
  // Sends a change notification to this session's subscriptions/listen requests that opted in to it
  // (`uri`: the resource of notifications/resources/updated).
  void notify_listeners(std::string_view method, const json::object& params, const std::string& uri);
  std::optional<Error> close_reason() const;

  // The answer to `r`: back through the stages that saw it, then to the client. The first call
  // answers; later ones return false.
  bool finish(ServerRequest& r, Result<json::value> answer);

  // Whether a request naming an item starts on the reader thread: when the item's handler is
  // asynchronous (it only starts its work) or declared non-blocking. Called there, so cheap: one
  // lookup under the registry lock (dispatch.cpp).
  bool tool_runs_inline(const json::object& params) const;
  bool resource_runs_inline(const json::object& params) const;
  bool prompt_runs_inline(const json::object& params) const;
  bool completion_runs_inline(const json::object& params) const;

  // The methods, as the dispatch table calls them (after the chain): each answers through finish.
  // server_lists.cpp
  Result<json::value> list_tools(ServerRequest& r);
  Result<json::value> list_resources(ServerRequest& r);
  Result<json::value> list_resource_templates(ServerRequest& r);
  Result<json::value> list_prompts(ServerRequest& r);
  // server_methods.cpp; the find_* steps run before the chain and fill r.target.
  Result<void> find_tool(ServerRequest& r);
  Result<void> find_resource(ServerRequest& r);
  // resource_tree.cpp (SEP-2093): resources/list's find step (a target only when scoped by `uri`),
  // the one lookup behind every method that names a URI, and the methods that use a ResourceTree.
  Result<void> find_list_scope(ServerRequest& r);
  Result<void> find_uri(ServerRequest& r, std::string uri);
  bool list_runs_inline(const json::object& params) const;
  bool metadata_runs_inline(const json::object& params) const;
  void list_resources_route(const std::shared_ptr<ServerRequest>& r);
  Result<json::value> list_children(ServerRequest& r);
  // A read's contents made what SEP-2093 says they must be: refused if they break the multi-content
  // rules, completed with the resource's metadata where the handler left it out.
  Result<ReadResourceResult> checked_contents(const ServerRequest& r, ReadResourceResult result) const;
  Result<void> find_prompt(ServerRequest& r);
  // These four run an item's handler, blocking or asynchronous: they take the request shared, for
  // an asynchronous handler to keep.
  void call_tool(const std::shared_ptr<ServerRequest>& r);
  void read_resource(const std::shared_ptr<ServerRequest>& r);
  // resources/metadata (SEP-2093): the tree's metadata hook, else the registered Resource, or what
  // its template says of the URI (resource_tree.cpp).
  void resource_metadata(const std::shared_ptr<ServerRequest>& r);
  void get_prompt(const std::shared_ptr<ServerRequest>& r);
  void complete(const std::shared_ptr<ServerRequest>& r);
  // subscriptions.cpp: resources/subscribe answers once the URI is watched (its hook may wait on
  // something else), from any thread; unsubscribe at once.
  void subscribe(const std::shared_ptr<ServerRequest>& r);
  Result<json::value> unsubscribe(ServerRequest& r);
  Result<json::value> set_level(ServerRequest& r);
  // server_manifest.cpp: tools/manifest, signed over listed_tools.
  Result<json::value> tools_manifest(ServerRequest& r);

  // input_required.cpp: multi round-trip. A stateless retry's inputResponses and requestState,
  // checked (-32602 saying what is wrong) and given to the handler's context.
  Result<void> accept_input(ServerRequest& r);
  // What a handler's input_required is answered with on a stateless request: the
  // InputRequiredResult, its state signed; -32021 if it asks through a capability the request did
  // not declare.
  Result<json::value> input_required_result(ServerRequest& r, const InputAsked& asked);
  // In a 2025-11-25 session: sends what the handler asked for as this session's requests and gives
  // the answers to its context, for it to run again. Fails past max_input_rounds, on a capability
  // the client did not declare (-32021), or with the first request that fails.
  Result<void> gather_input(ServerRequest& r, InputAsked asked);
  void gather_input_async(const std::shared_ptr<ServerRequest>& r, InputAsked asked,
                          std::function<void(Result<void>)> done);

 private:
  Result<json::value> initialize(const json::object& params);
  // A request of this session's initialized client, or a stateless one with its own view: the
  // find step, the chain, the route's handler (dispatch.cpp).
  void dispatch(InboundRequest& in, Responder reply, std::shared_ptr<const ClientView> view,
                std::shared_ptr<const StageList> outer, std::shared_ptr<const SessionSignature> signature);
  // stateless.cpp: a 2026-07-28 request, whose _meta is its client view. Refused with -32602 (a
  // missing or malformed _meta field), -32022 (a version we do not speak) or -32601 (a method the
  // revision removed); server/discover answered here; the rest dispatched like any request, with
  // the stateless stage outermost (resultType, serverInfo, caching hints, error codes).
  void start_stateless(InboundRequest& in, Responder reply);
  // The view of a stateless request's client: the last one's again when its envelope, profile and
  // identity are the same (requires !mu_).
  std::shared_ptr<const ClientView> stateless_view(const RequestMetaView& meta, std::optional<std::string> profile);
  // `profile`: the one negotiated from the discover request's _meta, if any.
  Result<json::value> discover(const std::optional<std::string>& profile);
  // listen.cpp: subscriptions/listen. The request stays open (its Responder held) until the
  // client cancels it or the connection closes; meanwhile the notifications it opted in to travel
  // on it, tagged with its id.
  void listen(InboundRequest& in, Responder reply);
  // The listen in force once its resources are watched: acknowledged, and forgotten when cancelled.
  void open_listen(const jsonrpc::Id& id, CancellationToken cancel, SubscriptionFilter honoured,
                   std::vector<WatchLease> watches, Responder reply);
  // The server closes the session (HTTP shutdown, session expiry): each open listen is answered,
  // the graceful end the revision asks for, before the connection goes.
  void end_listens();
  // The tools this request's tools/list shows, whole and unpaged (list_tools pages it; the signed
  // manifest covers it).
  json::array listed_tools(ServerRequest& r);
  // One tool as this request's tools/list shows it (its annotations as the signature says), or
  // nothing if a stage drops it.
  std::optional<json::value> shown_tool(const Tool& t, ServerRequest& r);
  // Prompts, resources or templates: the registry's `entries`, through the chain's list stages,
  // paged under `json_key`. `item` picks the definition out of an entry, `key_of` its key.
  template <class Entry, class Item, class KeyOf>
  Result<json::value> list_items(ListKind kind, detail::Registry<Entry> Server::Impl::*entries, Item Entry::*item,
                                 KeyOf key_of, ServerRequest& r);
  std::shared_ptr<const SessionSignature> session_signature() const;
  // The URI of a resources/subscribe or unsubscribe, checked.
  Result<std::string> subscription_uri(const ServerRequest& r) const;
  // A subscribe's watch has come (or was refused): `first` and the subscribes of the URI that came
  // meanwhile are answered, and the lease kept unless the URI was unsubscribed or the session went.
  void subscribed_to(const std::string& uri, const std::shared_ptr<ServerRequest>& first, Result<WatchLease> lease);
  Result<void> next_input_round(ServerRequest& r, const InputAsked& asked);

  // Deletes `s`, from the pool when this thread delivers its session's messages.
  static void release(ServerSessionImpl* s);

  std::shared_ptr<Server::Impl> server_;
  std::shared_ptr<Session> session_;
  const std::string id_;
  mutable std::mutex mu_;
  std::shared_ptr<const ClientView> client_;
  std::optional<std::string> identity_;                  // applied to client_ at initialize
  std::shared_ptr<const SessionSignature> signature_;    // fixed at initialize
  std::shared_ptr<const StageList> outer_stages_;        // log, signature: set at initialize
  std::shared_ptr<const StageList> stateless_stages_;    // stateless, log(, signature): made at the first stateless request
  std::shared_ptr<const SessionSignature> stateless_stages_signature_;  // ...and again when the signature changes
  std::shared_ptr<const ClientView> last_stateless_view_;  // the last stateless request's (stateless_view)
  bool ready_ = false;  // initialize answered: server notifications may be sent
  // From initialize until its result is out (initialized()), change notifications wait here, so
  // that none overtakes the result; without repeats, so bounded by the kinds of change.
  bool answering_ = false;
  HeldChanges held_until_ready_;
  std::string log_level_;
  std::map<std::string, WatchLease> subscriptions_;  // URI -> its watch (resource_tree.cpp)
  // Subscribes waiting for their URI's watch (subscriptions.cpp); counted with subscriptions_
  // against max_subscriptions.
  struct Subscribing {
    std::vector<std::shared_ptr<ServerRequest>> also;  // later subscribes of the URI, answered with it
    bool dropped = false;                              // unsubscribed meanwhile: let go when it lands
  };
  std::map<std::string, Subscribing> subscribing_;
  bool gone_ = false;  // the connection closed (handle_closed)
  std::optional<Error> close_reason_;
  struct Listen {
    jsonrpc::Id id;
    SubscriptionFilter filter;  // what the server agreed to honour
    std::vector<WatchLease> watches{};  // of its resource subscriptions
    Responder reply;            // held until the listen ends; never answered while it lasts
    bool acknowledged = false;  // nothing is sent on it before its acknowledgement...
    // ...what arrives meanwhile waits here, bounded by the kinds of change it can carry.
    HeldChanges held{};
  };
  std::map<std::string, Listen> listens_;  // by the listen request's id_key
  std::size_t opening_listens_ = 0;        // listens waiting for their watches (listen.cpp)
};


}  // namespace mcp
