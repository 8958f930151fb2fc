// Private: the Transport of one Streamable HTTP session, as the MCP session engine sees it.
//
// Inbound: the HTTP server hands each POSTed message to deliver(); requests from different POSTs
// concurrently, notifications and responses one at a time (see deliver_mu_). Outbound: send()
// routes by SendInfo — an answer to request X ends X's POST stream; anything sent while serving X
// (progress, log messages, sampling and elicitation requests) goes on X's stream too, never
// elsewhere; messages tied to no request go to the standalone GET stream, or are dropped (logged)
// when the client has none open, as the specification allows.
//
// Beast-free on purpose: HTTP connections only attach to Streams.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <optional>
#include <string>

#include "http/stream.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp::http {

class SessionTransport final : public Transport {
 public:
  struct Limits {
    std::size_t max_streams = 32;          // concurrent open request streams
    std::size_t max_events_per_stream = 256;
    std::size_t max_remembered_streams = 256;  // finished streams kept for Last-Event-ID
    // Bytes of stored events (kept for resumption) across all streams of the session. Past it the
    // oldest finished streams are forgotten, then the oldest events already sent are dropped.
    std::size_t max_stored_bytes = 4 * 1024 * 1024;
  };

  SessionTransport(std::string session_id, Limits limits);
  ~SessionTransport() override;

  // Transport
  Result<void> start(Callbacks callbacks) override;
  Result<void> send(std::string frame, const SendInfo& info) override;
  void close() override;
  void close_request_stream(const jsonrpc::Id& request_id) override;
  void request_dropped(const jsonrpc::Id& request_id) override;

  // HTTP side.
  const std::string& session_id() const { return id_; }
  // Hands a POSTed message to the session engine.
  // One decoded message and the size of its body (the HTTP layer decoded it to route it).
  void deliver(jsonrpc::Message message, std::size_t bytes);
  // Opens the answer stream of request `id` (call before deliver()). Fails past max_streams.
  Result<std::shared_ptr<Stream>> open_request_stream(const jsonrpc::Id& id);
  // The standalone GET stream; fails with 409-worthy error if one is already attached.
  Result<std::shared_ptr<Stream>> standalone_stream();
  // Lets a stream nobody will resume go now, with its stored events (a stateless request's: that
  // revision resumes nothing), rather than when max_remembered_streams or the byte budget push it
  // out. A request still answering on it keeps it.
  void forget_stream(const std::shared_ptr<Stream>& s);
  // The stream a Last-Event-ID belongs to, and the sequence to resume after.
  std::optional<std::pair<std::shared_ptr<Stream>, std::uint64_t>> find_event(const std::string& last_event_id);

  bool closed() const;
  // Requests still being answered: a session serving one is not idle.
  std::size_t open_requests() const;
  void touch();
  std::chrono::steady_clock::time_point last_activity() const;
  std::chrono::steady_clock::time_point created() const { return created_; }
  // The client completed the handshake (sent notifications/initialized).
  void mark_initialized() { initialized_.store(true); }
  bool initialized() const { return initialized_.load(); }
  // Bytes of events stored for resumption, all streams together.
  std::size_t stored_bytes() const { return stored_bytes_->load(); }

 private:
  std::shared_ptr<Stream> make_stream();  // requires mu_
  void enforce_budget(const std::shared_ptr<Stream>& pushed);

  const std::string id_;
  const Limits limits_;
  const std::chrono::steady_clock::time_point created_;
  std::atomic<bool> initialized_{false};
  const std::shared_ptr<std::atomic<std::size_t>> stored_bytes_ = std::make_shared<std::atomic<std::size_t>>(0);
  mutable std::mutex mu_;
  // Deliveries against close(): requests from different POSTs are delivered concurrently (shared),
  // since HTTP gives them no order and the session handles requests from many threads anyway;
  // notifications and responses one at a time (exclusive), and close() waits for every delivery
  // in progress, so that on_close is the last callback.
  std::shared_mutex deliver_mu_;
  Callbacks callbacks_;
  bool started_ = false;
  bool closed_ = false;
  std::uint64_t next_stream_ = 1;
  std::map<std::string, std::shared_ptr<Stream>> by_request_;  // id_key -> open answer stream
  std::map<std::uint64_t, std::shared_ptr<Stream>> by_stream_;  // stream id -> stream, oldest first (bounded)
  std::shared_ptr<Stream> standalone_;
  std::chrono::steady_clock::time_point last_activity_;
};

}  // namespace mcp::http
