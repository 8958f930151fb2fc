// The Streamable HTTP endpoint's request handling without sockets: Beast's parser with the server's
// limits, then routing (path, Host/Origin, protocol version, method) and the POST checks (content
// type, Accept, strict JSON-RPC decode, initialize params). Never crashes; every refusal is a 4xx
// with a bounded message.
#include <boost/beast/core/flat_buffer.hpp>

#include "fuzz_util.hpp"
#include "http/request_checks.hpp"

namespace bhttp = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bhttp::request_parser<bhttp::string_body> parser;
  parser.body_limit(64 * 1024);
  parser.header_limit(8 * 1024);
  parser.eager(true);
  boost::beast::error_code ec;
  auto [a, b] = mcp::fuzz::split(mcp::fuzz::as_text(data, size));
  // Bytes arrive in two reads; what the parser has not consumed is handed to it again with the
  // next read appended, as Beast's read algorithms do (its contract: unconsumed input is re-sent).
  std::string pending;
  for (std::string_view part : {a, b}) {
    pending.append(part);
    while (!pending.empty() && !parser.is_done()) {
      auto n = parser.put(boost::asio::buffer(pending.data(), pending.size()), ec);
      pending.erase(0, n);
      if (ec == bhttp::error::need_more) {
        ec = {};
        if (n == 0) break;
        continue;
      }
      if (ec) break;
    }
    if (ec) break;
  }
  if (ec || !parser.is_done()) return 0;
  const auto& req = parser.get();
  mcp::http::EndpointPolicy policy;
  policy.max_body_bytes = 64 * 1024;
  policy.host.check_host = (size & 1) != 0;  // both policies, by input parity
  auto route = mcp::http::route_request(policy, req, false);
  if (auto* r = std::get_if<mcp::http::Refusal>(&route)) {
    FUZZ_CHECK(r->status >= 400 && r->status < 500);
    FUZZ_CHECK(r->message.size() < 2048);
    return 0;
  }
  if (std::get<mcp::http::Route>(route) != mcp::http::Route::mcp_post) return 0;
  auto post = mcp::http::check_post(policy, req);
  if (auto* r = std::get_if<mcp::http::Refusal>(&post)) {
    FUZZ_CHECK(r->status >= 400 && r->status < 500);
    FUZZ_CHECK(r->message.size() < 2048);
  }
  return 0;
}
