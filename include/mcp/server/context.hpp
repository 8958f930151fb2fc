// mcp/server/context.hpp — what a server handler knows about the request it is serving.
//
// Every tool, resource, prompt and completion handler receives a RequestContext. It answers "who is
// asking and what can they do" (protocol version, client info, client capabilities) and offers the
// request-scoped channel back to the client: progress, log messages, and nested requests (sampling,
// elicitation, roots) whose answers the handler may block on.
//
// Why a value built per request rather than a session object: under 2025-11-25 the client view is
// filled once from `initialize`; under the stateless 2026-07-28 revision every request carries its
// own version and capabilities in `_meta`. Handlers read only this context, so the same handler code
// serves both, and per-request capability filtering is written once.
//
// Thread-safety: a context belongs to one handler invocation on one worker thread; its methods may
// be called from that thread (progress and log also from threads the handler starts, while it runs).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"
#include "mcp/json.hpp"
#include "mcp/jsonrpc/message.hpp"
#include "mcp/protocol/input_required.hpp"
#include "mcp/session/cancellation.hpp"
#include "mcp/session/session.hpp"

namespace mcp {

inline constexpr std::size_t kMaxClientLabelBytes = 128;
// ClientView::client_label of an Implementation object (each part cut before it is joined: a
// client chooses how long they are).
std::string client_label_of(const json::object& client_info);

// The client as one request sees it.
struct ClientView {
  std::string protocol_version{};
  json::object client_info{};    // the client's Implementation {name, version, ...}
  // client_info's name and version as one printable line, "name/version" (empty: it gave
  // neither), at most kMaxClientLabelBytes: what logs and audit records name the client by. Made
  // once with the view (client_label_of), not per request.
  std::string client_label{};
  json::object capabilities{};   // the client's ClientCapabilities, as sent
  // Unique within the process for the ServerSession's lifetime ("s1", "s2", ...): a key for state
  // a server keeps per connection (a permission granted mid-session, say).
  std::string session_id{};
  // Who the transport authenticated, if anyone (ServerSession::set_identity); empty on stdio.
  std::optional<std::string> identity{};
  // A stateless (2026-07-28) request's view is its own _meta's, made for that request alone.
  bool stateless = false;
  // For a stateless request: the level its _meta asked notifications/message at (none: no log
  // notifications). A 2025-11-25 session's level is the one logging/setLevel set.
  std::optional<std::string> log_level{};
  // The server profile negotiated (mcp/protocol/profiles.hpp): at initialize for a session, per
  // request for 2026-07-28. Empty: the server has no profiles, or none was asked for and it has
  // no default (then the request was refused).
  std::optional<std::string> profile{};
};

// The way back to the client for one request. Implemented by the server session (2025-11-25) and,
// later, by the stateless dispatcher (2026-07-28).
class ClientChannel {
 public:
  virtual ~ClientChannel() = default;
  [[nodiscard]] virtual Result<json::value> request(std::string_view method, json::object params, RequestOptions options) = 0;
  // The same without blocking (Session::request_async).
  virtual void request_async(std::string_view method, json::object params, RequestOptions options,
                             std::function<void(Result<json::value>)> done) = 0;
  [[nodiscard]] virtual Result<void> notify(std::string_view method, json::object params, const jsonrpc::Id& related) = 0;
  // The minimum level of notifications/message the client asked for (logging/setLevel); "" = all.
  virtual std::string log_level() const = 0;
  // See RequestContext::close_stream.
  virtual void close_stream(const jsonrpc::Id& request_id) { (void)request_id; }
};

// What a handler asked the client for (RequestContext::input_required).
struct InputAsked {
  InputRequests requests{};
  std::optional<json::value> state{};
};

class RequestContext {
 public:
  // `params` are the request's, read where the context needs them (its `_meta`): whoever makes the
  // context keeps them, unmoved, for as long as it lives (the server's own request record holds both).
  RequestContext(std::shared_ptr<const ClientView> client, ClientChannel& channel, jsonrpc::Id request_id,
                 const json::object& params, CancellationToken cancel);
  // Made where its params live, and left there (handlers hold it by reference or shared_ptr).
  RequestContext(const RequestContext&) = delete;
  RequestContext& operator=(const RequestContext&) = delete;

  const std::string& protocol_version() const { return client_->protocol_version; }
  const json::object& client_info() const { return client_->client_info; }
  const std::string& client_label() const { return client_->client_label; }
  // The whole view, for what must outlive the request (an audit record made when an answer lands).
  const std::shared_ptr<const ClientView>& client_view() const { return client_; }
  const json::object& client_capabilities() const { return client_->capabilities; }
  const std::string& session_id() const { return client_->session_id; }
  const std::optional<std::string>& identity() const { return client_->identity; }
  // A 2026-07-28 request, judged by its own _meta (ClientView::stateless).
  bool stateless() const { return client_->stateless; }
  // The server profile this request is served under (ClientView::profile).
  const std::optional<std::string>& profile() const { return client_->profile; }
  // "sampling", "elicitation", "roots", or a dotted path such as "sampling.tools", "elicitation.url".
  // `elicitation` declared as {} means form mode, as the specification says.
  bool client_supports(std::string_view capability) const;

  const jsonrpc::Id& request_id() const { return request_id_; }
  // The request's `_meta` (null: none, or not an object), as the params stand now: a stage that
  // rewrote them is seen (Call::params).
  const json::object* request_meta() const;
  const CancellationToken& cancellation() const { return cancel_; }
  bool cancelled() const { return cancel_.cancelled(); }

  // notifications/progress for this request; a no-op when the client gave no progressToken.
  void progress(double progress, std::optional<double> total = {}, std::optional<std::string> message = {});
  bool has_progress_token() const;

