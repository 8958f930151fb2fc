#include "gateway/review_access.hpp"

#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <span>

#include <boost/asio/ip/address.hpp>

#include "gateway/private_file.hpp"
#include "mcp/trust/hex.hpp"

namespace mcp::gateway {

namespace {

constexpr std::size_t kTokenBytes = 32;
constexpr std::size_t kNonceBytes = 4;

bool loopback_address(const std::string& peer) {
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(peer, ec);
  if (ec) return false;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
  return address.is_loopback();
}

// The host of a Host header ("127.0.0.1:7800", "[::1]:7800", "localhost").
std::string host_of(const std::string& host_header) {
  if (!host_header.empty() && host_header.front() == '[') {
    const auto close = host_header.find(']');
    return close == std::string::npos ? host_header : host_header.substr(1, close - 1);
  }
  const auto colon = host_header.rfind(':');
  return colon == std::string::npos ? host_header : host_header.substr(0, colon);
}

// "localhost", or an IP literal in 127.0.0.0/8 or ::1: never a name that merely begins like one
// (127.attacker.example is anyone's).
bool loopback_host(const std::string& host) {
  if (host == "localhost") return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

std::string header(const http::PlainRequest& req, const char* name) {
  auto it = req.headers.find(name);
  return it == req.headers.end() ? std::string() : it->second;
}

// Compares in time independent of where the strings differ.
bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

Result<std::string> load_or_create_review_token(const std::filesystem::path& dir) {
  const auto file = dir / kReviewTokenFile;
  // The token, and a nonce of its own for the temporary file's name (which must carry none of it).
  std::array<std::uint8_t, kTokenBytes + kNonceBytes> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const auto n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(Error::internal(std::string("getrandom: ") + std::strerror(errno)));
    got += static_cast<std::size_t>(n);
  }
  const std::string token = trust::to_hex(std::span(bytes).first(kTokenBytes));
  const std::string nonce = trust::to_hex(std::span(bytes).subspan(kTokenBytes)) + "-" + std::to_string(::getpid());
  auto created = create_private_file(file, token + "\n", nonce);
  if (!created) return fail(created.error());
  if (*created) return token;
  auto text = read_private_file(file, 256);
  if (!text) return fail(text.error());
  std::string kept = *text;
  while (!kept.empty() && (kept.back() == '\n' || kept.back() == '\r')) kept.pop_back();
  if (kept.size() < 32 || !std::all_of(kept.begin(), kept.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
    return fail(Error::internal(file.string() + " does not hold a token (hex digits); remove it to make a new one"));
  return kept;
}

http::PlainResponse review_response(int status, std::string content_type, std::string body) {
  return http::PlainResponse{
      status,
      {{"Content-Type", std::move(content_type)},
       {"Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"},
       {"X-Content-Type-Options", "nosniff"},
       {"X-Frame-Options", "DENY"},
       {"Referrer-Policy", "no-referrer"},
       {"Cache-Control", "no-store"}},
      std::move(body)};
}

http::PlainResponse review_error(int status, const std::string& message) {
  return review_response(status, "application/json", json::serialize(json::object{{"error", message}}));
}

std::optional<http::PlainResponse> ReviewAccess::refuse_read(const http::PlainRequest& req, bool api) const {
  if (!remote && !loopback_address(req.peer)) {
    return review_error(403, "the review page is served to this machine only (gateway.ui.remote is off)");
  }
  const std::string host = host_of(header(req, "host"));
  if (!loopback_host(host) && std::find(allowed_hosts.begin(), allowed_hosts.end(), host) == allowed_hosts.end()) {
    // DNS rebinding: another site's name pointed at this address.
    return review_error(421, "this Host is not the gateway's (add it to gateway.ui.allowedHosts if it is)");
  }
  if (api && !same_secret(header(req, kReviewTokenHeader), token)) {
    return review_error(401, "the review token is missing or wrong: open the page with the link the gateway printed "
                             "(…/ui#token=…), or read it from the state folder's review-token");
  }
  return std::nullopt;
}

std::optional<http::PlainResponse> ReviewAccess::refuse_change(const http::PlainRequest& req) const {
  if (req.method != "POST") return review_error(405, "use POST");
  if (auto refused = refuse_read(req, true)) return refused;
  const std::string type = header(req, "content-type");
  if (type.rfind("application/json", 0) != 0) return review_error(415, "send application/json");
  // Same origin: the Origin a browser sends must be this very page's (scheme, Host and port).
  const std::string origin = header(req, "origin");
  if (origin != "http://" + header(req, "host") && origin != "https://" + header(req, "host")) {
    return review_error(403, "a change must come from the review page itself (Origin does not match)");
  }
  const std::string site = header(req, "sec-fetch-site");
  if (!site.empty() && site != "same-origin") return review_error(403, "a change must come from the review page itself");
  return std::nullopt;
}

}  // namespace mcp::gateway
