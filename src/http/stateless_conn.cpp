#include "http/stateless_conn.hpp"

#include <utility>

namespace mcp::http {

Result<std::shared_ptr<SessionTransport>> StatelessConn::transport_for(const McpEndpoint& ep) {
  if (transport_ && !transport_->closed() && endpoint_.lock().get() == &ep) return transport_;
  drop();
  auto transport = std::make_shared<SessionTransport>("stateless", state_.session_limits());
  auto session = ep.server->connect(transport);
  if (!session) return fail(session.error());
  bool removed;
  {
    // Recorded so that stop() and removing the endpoint can end it (server.cpp). Checked under the
    // lock end_sessions_of takes: either it sees this session, or this sees the flag.
    std::lock_guard lock(state_.mu);
    removed = ep.removed;
    if (!removed) {
      slot_ = state_.next_stateless++;
      state_.stateless_sessions.emplace(*slot_, StatelessEntry{*session, &ep});
    }
  }
  endpoint_ = ep.shared_from_this();
  transport_ = std::move(transport);
  session_ = std::move(*session);
  if (removed) {
    drop();  // closed and let go on the pool, like any other
    return fail(Error::internal("the endpoint is no longer served"));
  }
  return transport_;
}

void StatelessConn::drop() {
  if (!session_) return;
  if (slot_) {
    std::lock_guard lock(state_.mu);
    state_.stateless_sessions.erase(*slot_);
    slot_.reset();
  }
  ServerState::close_and_release(std::exchange(session_, nullptr));
  transport_.reset();
  endpoint_.reset();
}

}  // namespace mcp::http
