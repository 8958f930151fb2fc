// The TLS context of an HTTP client (http/tls_client.hpp).
#include "http/tls_client.hpp"

#include "log/log.hpp"

namespace mcp::http {

namespace {

namespace ssl = boost::asio::ssl;

// A context that trusts the system store; `ec` set when that store could not be loaded (a
// handshake then fails verification, saying so).
std::shared_ptr<ssl::context> system_store_context(boost::system::error_code& ec) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_default_verify_paths(ec);
  ctx->set_verify_mode(ssl::verify_peer);
  return ctx;
}

}  // namespace

Result<std::shared_ptr<ssl::context>> tls_client_context(const HttpClientOptions& o, bool tls_endpoint) {
  if (!o.verify_tls) {
    if (!tls_endpoint) return std::shared_ptr<ssl::context>();
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
    ctx->set_verify_mode(ssl::verify_none);
    return ctx;
  }
  if (!o.ca_file.empty()) {
    boost::system::error_code ec;
    auto ctx = system_store_context(ec);
    ec.clear();  // the CA file alone may be all this client trusts
    ctx->load_verify_file(o.ca_file, ec);
    if (ec) return fail(Error::invalid_params("cannot load CA file " + o.ca_file + ": " + ec.message()));
    return ctx;
  }
  if (!tls_endpoint) return std::shared_ptr<ssl::context>();
  // Made once, on the first https use (a static's initialization is thread-safe), and never
  // changed after.
  static const std::shared_ptr<ssl::context> shared = [] {
    boost::system::error_code load;
    auto ctx = system_store_context(load);
    if (load)
      MCP_LOG_WARN("https: cannot load the system's trust anchors ({}): servers' certificates will not verify",
                   load.message());
    return ctx;
  }();
  return shared;
}

}  // namespace mcp::http
