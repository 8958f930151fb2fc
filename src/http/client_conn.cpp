#include "http/client_conn.hpp"

#include <sys/socket.h>

#include <cerrno>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/parse.hpp>

namespace mcp::http {

using tcp = net::ip::tcp;
constexpr auto nothrow = net::as_tuple(net::use_awaitable);

Result<Endpoint> parse_endpoint(const std::string& url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return fail(Error::invalid_params("not a URL: '" + url + "' (" + u.error().message() + ")"));
  Endpoint ep;
  ep.url = url;
  auto scheme = u->scheme();
  if (scheme == "https") ep.tls = true;
  else if (scheme != "http") return fail(Error::invalid_params("unsupported URL scheme '" + std::string(scheme) + "' in " + url + " (http or https)"));
  ep.host = std::string(u->host());
  if (ep.host.empty()) return fail(Error::invalid_params("no host in URL " + url));
  if (ep.host.front() == '[' && ep.host.back() == ']') ep.host = ep.host.substr(1, ep.host.size() - 2);
  ep.port = u->has_port() ? std::string(u->port()) : (ep.tls ? "443" : "80");
  ep.target = std::string(u->encoded_path());
  if (ep.target.empty()) ep.target = "/";
  if (u->has_query()) ep.target += "?" + std::string(u->encoded_query());
  return ep;
}

std::string host_header(const Endpoint& ep) {
  bool ipv6 = ep.host.find(':') != std::string::npos;
  return (ipv6 ? "[" + ep.host + "]" : ep.host) + ":" + ep.port;
}

beast::tcp_stream& ClientConn::lowest() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }

net::awaitable<Result<void>> ClientConn::connect(const Endpoint& ep, std::chrono::milliseconds timeout) {
  where_ = ep.url;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::max(std::chrono::milliseconds(1),
                    std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
  };
  // Resolution has no stream deadline of its own: a timer cancels it. The timer's handler may run
  // after this step returned (fired as the answer came): it reaches the resolver only if it lives.
  resolver_ = std::make_shared<tcp::resolver>(ex_);
  const std::string aborted_text = "connecting to " + ep.url + " was aborted";
  tcp::resolver::results_type results;
  {
    net::steady_timer guard(ex_, left());
    guard.async_wait([weak = std::weak_ptr<tcp::resolver>(resolver_)](boost::system::error_code ec) {
      if (auto r = weak.lock(); r && !ec) r->cancel();
    });
    auto [rec, found] = co_await resolver_->async_resolve(ep.host, ep.port, nothrow);
    guard.cancel();
    resolver_.reset();
    if (aborted_) co_return fail(Error::connection_closed(aborted_text));
    if (rec == net::error::operation_aborted)
      co_return fail(Error::connection_closed("cannot resolve " + ep.host + ": timed out after " +
                                              std::to_string(timeout.count()) + " ms (connect_timeout)"));
    if (rec) co_return fail(Error::connection_closed("cannot resolve " + ep.host + ": " + rec.message()));
    results = std::move(found);
  }
  if (ep.tls) {
    if (!tls_ctx_) co_return fail(Error::internal("no TLS context for " + ep.url));
    tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ex_, *tls_ctx_);
    // SNI and host name verification.
    if (!SSL_set_tlsext_host_name(tls_->native_handle(), ep.host.c_str())) {
      co_return fail(Error::connection_closed("TLS: cannot set server name " + ep.host));
    }
    tls_->set_verify_callback(net::ssl::host_name_verification(ep.host));
  } else {
    plain_ = std::make_unique<beast::tcp_stream>(ex_);
  }
  lowest().expires_after(left());
  auto [ec, where] = co_await lowest().async_connect(results, nothrow);
  (void)where;
  if (aborted_) co_return fail(Error::connection_closed(aborted_text));
  if (ec == beast::error::timeout)
    co_return fail(Error::connection_closed("cannot connect to " + ep.url + ": timed out after " +
                                            std::to_string(timeout.count()) + " ms (connect_timeout)"));
  if (ec) co_return fail(Error::connection_closed("cannot connect to " + ep.url + ": " + ec.message()));
  boost::system::error_code ignored;
  lowest().socket().set_option(tcp::no_delay(true), ignored);
  fd_ = lowest().socket().native_handle();
  if (aborted_) ::shutdown(fd_, SHUT_RDWR);  // abort() came before there was a descriptor to shut
  if (tls_) {
    lowest().expires_after(left());
    auto [hec] = co_await tls_->async_handshake(net::ssl::stream_base::client, nothrow);
    if (hec && aborted_) co_return fail(Error::connection_closed(aborted_text));  // close() or a cancel, not the peer
    if (hec == beast::error::timeout)
      co_return fail(Error::connection_closed("TLS handshake with " + ep.url + ": timed out after " +
                                              std::to_string(timeout.count()) + " ms (connect_timeout)"));
    if (hec) co_return fail(Error::connection_closed("TLS handshake with " + ep.url + " failed: " + hec.message()));
  }
  lowest().expires_never();
  co_return Result<void>{};
}

