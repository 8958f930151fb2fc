#include "http/client_conn.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <climits>

#include <boost/url/parse.hpp>

namespace mcp::http {

using tcp = net::ip::tcp;

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

template <class Start>
boost::system::error_code ClientConn::run(std::chrono::milliseconds timeout, Start&& start) {
  boost::system::error_code result = net::error::would_block;
  bool done = false;
  if (plain_ || tls_) lowest().expires_after(timeout);
  start([&](boost::system::error_code ec, auto&&...) {
    result = ec;
    done = true;
  });
  ioc_.restart();
  while (!done && ioc_.run_one() > 0) {
  }
  if (plain_ || tls_) lowest().expires_never();
  return done ? result : boost::system::error_code(net::error::operation_aborted);
}

Result<void> ClientConn::connect(const Endpoint& ep, std::chrono::milliseconds timeout) {
  where_ = ep.url;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::max(std::chrono::milliseconds(1),
                    std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
  };
  // Resolution has no stream deadline of its own: a timer cancels it.
  tcp::resolver resolver(ioc_);
  tcp::resolver::results_type results;
  {
    net::steady_timer guard(ioc_, left());
    guard.async_wait([&](boost::system::error_code ec) {
      if (!ec) resolver.cancel();
    });
    boost::system::error_code rec = net::error::would_block;
    bool resolved = false;
    resolver.async_resolve(ep.host, ep.port, [&](boost::system::error_code ec, tcp::resolver::results_type r) {
      rec = ec;
      results = std::move(r);
      resolved = true;
      guard.cancel();
    });
    ioc_.restart();
    while (!resolved && ioc_.run_one() > 0) {
    }
    ioc_.run();  // the guard's cancelled wait
    if (rec == net::error::operation_aborted)
      return fail(Error::connection_closed("cannot resolve " + ep.host + ": timed out after " +
                                           std::to_string(timeout.count()) + " ms (connect_timeout)"));
    if (rec) return fail(Error::connection_closed("cannot resolve " + ep.host + ": " + rec.message()));
  }
  if (ep.tls) {
    if (!tls_ctx_) return fail(Error::internal("no TLS context for " + ep.url));
    tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ioc_, *tls_ctx_);
    // SNI and host name verification.
    if (!SSL_set_tlsext_host_name(tls_->native_handle(), ep.host.c_str())) {
      return fail(Error::connection_closed("TLS: cannot set server name " + ep.host));
    }
    tls_->set_verify_callback(net::ssl::host_name_verification(ep.host));
  } else {
    plain_ = std::make_unique<beast::tcp_stream>(ioc_);
  }
  auto ec = run(left(), [&](auto handler) { lowest().async_connect(results, std::move(handler)); });
  if (ec == beast::error::timeout)
    return fail(Error::connection_closed("cannot connect to " + ep.url + ": timed out after " +
                                         std::to_string(timeout.count()) + " ms (connect_timeout)"));
  if (ec) return fail(Error::connection_closed("cannot connect to " + ep.url + ": " + ec.message()));
  boost::system::error_code ignored;
  lowest().socket().set_option(tcp::no_delay(true), ignored);
  fd_ = lowest().socket().native_handle();
  if (aborted_) ::shutdown(fd_, SHUT_RDWR);
  if (tls_) {
    ec = run(left(), [&](auto handler) { tls_->async_handshake(net::ssl::stream_base::client, std::move(handler)); });
    if (ec) return fail(Error::connection_closed("TLS handshake with " + ep.url + " failed: " + ec.message()));
  }
  return {};
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

// A plain connection's descriptor as Beast's synchronous algorithms read it: recv(2) without
// waiting, and when nothing is there poll(2) until `deadline` (then beast::error::timeout). Beast's
// own read_header and read_some drive the parser over it, as its asynchronous ones do over the
// event loop, without a timer armed or a loop run per read (~2 system calls and ~8 k instructions
// a call fewer, bench/RESULTS.md, "third evening"). abort()'s shutdown(2) ends a wait at once.
struct PolledReader {
  int fd;
  std::chrono::steady_clock::time_point deadline;

  template <class Buffers>
  std::size_t read_some(const Buffers& buffers, boost::system::error_code& ec) {
    const net::mutable_buffer b = beast::buffers_front(buffers);
    for (;;) {
      const ssize_t n = ::recv(fd, b.data(), b.size(), MSG_DONTWAIT);
      if (n > 0) {
        ec = {};
        return static_cast<std::size_t>(n);
      }
      if (n == 0) {
        ec = net::error::eof;
        return 0;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        ec.assign(errno, boost::system::system_category());
        return 0;
      }
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        ec = beast::error::timeout;
        return 0;
      }
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), INT_MAX))) < 0 && errno != EINTR) {
        ec.assign(errno, boost::system::system_category());
        return 0;
      }
    }
  }
  template <class Buffers>
  std::size_t read_some(const Buffers& buffers) {
    boost::system::error_code ec;
    const auto n = read_some(buffers, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
};

}  // namespace

