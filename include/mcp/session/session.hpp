// mcp/session/session.hpp — the JSON-RPC session engine shared by the server and the client roles.
//
// A Session sits on one Transport and does everything that is the same for both roles: it matches
// responses to outbound requests (answered in any order), runs inbound requests concurrently on a
// bounded pool of worker threads, enforces timeouts, carries cancellation both ways
// (notifications/cancelled), routes notifications/progress to the request that asked for it, answers
// ping, and answers malformed input with the right JSON-RPC error without closing the connection.
// MCP meaning (initialize, capabilities, methods) lives above it, in ServerSession and ClientSession.
//
// Threading model:
//  - the transport's reader thread decodes frames, completes outbound requests, delivers
//    notifications to Handler::handle_notification (in order; must not block) and queues requests;
//  - threads of a pool shared across sessions (Options::pool, default ThreadPool::shared()) run
//    Handler::start_request, at most Options::max_workers of this session's at once; it may
//    block, including on a nested request() to the peer; requests the handler declares
//    non-blocking (Handler::runs_inline) run on the reader thread instead;
//  - a handler may also answer later, from any thread, through the Responder it was given: an
//    asynchronous handler holds no thread while it waits (mcp/session/responder.hpp);
//  - request() blocks its calling thread until the response, the timeout or cancellation;
//    request_async() returns at once and calls back with the answer, holding no thread.
// All public members are thread-safe. The Handler must outlive the session's `shutdown()`.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"
#include "mcp/json.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/session/cancellation.hpp"
#include "mcp/session/responder.hpp"
#include "mcp/session/thread_pool.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp {

struct ProgressInfo {
  double progress = 0;
  std::optional<double> total{};
  std::optional<std::string> message{};
};

struct RequestOptions {
  // Default: Session::Options::request_timeout.
  std::optional<std::chrono::milliseconds> timeout{};
  // If set, a progressToken is attached to params._meta and progress notifications come here
  // (on the reader thread: keep it short).
  std::function<void(const ProgressInfo&)> on_progress;
  // Progress restarts the timeout, bounded by max_total_timeout (default: none).
  bool reset_timeout_on_progress = true;
  std::optional<std::chrono::milliseconds> max_total_timeout{};
  // Cancelling it sends notifications/cancelled to the peer and fails the call with -32800.
  CancellationToken cancel{};
  // Routing hint for transports: the inbound request this one is sent on behalf of.
  jsonrpc::Id related_request_id;
  // Headers for transports that have them (SendInfo::headers).
  std::vector<std::pair<std::string, std::string>> headers{};
  // Told the id the request goes out with, before it is sent (so before any answer or any
  // notification that names it, e.g. a subscription's).
  std::function<void(std::int64_t id)> on_id{};
  // Members added to params._meta as the request is written (jsonrpc::MetaMembers), not copied
  // into params: a 2026-07-28 client's envelope, the same for each of its requests.
  std::shared_ptr<const jsonrpc::MetaMembers> meta{};
};