  // notifications/message, if `level` is at or above the client's logging/setLevel.
  // Levels: debug info notice warning error critical alert emergency.
  void log(std::string_view level, json::value data, std::optional<std::string> logger = {});

  // Nested requests to the client, sent on this request's behalf. Each fails with -32601 and a
  // message naming the capability, without sending anything, if the client did not declare it.
  // Their typed forms, with the protocol types for params and answer: mcp/server/typed_requests.hpp.
  [[nodiscard]] Result<json::value> create_message(json::object params, RequestOptions options = {});  // sampling/createMessage
  [[nodiscard]] Result<json::value> elicit(json::object params, RequestOptions options = {});          // elicitation/create
  [[nodiscard]] Result<json::value> list_roots(RequestOptions options = {});                            // roots/list

  // The same for asynchronous handlers: they return at once and call `done` with the answer (on
  // the thread that received it; keep it short), holding no thread while the client answers.
  // Allowed on the reader thread too, since nothing waits.
  using Done = std::function<void(Result<json::value>)>;
  void create_message_async(json::object params, Done done, RequestOptions options = {});
  void elicit_async(json::object params, Done done, RequestOptions options = {});
  void list_roots_async(Done done, RequestOptions options = {});

  // Makes create_message / elicit / list_roots fail at once: set for handlers running on the
  // transport's reader thread, where waiting for the client's answer would deadlock.
  void forbid_nested_requests() { no_nested_ = true; }
  // Makes the asynchronous forms fail at once too, with `reason`: a stateless (2026-07-28) request
  // has no channel to send the client a request on.
  void forbid_all_nested_requests(std::string reason) {
    no_nested_ = true;
    no_nested_reason_ = std::move(reason);
  }

  // Multi round-trip (MCP 2026-07-28, mcp/protocol/input_required.hpp), for tools/call,
  // prompts/get and resources/read handlers, of either kind. A handler that needs the client's
  // input returns `ctx.input_required(requests, state)` instead of its result (a blocking one
  // returns it; an asynchronous one passes it to its Reply). The server then gets the answers, and
  // the handler runs again from the start with them: input_response(key) gives each answer,
  // request_state() gives back `state`. So write the handler to look for its answers first, and to
  // ask again (the same keys, or new ones for a further round) for what is still missing.
  //   2026-07-28: the server answers with an InputRequiredResult; the client's retry, a new
  //   request, runs the handler. `state` travels through the client signed (HMAC-SHA256 under the
  //   server's key, bound to the method, the item and the caller, expiring): a client can read it
  //   but not change it, so keep secrets out of it.
  //   2025-11-25: the server sends each input request to the client itself (sampling,
  //   elicitation, roots requests of the session) and runs the handler again with the answers,
  //   at most ServerOptions::max_input_rounds times; `state` stays in memory.
  // Each request must be one the client declared the capability for (client_supports): else the
  // request fails with -32021 naming what is missing. Ask for an alternative the client supports
  // instead, when there is one.
  [[nodiscard]] std::unexpected<Error> input_required(InputRequests requests, std::optional<json::value> state = {});
  // The client's answer to the input request `key` of the previous round; null if it sent none.
  const json::object* input_response(std::string_view key) const;
  // The same, read as `T` (ElicitResult, CreateMessageResult, ListRootsResult): empty if absent,
  // -32602 naming the key if it is not a `T`.
  template <class T>
  [[nodiscard]] Result<std::optional<T>> input_response_as(std::string_view key) const {
    const json::object* answer = input_response(key);
    if (!answer) return std::optional<T>{};
    auto typed = from_json<T>(json::value(*answer));
    if (!typed) return fail(Error::invalid_params("inputResponses[\"" + peer_text(key) + "\"]: " + typed.error().message));
    return std::optional<T>(std::move(*typed));
  }
  // The `state` the handler gave with the previous round's input_required; empty on a first round.
  const std::optional<json::value>& request_state() const { return state_; }
  // The server's side of the above, not for handlers: the answers and state of a retry, and what
  // the handler asked for (taken once).
  void set_input(json::object responses, std::optional<json::value> state);
  std::optional<InputAsked> take_input_asked();

  // Over Streamable HTTP, ends this request's SSE stream now; the result is delivered when the
  // client reconnects with Last-Event-ID (SSE polling, SEP-1699). A no-op on other transports.
  void close_stream() { channel_.close_stream(request_id_); }

 private:
  [[nodiscard]] Result<json::value> nested(std::string_view capability, std::string_view method, json::object params,
                             RequestOptions options);
  // Whether the client declared `capability`; the error naming it if not.
  [[nodiscard]] Result<void> may_ask(std::string_view capability, std::string_view method) const;
  void nested_async(std::string_view capability, std::string_view method, json::object params,
                    RequestOptions options, Done done);

  std::shared_ptr<const ClientView> client_;
  ClientChannel& channel_;
  jsonrpc::Id request_id_;
  // Not a copy of `_meta`: the params outlive the context (constructor), and copying the envelope
  // of every 2026-07-28 request cost more allocations than the rest of its context.
  const json::object* params_;
  std::optional<std::string> no_nested_reason_;  // set: every nested request fails with it
  json::object responses_;                // inputResponses of this round
  std::optional<json::value> state_;      // the state given with the previous round
  std::optional<InputAsked> asked_;       // what the handler asked for, until the server takes it
  CancellationToken cancel_;
  bool no_nested_ = false;
};

// Numeric severity of an RFC 5424 level name (debug = 0 ... emergency = 7), -1 if unknown.
int log_level_rank(std::string_view level);

}  // namespace mcp
