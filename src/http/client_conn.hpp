// Private: one blocking HTTP/1.1 exchange over TCP or TLS, for the client transport. Every step
// has a deadline that is really enforced: each is an asynchronous operation on the connection's own
// io_context, run to completion by the calling thread (Beast's expires_after bounds only
// asynchronous operations). A plain (not TLS) connection avoids the loop where it can: its request
// is offered to send(2) without waiting, only what does not fit going through the loop, and its
// answer is read by Beast's synchronous algorithms over recv(2) and poll(2) with the same
// deadlines. abort() from another thread ends a blocked step at once.
#pragma once

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "mcp/error.hpp"

namespace mcp::http {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

struct Endpoint {
  bool tls = false;
  std::string host;
  std::string port;
  std::string target;  // path and query, "/" at least
  std::string url;     // as given, for messages
};

// Parses an http(s) URL; -32602 naming the problem otherwise.
Result<Endpoint> parse_endpoint(const std::string& url);
// The Host header for an endpoint: "host:port", with brackets around an IPv6 address.
std::string host_header(const Endpoint& ep);

struct ConnTimeouts {
  std::chrono::milliseconds connect{10'000};
  std::chrono::milliseconds write{30'000};
  std::chrono::milliseconds response{300'000};
  std::chrono::milliseconds idle{120'000};
};

class ClientConn {
 public:
  ClientConn(net::ssl::context* tls, ConnTimeouts timeouts) : tls_ctx_(tls), timeouts_(timeouts) {}

  // Resolve, connect and (for https) the TLS handshake, within `timeout`.
  Result<void> connect(const Endpoint& ep, std::chrono::milliseconds timeout);
  Result<void> connect(const Endpoint& ep) { return connect(ep, timeouts_.connect); }
  // Within the write timeout.
  Result<void> write(bhttp::request<bhttp::string_body>& req);
  // Reads the status line and headers, within the response timeout.
  Result<void> read_header(bhttp::response_parser<bhttp::buffer_body>& parser);
  // Reads the body in chunks, calling on_data for each; stops early if on_data returns false. Each
  // read must bring something within the idle timeout.
  Result<void> read_body(bhttp::response_parser<bhttp::buffer_body>& parser,
                         const std::function<bool(std::string_view)>& on_data);
  // The body's first `limit` bytes at most (an error's explanation, say); the rest is not read.
  std::string read_body_upto(bhttp::response_parser<bhttp::buffer_body>& parser, std::size_t limit);
  // From any thread: makes a blocked read return.
  void abort();
  // Connected, never aborted, and nothing read past the last message: another request may follow
  // on it (keep-alive), once its response was read to the end.
  bool reusable() const { return (plain_ || tls_) && !aborted_.load() && buffer_.size() == 0; }
  bool aborted() const { return aborted_.load(); }
  // The last write or read_header failed because the server had closed the connection (EOF, a
  // reset) before any byte of an answer: the request can be sent again elsewhere. Not a timeout.
  bool closed_by_peer() const { return closed_by_peer_; }
  // From the reading thread, between reads: the stream_idle_timeout for the reads that follow.
  void set_idle_timeout(std::chrono::milliseconds idle) { timeouts_.idle = idle; }
  // A pooled connection taken for a new request starts again from the transport's deadlines (a
  // shortened idle timeout belonged to the request before).
  void reset_timeouts(ConnTimeouts timeouts) { timeouts_ = timeouts; }

 private:
  beast::tcp_stream& lowest();
  // A plain connection's request, its bytes already put together; then how a write ended.
  Result<void> write_plain(const std::string& text);
  Result<void> written(const boost::system::error_code& ec);
  // Runs the asynchronous operation started by `start` on this connection's io_context until it
  // completes, with the stream's deadline set to `timeout`; returns its error code.
  template <class Start>
  boost::system::error_code run(std::chrono::milliseconds timeout, Start&& start);

  net::io_context ioc_;  // this connection's own: only the calling thread runs it
  net::ssl::context* tls_ctx_;
  ConnTimeouts timeouts_;
  std::unique_ptr<beast::tcp_stream> plain_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  std::string where_;
  std::atomic<int> fd_{-1};
  std::atomic<bool> aborted_{false};
  bool closed_by_peer_ = false;
  static bool peer_closed(const boost::system::error_code& ec);
};

}  // namespace mcp::http
