#include "http/client_conn.hpp"

#include <sys/socket.h>

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

Result<void> ClientConn::connect(const Endpoint& ep, std::chrono::milliseconds timeout) {
  where_ = ep.url;
  boost::system::error_code ec;
  tcp::resolver resolver(ioc_);
  auto results = resolver.resolve(ep.host, ep.port, ec);
  if (ec) return fail(Error::connection_closed("cannot resolve " + ep.host + ": " + ec.message()));
  if (ep.tls) {
    tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ioc_, *tls_ctx_);
    // SNI and host name verification.
    if (!SSL_set_tlsext_host_name(tls_->native_handle(), ep.host.c_str())) {
      return fail(Error::connection_closed("TLS: cannot set server name " + ep.host));
    }
    tls_->set_verify_callback(net::ssl::host_name_verification(ep.host));
  } else {
    plain_ = std::make_unique<beast::tcp_stream>(ioc_);
  }
  lowest().expires_after(timeout);
  lowest().connect(results, ec);
  if (ec) return fail(Error::connection_closed("cannot connect to " + ep.url + ": " + ec.message()));
  lowest().socket().set_option(tcp::no_delay(true), ec);
  fd_ = lowest().socket().native_handle();
  if (aborted_) ::shutdown(fd_, SHUT_RDWR);
  if (tls_) {
    tls_->handshake(net::ssl::stream_base::client, ec);
    if (ec) return fail(Error::connection_closed("TLS handshake with " + ep.url + " failed: " + ec.message()));
  }
  return {};
}

Result<void> ClientConn::write(bhttp::request<bhttp::string_body>& req) {
  boost::system::error_code ec;
  lowest().expires_after(std::chrono::seconds(30));
  if (tls_) bhttp::write(*tls_, req, ec);
  else bhttp::write(*plain_, req, ec);
  if (ec) return fail(Error::connection_closed("sending to " + where_ + " failed: " + ec.message()));
  return {};
}

Result<void> ClientConn::read_header(bhttp::response_parser<bhttp::buffer_body>& parser) {
  boost::system::error_code ec;
  lowest().expires_after(std::chrono::seconds(300));
  if (tls_) bhttp::read_header(*tls_, buffer_, parser, ec);
  else bhttp::read_header(*plain_, buffer_, parser, ec);
  if (ec) return fail(Error::connection_closed("no HTTP response from " + where_ + ": " + ec.message()));
  return {};
}

Result<void> ClientConn::read_body(bhttp::response_parser<bhttp::buffer_body>& parser,
                                   const std::function<bool(std::string_view)>& on_data) {
  char chunk[16 * 1024];
  // SSE streams may be idle for long; a server keeps them alive with comments, so a day is the cap.
  lowest().expires_never();
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof chunk;
    boost::system::error_code ec;
    // read_some, not read: read() would wait for the chunk buffer to fill, holding SSE events back.
    if (tls_) bhttp::read_some(*tls_, buffer_, parser, ec);
    else bhttp::read_some(*plain_, buffer_, parser, ec);
    if (ec == bhttp::error::need_buffer) ec = {};
    std::size_t n = sizeof chunk - parser.get().body().size;
    if (n && !on_data(std::string_view(chunk, n))) return {};
    if (ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == bhttp::error::partial_message) return {};
    if (ec) return fail(Error::connection_closed("reading from " + where_ + " failed: " + ec.message()));
  }
  return {};
}

void ClientConn::abort() {
  // shutdown(2) on the descriptor is safe from any thread and wakes a blocked recv at once.
  aborted_ = true;
  int fd = fd_.load();
  if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
}

}  // namespace mcp::http
