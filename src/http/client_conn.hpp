// Private: one blocking HTTP/1.1 exchange over TCP or TLS, for the client transport. Every read
// and write is bounded by a timeout, and abort() from another thread ends a blocked read at once.
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

class ClientConn {
 public:
  ClientConn(net::io_context& ioc, net::ssl::context* tls) : ioc_(ioc), tls_ctx_(tls) {}

  Result<void> connect(const Endpoint& ep, std::chrono::milliseconds timeout);
  Result<void> write(bhttp::request<bhttp::string_body>& req);
  // Reads the status line and headers.
  Result<void> read_header(bhttp::response_parser<bhttp::buffer_body>& parser);
  // Reads the body in chunks, calling on_data for each; stops early if on_data returns false.
  Result<void> read_body(bhttp::response_parser<bhttp::buffer_body>& parser,
                         const std::function<bool(std::string_view)>& on_data);
  // From any thread: makes a blocked read return.
  void abort();

 private:
  beast::tcp_stream& lowest();

  net::io_context& ioc_;
  net::ssl::context* tls_ctx_;
  std::unique_ptr<beast::tcp_stream> plain_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  std::string where_;
  std::atomic<int> fd_{-1};
  std::atomic<bool> aborted_{false};
};

}  // namespace mcp::http
