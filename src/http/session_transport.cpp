#include "http/session_transport.hpp"

#include "mcp/jsonrpc/codec.hpp"

#include "log/log.hpp"

namespace mcp::http {

SessionTransport::SessionTransport(std::string session_id, Limits limits)
    : id_(std::move(session_id)),
      limits_(limits),
      created_(std::chrono::steady_clock::now()),
      last_activity_(created_) {}

SessionTransport::~SessionTransport() { close(); }

Result<void> SessionTransport::start(Callbacks callbacks) {
  std::lock_guard lock(mu_);
  if (started_) return fail(Error::internal("transport already started"));
  started_ = true;
  callbacks_ = std::move(callbacks);
  return {};
}

std::shared_ptr<Stream> SessionTransport::make_stream() {
  const std::uint64_t n = next_stream_++;
  auto s = std::make_shared<Stream>(std::to_string(n), limits_.max_events_per_stream, stored_bytes_);
  by_stream_[n] = s;
  // Forget the oldest finished streams beyond the bound; open ones are never dropped.
  for (auto it = by_stream_.begin(); by_stream_.size() > limits_.max_remembered_streams && it != by_stream_.end();) {
    if (it->second->finished() && it->second != standalone_) it = by_stream_.erase(it);
    else ++it;
  }
  return s;
}

Result<std::shared_ptr<Stream>> SessionTransport::open_request_stream(const jsonrpc::Id& id) {
  std::lock_guard lock(mu_);
  if (closed_) return fail(Error::connection_closed("session closed"));
  if (by_request_.size() >= limits_.max_streams) {
    return fail(Error::internal("too many concurrent requests on this session (limit " +
                                std::to_string(limits_.max_streams) + ", max_streams_per_session)"));
  }
  auto key = jsonrpc::id_key(id);
  if (by_request_.contains(key)) {
    return fail(Error::invalid_request("request id " + peer_text(key) + " is already in use by a request in progress"));
  }
  auto s = make_stream();
  by_request_[key] = s;
  return s;
}

void SessionTransport::forget_stream(const std::shared_ptr<Stream>& s) {
  std::lock_guard lock(mu_);
  for (const auto& [key, open] : by_request_)
    if (open == s) return;
  std::erase_if(by_stream_, [&](const auto& entry) { return entry.second == s; });
}

Result<std::shared_ptr<Stream>> SessionTransport::standalone_stream() {
  std::lock_guard lock(mu_);
  if (closed_) return fail(Error::connection_closed("session closed"));
  if (!standalone_) standalone_ = make_stream();
  return standalone_;
}

std::optional<std::pair<std::shared_ptr<Stream>, std::uint64_t>> SessionTransport::find_event(
    const std::string& last_event_id) {
  // "<stream>_<seq>", both decimal; anything else (or a number that does not fit) names nothing.
  auto number = [](std::string_view s) -> std::optional<std::uint64_t> {
    if (s.empty() || s.size() > 20) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      auto d = static_cast<std::uint64_t>(c - '0');
      if (v > (UINT64_MAX - d) / 10) return std::nullopt;  // would wrap (review #16)
      v = v * 10 + d;
    }
    return v;
  };
  auto us = last_event_id.rfind('_');
  if (us == std::string::npos) return std::nullopt;
  auto stream = number(std::string_view(last_event_id).substr(0, us));
  auto seq = number(std::string_view(last_event_id).substr(us + 1));
  if (!stream || !seq) return std::nullopt;
  std::lock_guard lock(mu_);
  auto it = by_stream_.find(*stream);
  if (it == by_stream_.end()) return std::nullopt;
  return std::make_pair(it->second, *seq);
}

void SessionTransport::deliver(jsonrpc::Message message, std::size_t bytes) {
  // Requests share the lock with each other (both I/O threads serve one session's POSTs at once);
  // anything else holds it alone. Either way close() waits for it.
  std::shared_lock shared(deliver_mu_, std::defer_lock);
  std::unique_lock alone(deliver_mu_, std::defer_lock);
  if (std::holds_alternative<jsonrpc::Request>(message)) shared.lock();
  else alone.lock();
  {
    std::lock_guard lock(mu_);
    last_activity_ = std::chrono::steady_clock::now();
    if (closed_ || !started_) return;
  }
  // callbacks_ is written once, by start() under mu_ before started_ is set: read without a copy.
  // Decoded once: the session takes the message as it is, unless it only takes frames.
  if (callbacks_.on_decoded) callbacks_.on_decoded(std::move(message), bytes);
  else callbacks_.on_message(jsonrpc::encode(message));
}