Result<void> ClientConn::write(bhttp::request<bhttp::string_body>& req) {
  if (plain_ && !req.chunked() && (req.has_content_length() || req.body().empty())) return write_plain(wire_text(req));
  auto ec = run(timeouts_.write, [&](auto handler) {
    if (tls_) bhttp::async_write(*tls_, req, std::move(handler));
    else bhttp::async_write(*plain_, req, std::move(handler));
  });
  return written(ec);
}

Result<void> ClientConn::write_plain(const std::string& text) {
  // What fits the socket's send buffer (nearly every request) goes with send(2) on this thread: no
  // timer armed, no event loop run. Beast's serializer and the loop cost ~25 k instructions per
  // request, a third of a direct HTTP call's on its request thread (bench/RESULTS.md, 2026-11-27
  // "third evening"). The rest, if any, is written by the loop under the write deadline.
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
      return written(boost::system::error_code(n < 0 ? errno : EPIPE, boost::system::system_category()));
    }
  }
  if (rest.empty()) return {};
  return written(run(timeouts_.write, [&](auto handler) {
    net::async_write(*plain_, net::buffer(rest.data(), rest.size()), std::move(handler));
  }));
}

Result<void> ClientConn::written(const boost::system::error_code& ec) {
  if (ec == beast::error::timeout)
    return fail(Error::connection_closed("sending to " + where_ + " timed out after " +
                                         std::to_string(timeouts_.write.count()) + " ms (write_timeout)"));
  if (ec) {
    closed_by_peer_ = peer_closed(ec);
    return fail(Error::connection_closed("sending to " + where_ + " failed: " + ec.message()));
  }
  return {};
}

Result<void> ClientConn::read_header(bhttp::response_parser<bhttp::buffer_body>& parser) {
  boost::system::error_code ec;
  if (plain_) {
    PolledReader reader{fd_.load(), std::chrono::steady_clock::now() + timeouts_.response};
    bhttp::read_header(reader, buffer_, parser, ec);
  } else {
    ec = run(timeouts_.response, [&](auto handler) { bhttp::async_read_header(*tls_, buffer_, parser, std::move(handler)); });
  }
  if (ec == beast::error::timeout)
    return fail(Error::connection_closed("no HTTP response from " + where_ + " within " +
                                         std::to_string(timeouts_.response.count()) + " ms (response_timeout)"));
  if (ec) {
    // Not a byte of an answer: the server closed the connection without reading the request, as
    // one does with a kept connection it found idle.
    closed_by_peer_ = peer_closed(ec) && !parser.got_some() && buffer_.size() == 0;
    return fail(Error::connection_closed("no HTTP response from " + where_ + ": " + ec.message()));
  }
  return {};
}

Result<void> ClientConn::read_body(bhttp::response_parser<bhttp::buffer_body>& parser,
                                   const std::function<bool(std::string_view)>& on_data) {
  char chunk[16 * 1024];
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof chunk;
    // read_some, not read: read() would wait for the chunk buffer to fill, holding SSE events back.
    boost::system::error_code ec;
    if (plain_) {
      PolledReader reader{fd_.load(), std::chrono::steady_clock::now() + timeouts_.idle};
      bhttp::read_some(reader, buffer_, parser, ec);
    } else {
      ec = run(timeouts_.idle, [&](auto handler) { bhttp::async_read_some(*tls_, buffer_, parser, std::move(handler)); });
    }
    if (ec == bhttp::error::need_buffer) ec = {};
    std::size_t n = sizeof chunk - parser.get().body().size;
    if (n && !on_data(std::string_view(chunk, n))) return {};
    if (ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == bhttp::error::partial_message) return {};
    if (ec == beast::error::timeout)
      return fail(Error::connection_closed("nothing from " + where_ + " for " + std::to_string(timeouts_.idle.count()) +
                                           " ms (stream_idle_timeout)"));
    if (ec) return fail(Error::connection_closed("reading from " + where_ + " failed: " + ec.message()));
  }
  return {};
}

std::string ClientConn::read_body_upto(bhttp::response_parser<bhttp::buffer_body>& parser, std::size_t limit) {
  std::string body;
  (void)read_body(parser, [&](std::string_view d) {
    body.append(d.substr(0, limit - std::min(limit, body.size())));
    return body.size() < limit;
  });
  return body;
}

void ClientConn::abort() {
  // shutdown(2) on the descriptor is safe from any thread and wakes a blocked recv at once.
  aborted_ = true;
  int fd = fd_.load();
  if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
}

}  // namespace mcp::http
