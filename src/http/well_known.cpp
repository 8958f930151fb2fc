// GET of a well-known document (http/well_known.hpp).
#include "http/well_known.hpp"

#include "http/client_conn.hpp"

namespace mcp::http {

std::string well_known_url(const std::string& mcp_url, std::string_view path) {
  auto ep = parse_endpoint(mcp_url);
  if (!ep) return "";
  bool ipv6 = ep->host.find(':') != std::string::npos;
  std::string host = ipv6 ? "[" + ep->host + "]" : ep->host;
  return (ep->tls ? "https://" : "http://") + host + ":" + ep->port + std::string(path);
}

Result<WellKnownDocument> get_well_known(const std::string& mcp_url, std::string_view path,
                                         const HttpClientOptions& options, std::size_t max_bytes) {
  auto ep = parse_endpoint(mcp_url);
  if (!ep) return fail(ep.error());
  ep->target = std::string(path);
  WellKnownDocument out;
  out.url = well_known_url(mcp_url, path);
  ep->url = out.url;

  net::ssl::context tls(net::ssl::context::tls_client);
  if (options.verify_tls) {
    tls.set_default_verify_paths();
    boost::system::error_code ec;
    if (!options.ca_file.empty()) tls.load_verify_file(options.ca_file, ec);
    if (ec) return fail(Error::invalid_params("cannot load CA file " + options.ca_file + ": " + ec.message()));
    tls.set_verify_mode(net::ssl::verify_peer);
  }
  ClientConn conn(&tls, ConnTimeouts{options.connect_timeout, options.write_timeout, options.response_timeout,
                                     options.stream_idle_timeout});
  if (auto r = conn.connect(*ep); !r) return fail(r.error());
  bhttp::request<bhttp::string_body> req{bhttp::verb::get, ep->target, 11};
  req.set(bhttp::field::host, host_header(*ep));
  req.set(bhttp::field::accept, "application/json");
  req.set(bhttp::field::user_agent, "mcp-trust");
  for (const auto& [k, v] : options.headers) req.set(k, v);
  req.prepare_payload();
  if (auto r = conn.write(req); !r) return fail(r.error());
  bhttp::response_parser<bhttp::buffer_body> parser;
  parser.body_limit(boost::none);
  if (auto r = conn.read_header(parser); !r) return fail(r.error());
  (void)conn.read_body(parser, [&](std::string_view d) {
    if (out.body.size() + d.size() > max_bytes) {
      out.too_big = true;
      return false;
    }
    out.body.append(d);
    return true;
  });
  out.status = parser.get().result_int();
  out.etag = std::string(parser.get()[bhttp::field::etag]);
  return out;
}

}  // namespace mcp::http