Result<void> SessionTransport::send(std::string frame, const SendInfo& info) {
  std::shared_ptr<Stream> target;
  bool final = false;
  {
    std::lock_guard lock(mu_);
    if (closed_) return fail(Error::connection_closed("session closed"));
    if (!info.related_id.is_null()) {
      auto key = jsonrpc::id_key(info.related_id);
      if (auto it = by_request_.find(key); it != by_request_.end()) {
        target = it->second;
        if (info.kind == SendInfo::Kind::response) {
          final = true;
          by_request_.erase(it);
          // Answering is activity too: a session whose long call just ended is not idle, and the
          // reaper must not end it the moment the call stops counting as in progress.
          last_activity_ = std::chrono::steady_clock::now();
        }
      }
    }
    // A response belongs on its request's stream only; that stream is gone (answered already, or the
    // session restarted), so there is nowhere to send it.
    if (!target && info.kind == SendInfo::Kind::response) {
      MCP_LOG_DEBUG("http session {}: response to {} has no open request stream; dropped", id_,
                    peer_text(jsonrpc::id_key(info.related_id)));
      return {};
    }
    // Not tied to an open request stream: the standalone stream, if the client opened one.
    if (!target) target = standalone_;
  }
  if (!target) {
    MCP_LOG_DEBUG("http session {}: no stream for a message (no GET stream open); dropped", id_);
    return {};
  }
  target->push(std::move(frame), final);
  if (stored_bytes_->load() > limits_.max_stored_bytes) enforce_budget(target);
  return {};
}

void SessionTransport::enforce_budget(const std::shared_ptr<Stream>& pushed) {
  std::vector<std::shared_ptr<Stream>> open;
  {
    std::lock_guard lock(mu_);
    // First forget whole finished streams, oldest first: their answers were delivered, or their
    // clients left.
    for (auto it = by_stream_.begin(); it != by_stream_.end() && stored_bytes_->load() > limits_.max_stored_bytes;) {
      if (it->second->finished() && it->second != standalone_ && it->second != pushed && !it->second->attached()) {
        it = by_stream_.erase(it);
      } else {
        open.push_back(it->second);
        ++it;
      }
    }
  }
  // Then drop the oldest events of the rest (what a writer has already sent first: see evict()).
  for (const auto& s : open) {
    auto over = stored_bytes_->load();
    if (over <= limits_.max_stored_bytes) return;
    s->evict(over - limits_.max_stored_bytes);
  }
  if (stored_bytes_->load() > limits_.max_stored_bytes) {
    MCP_LOG_DEBUG("http session {}: {} bytes stored for resumption, over the {} budget, none of them evictable now",
                  id_, stored_bytes_->load(), limits_.max_stored_bytes);
  }
}

void SessionTransport::close_request_stream(const jsonrpc::Id& request_id) {
  std::shared_ptr<Stream> s;
  {
    std::lock_guard lock(mu_);
    if (auto it = by_request_.find(jsonrpc::id_key(request_id)); it != by_request_.end()) s = it->second;
  }
  if (s) s->cut();
}

void SessionTransport::request_dropped(const jsonrpc::Id& request_id) {
  std::shared_ptr<Stream> s;
  {
    std::lock_guard lock(mu_);
    auto it = by_request_.find(jsonrpc::id_key(request_id));
    if (it == by_request_.end()) return;
    s = std::move(it->second);
    by_request_.erase(it);
  }
  s->finish();  // its writer ends the response; nothing more will come
}

void SessionTransport::close() {
  std::function<void(std::optional<Error>)> on_close;
  std::map<std::uint64_t, std::shared_ptr<Stream>> streams;
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
    streams.swap(by_stream_);
    by_request_.clear();
    standalone_.reset();
    if (started_) on_close = callbacks_.on_close;
  }
  for (auto& [id, s] : streams) s->finish();
  // Wait for every delivery in progress so that on_close is the last callback, as Transport promises.
  std::unique_lock d(deliver_mu_);
  if (on_close) on_close(std::nullopt);
}

std::size_t SessionTransport::open_requests() const {
  std::lock_guard lock(mu_);
  return by_request_.size();
}

bool SessionTransport::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

void SessionTransport::touch() {
  std::lock_guard lock(mu_);
  last_activity_ = std::chrono::steady_clock::now();
}

std::chrono::steady_clock::time_point SessionTransport::last_activity() const {
  std::lock_guard lock(mu_);
  return last_activity_;
}

}  // namespace mcp::http
