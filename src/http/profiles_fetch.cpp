// Fetching a server's profiles (mcp/http/profiles_fetch.hpp).
#include "mcp/http/profiles_fetch.hpp"

#include "http/well_known.hpp"

namespace mcp::http {

namespace {
constexpr std::size_t kMaxDocumentBytes = 256 * 1024;
}

std::string profiles_url(const std::string& mcp_url) { return well_known_url(mcp_url, kProfilesPath); }

Result<std::vector<ProfileSpec>> fetch_profiles(const std::string& mcp_url, const HttpClientOptions& options) {
  auto got = get_well_known(mcp_url, kProfilesPath, options, kMaxDocumentBytes);
  if (!got) return fail(got.error());
  if (got->status == 404 || (got->status == 200 && got->body.find_first_not_of(" \t\r\n") == std::string::npos)) {
    return std::vector<ProfileSpec>{};
  }
  if (got->status != 200) {
    return fail(Error::invalid_request("profiles at " + got->url + ": HTTP " + std::to_string(got->status) +
                                       (got->body.empty() ? "" : ": " + peer_text(got->body, 200))));
  }
  if (got->too_big) return fail(Error::invalid_request("the profiles document at " + got->url + " is over 256 KiB"));
  auto parsed = parse_json_strict(got->body);
  if (!parsed) return fail(Error::invalid_request("the profiles document at " + got->url + " is not JSON: " + parsed.error().message));
  auto profiles = parse_profiles_document(*parsed);
  if (!profiles) return fail(Error::invalid_request("the profiles document at " + got->url + " is invalid: " + profiles.error().message));
  return profiles;
}

}  // namespace mcp::http
