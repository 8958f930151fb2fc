// Private to the gateway: who may use the review page (/ui, review_page.hpp) and how that is
// checked. The page shows what upstreams offer and what clients call, and its actions approve
// tools and allow calls, so:
//
//  - it is served to loopback peers only, unless the configuration says otherwise
//    (gateway.ui.remote); on a shared machine loopback is everyone's, so
//  - every API request carries the page's token (X-Review-Token), which is kept in the state
//    folder (review-token, mode 0600) and printed at start as part of the page's URL
//    (http://HOST:PORT/ui#token=..., a fragment, so it never reaches a server log or a Referer);
//  - the Host header must name a loopback host or one configured (no DNS rebinding: a page of
//    another site that resolves its name to 127.0.0.1 is refused);
//  - a state-changing request must be a POST of application/json from the page's own origin
//    (Origin equal to http://HOST, Sec-Fetch-Site same-origin when sent): no cross-site request
//    forgery, even with a token somehow known.
//
// Thread-safety: immutable once made.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "mcp/http/server.hpp"

namespace mcp::gateway {

inline constexpr const char* kReviewTokenFile = "review-token";
inline constexpr const char* kReviewTokenHeader = "x-review-token";

// DIR/review-token, made (64 hex digits from the kernel's random source) if there is none.
[[nodiscard]] Result<std::string> load_or_create_review_token(const std::filesystem::path& dir);

struct ReviewAccess {
  std::string token;
  bool remote = false;                     // serve peers other than loopback
  std::vector<std::string> allowed_hosts;  // Host names (without port) accepted besides loopback ones

  // Why `req` may not see the page or its state (a 403/421 response), or nothing. `api`: the
  // request reads the state, so it needs the token too.
  std::optional<http::PlainResponse> refuse_read(const http::PlainRequest& req, bool api) const;
  // Why `req` may not change anything, or nothing.
  std::optional<http::PlainResponse> refuse_change(const http::PlainRequest& req) const;
};

// A plain response with the page's security headers (CSP without inline script, no sniffing, no
// framing, no referrer, not cached).
http::PlainResponse review_response(int status, std::string content_type, std::string body);
// {"error": message} with `status`.
http::PlainResponse review_error(int status, const std::string& message);

}  // namespace mcp::gateway
