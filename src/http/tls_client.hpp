// Private to the HTTP client: the TLS context a client's connections use.
//
// Why shared: loading the system's trust anchors (set_default_verify_paths parses every
// certificate of the CA bundle, 144 on Debian 12) costs ~34 ms of CPU per context here, and every
// HTTP client transport and every well-known document fetch made its own, whatever its URL's
// scheme (bench/RESULTS.md, 2026-11-27 "fourth evening": http_test's CPU fell by two thirds). One
// context verifying against the system store is loaded on the first https use and shared by
// every later one; an SSL_CTX is safe to share between threads once set up (OpenSSL 1.1 and
// later), and nothing here changes it after that.
//
// A client with its own CA file (ca_file) gets a context of its own, loaded when it is made, so
// that a bad file is an error at once, as before; one that does not verify (verify_tls = false)
// gets its own too (cheap: no trust anchors). A plain-HTTP client without a CA file gets none.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>

#include "mcp/error.hpp"
#include "mcp/http/client_transport.hpp"

namespace mcp::http {

// The context for a client with options `o` whose endpoint is (`tls_endpoint`) or is not https:
// null when it needs none; an error naming the CA file when that file cannot be loaded.
[[nodiscard]] Result<std::shared_ptr<boost::asio::ssl::context>> tls_client_context(const HttpClientOptions& o,
                                                                                    bool tls_endpoint);

}  // namespace mcp::http
