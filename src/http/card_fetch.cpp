#include "mcp/http/card_fetch.hpp"

#include "http/client_conn.hpp"
#include "log/log.hpp"

namespace mcp::http {

std::string server_card_url(const std::string& mcp_url) {
  auto ep = parse_endpoint(mcp_url);
  if (!ep) return "";
  bool ipv6 = ep->host.find(':') != std::string::npos;
  std::string host = ipv6 ? "[" + ep->host + "]" : ep->host;
  return (ep->tls ? "https://" : "http://") + host + ":" + ep->port + std::string(kServerCardPath);
}

Result<FetchedCard> fetch_server_card(const std::string& mcp_url, const HttpClientOptions& options,
                                      const SignatureLimits& limits) {
  auto ep = parse_endpoint(mcp_url);
  if (!ep) return fail(ep.error());
  ep->target = std::string(kServerCardPath);
  std::string card_url = server_card_url(mcp_url);
  ep->url = card_url;

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
  std::string body;
  const std::size_t max = limits.max_bytes + 4096;  // the card is the signature plus a little
  bool too_big = false;
  (void)conn.read_body(parser, [&](std::string_view d) {
    if (body.size() + d.size() > max) { too_big = true; return false; }
    body.append(d);
    return true;
  });
  auto status = parser.get().result_int();
  if (status != 200) {
    return fail(Error::invalid_request("no server card at " + card_url + ": HTTP " + std::to_string(status) +
                                       (body.empty() ? "" : ": " + peer_text(body, 200))));
  }
  if (too_big) return fail(Error::invalid_request("the server card at " + card_url + " exceeds the signature size limit"));
  auto parsed = parse_server_card(body, limits);
  if (!parsed) return fail(Error::invalid_request("the server card at " + card_url + " is invalid: " + parsed.error().message));
  FetchedCard out{std::move(*parsed), std::string(parser.get()[bhttp::field::etag]), std::move(body)};
  return out;
}

}  // namespace mcp::http