void ClientConn::expire() {
  if (!plain_ && !tls_) return;
  fd_ = -1;  // abort() from another thread must not shut a descriptor number reused meanwhile
  boost::system::error_code ignored;
  lowest().socket().close(ignored);
}

bool ClientConn::peer_closed(const boost::system::error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset ||
         ec == net::error::broken_pipe || ec == net::error::connection_aborted;
}

namespace {

// The request's bytes as Beast writes them: request line, each field, the blank line, the body.
// Only for a body sent whole (Content-Length set, or none): a chunked one is Beast's to write.
std::string wire_text(const bhttp::request<bhttp::string_body>& req) {
  std::string out;
  out.reserve(256 + req.body().size());
  out.append(req.method_string()).append(" ").append(req.target()).append(" HTTP/");
  out.append(std::to_string(req.version() / 10)).append(".").append(std::to_string(req.version() % 10)).append("\r\n");
  for (const auto& f : req) out.append(f.name_string()).append(": ").append(f.value()).append("\r\n");
  out.append("\r\n").append(req.body());
  return out;
}

}  // namespace

net::awaitable<Result<void>> ClientConn::write(bhttp::request<bhttp::string_body>& req) {
  if (plain_ && !req.chunked() && (req.has_content_length() || req.body().empty())) co_return co_await write_plain(wire_text(req));
  deadline_.expires_after(timeouts_.write);
  auto [ec, n] = tls_ ? co_await bhttp::async_write(*tls_, req, nothrow) : co_await bhttp::async_write(*plain_, req, nothrow);
  (void)n;
  deadline_.expires_never();
  co_return written(ec);
}

net::awaitable<Result<void>> ClientConn::write_plain(std::string text) {
  // What fits the socket's send buffer (nearly every request) goes with one send(2): no timer
  // armed. Beast's serializer and a timed write cost ~25 k instructions per request, a third of a
  // direct HTTP call's (bench/RESULTS.md, 2026-11-27 "third evening"). The rest, if any, is written
  // by the loop under the write deadline.
  std::string_view rest(text);
  while (!rest.empty()) {
    const ssize_t n = ::send(fd_.load(), rest.data(), rest.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      rest.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      break;
    } else {
      co_return written(boost::system::error_code(n < 0 ? errno : EPIPE, boost::system::system_category()));
    }
  }
  if (rest.empty()) co_return Result<void>{};
  deadline_.expires_after(timeouts_.write);
  auto [ec, n] = co_await net::async_write(*plain_, net::buffer(rest.data(), rest.size()), nothrow);
  (void)n;
  deadline_.expires_never();
  co_return written(ec);
}

Result<void> ClientConn::written(const boost::system::error_code& ec) {
  if (ec && deadline_.expired())
    return fail(Error::connection_closed("sending to " + where_ + " timed out after " +
                                         std::to_string(timeouts_.write.count()) + " ms (write_timeout)"));
  if (ec) {
    closed_by_peer_ = peer_closed(ec);
    return fail(Error::connection_closed("sending to " + where_ + " failed: " + ec.message()));
  }
  return {};
}

