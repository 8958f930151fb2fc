// The session engine's public API and its lifecycle; the inbound path and the state are in
// session_impl.hpp, outbound requests in session_outbound.cpp.
#include "mcp/session/session.hpp"

#include "session/inside.hpp"
#include "session/session_impl.hpp"

namespace mcp {

thread_local const void* detail::tls_current_session = nullptr;

std::shared_ptr<Session> Session::create(std::shared_ptr<Transport> transport, Handler& handler, Options options) {
  return std::make_shared<Session>(std::move(transport), handler, std::move(options));
}

Session::Session(std::shared_ptr<Transport> transport, Handler& handler, Options options)
    : impl_(std::make_shared<Impl>(std::move(transport), handler, std::move(options))) {}

Session::~Session() { shutdown(); }

Result<void> Session::start() {
  {
    std::lock_guard lock(impl_->mu);
    if (impl_->started) return fail(Error::internal("session already started"));
    impl_->started = true;
  }
  Impl* impl = impl_.get();
  // Each callback marks its thread (inside.hpp): an owner released inside one must not wait here
  // for the close that this thread delivers.
  auto started = impl_->transport->start(Transport::Callbacks{
      [impl](std::string frame) {
        detail::Inside mark(impl);
        impl->on_frame(std::move(frame));
      },
      [impl](std::optional<Error> reason) {
        detail::Inside mark(impl);
        impl->on_closed(std::move(reason));
      },
      [impl] {
        detail::Inside mark(impl);
        impl->on_input_end();
      },
      [impl](jsonrpc::Message m, std::size_t bytes) {
        detail::Inside mark(impl);
        impl->on_decoded(std::move(m), bytes);
      },
      [impl](const jsonrpc::Id& id, Error e) {
        detail::Inside mark(impl);
        impl->complete(id, fail(std::move(e)));
      },
  });
  if (!started) {
    // Nothing will ever call on_close: shutdown() must not wait for it.
    std::lock_guard lock(impl_->mu);
    impl_->started = false;
  }
  return started;
}

bool Responder::operator()(Result<json::value> result) const { return slot_ && slot_->answer(std::move(result)); }

const jsonrpc::Id& Responder::id() const {
  static const jsonrpc::Id none;
  return slot_ ? slot_->id() : none;
}

Result<void> Session::notify(std::string_view method, json::object params, const jsonrpc::Id& related_request_id) {
  bool closed;
  {
    std::lock_guard lock(impl_->mu);
    closed = impl_->closed;
  }
  if (closed) return fail(impl_->closed_error());
  auto sent = impl_->put(jsonrpc::Notification{std::string(method), std::move(params)},
                        SendInfo{SendInfo::Kind::notification, related_request_id});
  if (!sent) return fail(impl_->closed_error(sent.error()));
  return sent;
}

void Session::close() { impl_->transport->close(); }

void Session::close_request_stream(const jsonrpc::Id& request_id) { impl_->transport->close_request_stream(request_id); }

void Session::shutdown() {
  if (!impl_) return;
  close();
  bool started;
  {
    std::lock_guard lock(impl_->mu);
    started = impl_->started;
  }
  if (started) wait_closed();
  impl_->wait_jobs();
}

bool Session::inside_callback() const { return detail::Inside::here(impl_.get()); }

bool Session::closed() const {
  std::lock_guard lock(impl_->mu);
  return impl_->closed;
}

void Session::wait_closed() {
  std::unique_lock lock(impl_->mu);
  impl_->closed_cv.wait(lock, [this] { return impl_->close_delivered; });
}

}  // namespace mcp