// An inbound request as a handler sees it.
struct InboundRequest {
  jsonrpc::Id id;
  std::string method{};
  json::object params{};                     // {} when the request had none
  std::optional<json::value> progress_token{};  // params._meta.progressToken, if any
  CancellationToken cancel{};                // cancelled by the peer, by shutdown, or by close
  bool on_reader = false;  // started on the transport's reader thread (Handler::runs_inline said so)
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  struct Options {
    std::chrono::milliseconds request_timeout{60'000};  // outbound requests
    std::size_t max_workers = 16;                       // this session's concurrent inbound handlers
    std::shared_ptr<ThreadPool> pool{};                   // where they run; null: ThreadPool::shared()
    std::size_t max_pending_inbound = 1024;             // queued + running; past it: -32603 "busy"
    std::size_t max_pending_inbound_bytes = 16 << 20;   // their frames' bytes; past it: -32603 "busy"
    jsonrpc::Limits limits;                             // decoder limits (see codec.hpp)
    std::string name = "mcp";                           // prefix of log lines
    // When the peer ends its input in order, requests already received get this long to be
    // answered before the session closes (Transport::Callbacks::on_input_end).
    std::chrono::milliseconds drain_timeout{5'000};
    // A message over limits.max_message_bytes ends the connection (with an error naming the limit)
    // instead of being answered: right for a client, which cannot tell what the message answered.
    bool close_on_oversize = false;
  };

  class Handler {
   public:
    virtual ~Handler() = default;
    // Where a request starts: on a worker thread (or the reader thread, see runs_inline). Answer
    // through `reply`, before returning or later from any thread. The session sends the answer,
    // unless the peer cancelled the request meanwhile (then nothing is sent, as the specification
    // asks). Default: reply(handle_request(request)).
    virtual void start_request(InboundRequest& request, Responder reply) { reply(handle_request(request)); }
    // The synchronous form, for handlers that answer before returning; may block.
    [[nodiscard]] virtual Result<json::value> handle_request(InboundRequest& request) {
      return fail(Error::method_not_found(request.method));
    }
    // On the reader thread, in arrival order; must not block. cancelled/progress are handled by
    // the session first and then passed on here too.
    virtual void handle_notification(const jsonrpc::Notification& notification) = 0;
    // Once, when the transport closes (reason empty for an orderly close).
    virtual void handle_closed(const std::optional<Error>& reason) { (void)reason; }
    // True if handle_request for this method never blocks (no I/O, no nested request to the peer,
    // no long computation): it then runs on the reader thread itself, saving two thread hand-offs.
    // Called on the reader thread; must be cheap. Default: every request goes to a worker.
    virtual bool runs_inline(const std::string& method, const json::object* params) const {
      (void)method;
      (void)params;
      return false;
    }
    // What a running handle_request keeps alive: while a handler runs on a pool thread, the
    // session holds this reference, so the handler object cannot be destroyed under it (its last
    // reference then goes on that thread once the handler has returned). Default: nothing.
    virtual std::shared_ptr<void> keep_alive() { return nullptr; }
  };

  static std::shared_ptr<Session> create(std::shared_ptr<Transport> transport, Handler& handler, Options options);
  Session(std::shared_ptr<Transport> transport, Handler& handler, Options options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  [[nodiscard]] Result<void> start();

  // Sends a request and blocks for its result. Errors: the peer's error response as sent; -32001 on
  // timeout; -32800 on cancellation; -32000 if the connection closes first. The caller spins up
  // to 50 µs for the answer before sleeping if it is the session's only caller waiting, or if
  // most of the session's recent answers came within 100 µs (spins_for_answers()); otherwise it
  // sleeps at once.
  [[nodiscard]] Result<json::value> request(std::string_view method, const json::object& params, RequestOptions options = {});
  // The same without blocking: `done` is called once with what request() would have returned, on
  // the reader thread (an answer), the timer's thread (a timeout), the cancelling thread, or this
  // one (the connection had closed). Keep it short; it must not block on the peer.
  void request_async(std::string_view method, const json::object& params, RequestOptions options,
                     std::function<void(Result<json::value>)> done);

  [[nodiscard]] Result<void> notify(std::string_view method, json::object params, const jsonrpc::Id& related_request_id = nullptr);

  // Whether request() callers spin for their answers while other callers wait too: true while at
  // least half of this session's last 16 answers to request() came within 100 µs (a new
  // session's do). Spinning saves a sleep and a wake-up when answers are quick; when they are
  // not (a remote peer, a slow tool, callers queueing for a busy peer), many callers' spins only
  // take CPU from whoever makes the answers.
  bool spins_for_answers() const;

  // See Transport::close_request_stream.
  void close_request_stream(const jsonrpc::Id& request_id);

  // Closes the transport; pending outbound requests fail with -32000 and inbound handlers are cancelled.
  void close();
  // close() and wait for this session's running handlers to finish (from a handler of this
  // session: all but the caller's own).
  void shutdown();
  bool closed() const;
  // Blocks until the transport has closed.
  void wait_closed();
  // True on a thread running one of this session's transport callbacks (reading a message,
  // delivering the close): shutdown() or wait_closed() there would wait for this thread itself.
  // An owner whose last reference may go there tears down elsewhere instead.
  bool inside_callback() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;  // shared with running handlers (see Handler::keep_alive)
};

}  // namespace mcp
