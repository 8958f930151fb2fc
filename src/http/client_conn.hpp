// Private: one HTTP/1.1 connection over TCP or TLS, for the client side. Its steps are coroutines
// on the executor it was made with: the transport's event loop (client_loop.hpp) runs every
// exchange of a transport on one thread, however many are in flight, and a one-off fetch runs them
// on a loop of its own (BlockingConn, below). Every step has a deadline: the stream's expiry for the
// connect, a timer for resolution, a ConnDeadline (conn_deadline.hpp) for each read and write.
// abort() from any thread ends a pending step at once.
//
// Until 2026-12-02 each exchange ran on a thread of its own, blocked in recv(2) and poll(2): a
// gateway in front of an HTTP upstream spent half its CPU handing exchanges to those threads and
// waking them (bench/RESULTS.md, "2026-12-01 (night)").
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "http/conn_deadline.hpp"
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

using ResponseParser = bhttp::response_parser<bhttp::buffer_body>;

class ClientConn {
 public:
  ClientConn(net::any_io_executor ex, net::ssl::context* tls, ConnTimeouts timeouts)
      : ex_(std::move(ex)), tls_ctx_(tls), timeouts_(timeouts), deadline_(ex_, [this] { expire(); }) {}

  // Resolve, connect and (for https) the TLS handshake, within `timeout`.
  net::awaitable<Result<void>> connect(const Endpoint& ep, std::chrono::milliseconds timeout);
  net::awaitable<Result<void>> connect(const Endpoint& ep) { return connect(ep, timeouts_.connect); }
  // Within the write timeout.
  net::awaitable<Result<void>> write(bhttp::request<bhttp::string_body>& req);
  // Reads the status line and headers, within the response timeout.
  net::awaitable<Result<void>> read_header(ResponseParser& parser);
  // Reads the body in chunks, calling on_data for each; stops early if on_data returns false. Each
  // read must bring something within the idle timeout.
  net::awaitable<Result<void>> read_body(ResponseParser& parser, const std::function<bool(std::string_view)>& on_data);
  // The body's first `limit` bytes at most (an error's explanation, say); the rest is not read.
  net::awaitable<std::string> read_body_upto(ResponseParser& parser, std::size_t limit);
  // From any thread: makes a pending read or write end (shutdown(2) of the descriptor), and marks
  // the connection aborted. A connect in progress has no descriptor to shut yet: see cancel().
  void abort();
  // On the connection's executor only: aborts it, ending any pending step, a name resolution or a
  // connect included.
  void cancel();
  // Connected, never aborted, and nothing read past the last message: another request may follow
  // on it (keep-alive), once its response was read to the end.
  bool reusable() const { return (plain_ || tls_) && !aborted_.load() && buffer_.size() == 0; }
  bool aborted() const { return aborted_.load(); }
  // The last write or read_header failed because the server had closed the connection (EOF, a
  // reset) before any byte of an answer: the request can be sent again elsewhere. Not a timeout.
  bool closed_by_peer() const { return closed_by_peer_; }
  // Between reads: the stream_idle_timeout for the reads that follow.
  void set_idle_timeout(std::chrono::milliseconds idle) { timeouts_.idle = idle; }
  // A pooled connection taken for a new request starts again from the transport's deadlines (a
  // shortened idle timeout belonged to the request before).
  void reset_timeouts(ConnTimeouts timeouts) { timeouts_ = timeouts; }

 private:
  beast::tcp_stream& lowest();
  // A plain connection's request, its bytes already put together; then how a write ended.
  net::awaitable<Result<void>> write_plain(std::string text);
  Result<void> written(const boost::system::error_code& ec);
  // A read's or write's deadline passed: the socket is closed, which ends the step with an error.
  void expire();

  net::any_io_executor ex_;
  net::ssl::context* tls_ctx_;
  ConnTimeouts timeouts_;
  std::shared_ptr<net::ip::tcp::resolver> resolver_;  // while connect() resolves
  std::unique_ptr<beast::tcp_stream> plain_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  static constexpr std::size_t kChunk = 16 * 1024;
  std::unique_ptr<char[]> chunk_;  // what read_body reads into, made at its first read
  std::string where_;
  std::atomic<int> fd_{-1};
  std::atomic<bool> aborted_{false};
  bool closed_by_peer_ = false;
  static bool peer_closed(const boost::system::error_code& ec);
  // Of each read and write after the connect (which keeps the stream's own expiry, once per
  // connection). Last, so stopped before the streams it closes go.
  ConnDeadline deadline_;
};

// A ClientConn whose steps the calling thread runs to completion on a loop of the connection's
// own: for one-off exchanges (a well-known document, the DELETE that ends a session) made where no
// event loop runs.
class BlockingConn {
 public:
  BlockingConn(net::ssl::context* tls, ConnTimeouts timeouts) : conn_(ioc_.get_executor(), tls, timeouts) {}

  Result<void> connect(const Endpoint& ep) { return run(conn_.connect(ep)); }
  Result<void> write(bhttp::request<bhttp::string_body>& req) { return run(conn_.write(req)); }
  Result<void> read_header(ResponseParser& parser) { return run(conn_.read_header(parser)); }
  Result<void> read_body(ResponseParser& parser, const std::function<bool(std::string_view)>& on_data) {
    return run(conn_.read_body(parser, on_data));
  }

 private:
  Result<void> run(net::awaitable<Result<void>> step);
  net::io_context ioc_{1};
  ClientConn conn_;
};

}  // namespace mcp::http
