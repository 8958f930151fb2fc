// GET of a well-known document (http/well_known.hpp).
#include "http/well_known.hpp"

#include "http/client_conn.hpp"
#include "http/tls_client.hpp"

namespace mcp::http {

namespace {

std::string origin_of(const Endpoint& ep) {
  const bool ipv6 = ep.host.find(':') != std::string::npos;
  return (ep.tls ? "https://" : "http://") + (ipv6 ? "[" + ep.host + "]" : ep.host) + ":" + ep.port;
}

// The endpoint's path without its query and trailing slashes ("" for the origin's root).
std::string endpoint_path(const Endpoint& ep) {
  std::string path = ep.target.substr(0, ep.target.find('?'));
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path;
}

Result<WellKnownDocument> get_one(Endpoint ep, std::string target, const HttpClientOptions& options,
                                  std::size_t max_bytes) {
  WellKnownDocument out;
  out.url = origin_of(ep) + target;
  ep.target = std::move(target);
  ep.url = out.url;
  auto tls = tls_client_context(options, ep.tls);
  if (!tls) return fail(tls.error());
  BlockingConn conn(tls->get(), ConnTimeouts{options.connect_timeout, options.write_timeout, options.response_timeout,
                                           options.stream_idle_timeout});
  if (auto r = conn.connect(ep); !r) return fail(r.error());
  bhttp::request<bhttp::string_body> req{bhttp::verb::get, ep.target, 11};
  req.set(bhttp::field::host, host_header(ep));
  req.set(bhttp::field::accept, "application/json");
  req.set(bhttp::field::user_agent, "mcp-trust");
  for (const auto& [k, v] : options.headers) req.set(k, v);
  req.prepare_payload();
  if (auto r = conn.write(req); !r) return fail(r.error());
  ResponseParser parser;
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

}  // namespace

std::string well_known_url(const std::string& mcp_url, std::string_view path) {
  auto ep = parse_endpoint(mcp_url);
  return ep ? origin_of(*ep) + std::string(path) : "";
}

std::string endpoint_well_known_url(const std::string& mcp_url, std::string_view path) {
  auto ep = parse_endpoint(mcp_url);
  if (!ep) return "";
  const auto own = endpoint_path(*ep);
  return own.empty() ? "" : origin_of(*ep) + std::string(path) + own;
}

Result<WellKnownDocument> get_well_known(const std::string& mcp_url, std::string_view path,
                                         const HttpClientOptions& options, std::size_t max_bytes) {
  auto ep = parse_endpoint(mcp_url);
  if (!ep) return fail(ep.error());
  if (const auto own = endpoint_path(*ep); !own.empty()) {
    // Anything but a document there (404, or a router's 400/405/410 for a path it does not know):
    // the origin's is the endpoint's.
    auto got = get_one(*ep, std::string(path) + own, options, max_bytes);
    if (!got || got->status / 100 == 2) return got;
  }
  return get_one(*ep, std::string(path), options, max_bytes);
}

}  // namespace mcp::http
