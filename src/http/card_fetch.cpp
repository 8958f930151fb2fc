#include "mcp/http/card_fetch.hpp"

#include "http/well_known.hpp"

namespace mcp::http {

std::string server_card_url(const std::string& mcp_url) { return well_known_url(mcp_url, kServerCardPath); }

Result<FetchedCard> fetch_server_card(const std::string& mcp_url, const HttpClientOptions& options,
                                      const SignatureLimits& limits) {
  // The card is the signature plus a little.
  auto got = get_well_known(mcp_url, kServerCardPath, options, limits.max_bytes + 4096);
  if (!got) return fail(got.error());
  const std::string& card_url = got->url;
  if (got->status != 200) {
    return fail(Error::invalid_request("no server card at " + card_url + ": HTTP " + std::to_string(got->status) +
                                       (got->body.empty() ? "" : ": " + peer_text(got->body, 200))));
  }
  if (got->too_big) return fail(Error::invalid_request("the server card at " + card_url + " exceeds the signature size limit"));
  auto parsed = parse_server_card(got->body, limits);
  if (!parsed) return fail(Error::invalid_request("the server card at " + card_url + " is invalid: " + parsed.error().message));
  FetchedCard out{std::move(*parsed), std::move(got->etag), std::move(got->body), card_url};
  return out;
}

}  // namespace mcp::http