net::awaitable<Result<void>> ClientConn::read_header(ResponseParser& parser) {
  deadline_.expires_after(timeouts_.response);
  auto [ec, n] = tls_ ? co_await bhttp::async_read_header(*tls_, buffer_, parser, nothrow)
                      : co_await bhttp::async_read_header(*plain_, buffer_, parser, nothrow);
  (void)n;
  deadline_.expires_never();
  if (ec && deadline_.expired())
    co_return fail(Error::connection_closed("no HTTP response from " + where_ + " within " +
                                            std::to_string(timeouts_.response.count()) + " ms (response_timeout)"));
  if (ec) {
    // Not a byte of an answer: the server closed the connection without reading the request, as
    // one does with a kept connection it found idle.
    closed_by_peer_ = peer_closed(ec) && !parser.got_some() && buffer_.size() == 0;
    co_return fail(Error::connection_closed("no HTTP response from " + where_ + ": " + ec.message()));
  }
  co_return Result<void>{};
}

net::awaitable<Result<void>> ClientConn::read_body(ResponseParser& parser,
                                                   const std::function<bool(std::string_view)>& on_data) {
  // The connection's own, not the coroutine frame's: a 16 KiB frame per read went to malloc and
  // back each time (malloc_consolidate showed in the gateway's profile).
  if (!chunk_) chunk_ = std::make_unique_for_overwrite<char[]>(kChunk);
  char* chunk = chunk_.get();
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = kChunk;
    // read_some, not read: read() would wait for the chunk buffer to fill, holding SSE events back.
    deadline_.expires_after(timeouts_.idle);
    auto [ec, got] = tls_ ? co_await bhttp::async_read_some(*tls_, buffer_, parser, nothrow)
                          : co_await bhttp::async_read_some(*plain_, buffer_, parser, nothrow);
    (void)got;
    deadline_.expires_never();
    const bool timed_out = ec && deadline_.expired();
    if (ec == bhttp::error::need_buffer) ec = {};
    std::size_t n = kChunk - parser.get().body().size;
    if (n && !on_data(std::string_view(chunk, n))) co_return Result<void>{};
    if (ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == bhttp::error::partial_message) co_return Result<void>{};
    if (timed_out)
      co_return fail(Error::connection_closed("nothing from " + where_ + " for " + std::to_string(timeouts_.idle.count()) +
                                              " ms (stream_idle_timeout)"));
    if (ec) co_return fail(Error::connection_closed("reading from " + where_ + " failed: " + ec.message()));
  }
  co_return Result<void>{};
}

net::awaitable<std::string> ClientConn::read_body_upto(ResponseParser& parser, std::size_t limit) {
  std::string body;
  (void)co_await read_body(parser, [&](std::string_view d) {
    body.append(d.substr(0, limit - std::min(limit, body.size())));
    return body.size() < limit;
  });
  co_return body;
}

void ClientConn::abort() {
  // shutdown(2) on the descriptor is safe from any thread, and the loop sees the pending read or
  // write end at once.
  aborted_ = true;
  int fd = fd_.load();
  if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
}

void ClientConn::cancel() {
  aborted_ = true;
  if (resolver_) resolver_->cancel();
  if (plain_ || tls_) lowest().cancel();
}

Result<void> BlockingConn::run(net::awaitable<Result<void>> step) {
  std::optional<Result<void>> out;
  net::co_spawn(ioc_, std::move(step), [&](std::exception_ptr e, Result<void> r) {
    out = e ? fail(Error::internal("an HTTP exchange failed unexpectedly")) : std::move(r);
    // Not run until out of work: the connection's deadline timer may stay armed between steps.
    ioc_.stop();
  });
  ioc_.restart();
  ioc_.run();
  return out ? std::move(*out) : fail(Error::internal("an HTTP exchange did not complete"));
}

}  // namespace mcp::http
