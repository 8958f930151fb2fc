// mcp/protocol/profiles.hpp — server profiles (the seed server-profiles.md; our choices where it is
// silent: docs/wire/profiles.md).
//
// A profile is a named, versioned set of behaviours, identified by a URL whose last path segment
// is its version, "<Major>.<Minor>" (https://mcp-trust.dev/profiles/signed/1.0). A server declares
// the profiles it implements as ProfileSpecs (at /.well-known/mcp-profiles over HTTP, in
// server/discover for 2026-07-28); a client names the ones it could use (requestedProfiles) and the
// server picks one of those or refuses. Versions: a higher minor of the same major is backward
// compatible, so a request for 1.0 is met by a server implementing 1.2, never by 2.x, and a
// request for 1.3 is not met by 1.2.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/error.hpp"
#include "mcp/json.hpp"

namespace mcp {

struct ProfileSpec {
  std::string profile_url{};      // "profileURL": where the profile is specified
  bool default_ = false;          // "default": used when a client requests none
  std::string min_mcp_version{};  // "minMcpVersion": the oldest MCP revision it may be used with (YYYY-MM-DD)
  json::object extra{};
};
// The wire names are the proposal's ("profileURL"), so the codec is written out.
json::value to_json(const ProfileSpec& spec);
template <>
[[nodiscard]] Result<ProfileSpec> from_json<ProfileSpec>(const json::value& v);

// A profile URL read: everything before the version segment, and the version.
struct ProfileId {
  std::string family;  // "https://mcp-trust.dev/profiles/signed"
  unsigned major = 0;
  unsigned minor = 0;
};
// -32602 saying why when the URL is not http(s), or its last path segment is not "<Major>.<Minor>".
[[nodiscard]] Result<ProfileId> parse_profile_url(std::string_view url);
// Whether a server implementing `implemented` honours a request for `requested`.
bool satisfies(const ProfileId& implemented, const ProfileId& requested);

// The rules of a server's list (the proposal's "Profile Declaration"): every URL a profile URL, at
// most one default and it first, minMcpVersion a YYYY-MM-DD date, no profile twice. -32602 naming
// the entry otherwise.
[[nodiscard]] Result<void> check_profiles(const std::vector<ProfileSpec>& profiles);
// The well-known document: a JSON array of ProfileSpec, checked as above. An empty array is a
// server without profiles.
[[nodiscard]] Result<std::vector<ProfileSpec>> parse_profiles_document(const json::value& document);
json::array profiles_document(const std::vector<ProfileSpec>& profiles);
// The same from text: strict JSON, then the checks above.
[[nodiscard]] Result<std::vector<ProfileSpec>> parse_profiles_text(std::string_view text);
// The same from a file (a server's --profiles FILE), at most 256 KiB; -32602 naming the file.
[[nodiscard]] Result<std::vector<ProfileSpec>> read_profiles_file(const std::string& path);

// Negotiation (the proposal's "Profile Negotiation" and "Fallback Behavior") for a client speaking
// `revision`:
//  - profiles requested: the first of them, in the client's order, that a profile of the server
//    satisfies and whose minMcpVersion `revision` meets; the answer is the URL as requested;
//  - none requested: the server's default if it has one (and `revision` meets it), nothing if it
//    has no profiles at all;
//  - otherwise a refusal: -32602 whose data lists {"supportedProfiles": [...], "requestedProfiles": [...]}.
[[nodiscard]] Result<std::optional<std::string>> negotiate_profile(const std::vector<ProfileSpec>& offered,
                                                                   const std::vector<std::string>& requested,
                                                                   std::string_view revision);

// requestedProfiles as a request carries it (initialize's params, or a 2026-07-28 request's _meta):
// an array of strings, at most kMaxRequestedProfiles of at most 2 KiB each. Absent: empty.
inline constexpr std::size_t kMaxRequestedProfiles = 16;
[[nodiscard]] Result<std::vector<std::string>> read_requested_profiles(const json::value* value);

inline constexpr std::string_view kProfilesPath = "/.well-known/mcp-profiles";

// The profiles mcp-trust publishes (docs/profiles/), each a family whose 1.x a client can check:
//   signed/1.x     the capability signature is published in a server card whose detached proof
//                  verifies, and the tools are served with a signed tool manifest that verifies;
//   read-only/1.x  the capability signature declares every tool readOnlyHint: true in its worst
//                  case (so no list within it can offer a tool that writes).
inline constexpr std::string_view kSignedProfile = "https://mcp-trust.dev/profiles/signed";
inline constexpr std::string_view kReadOnlyProfile = "https://mcp-trust.dev/profiles/read-only";
// 2026-07-28 has no initialize: a request names its profiles in _meta, and its result's _meta says
// which one the server honours; server/discover lists the profiles. Vendor keys
// (io.modelcontextprotocol/ is the specification's).
inline constexpr std::string_view kRequestedProfilesMetaKey = "dev.mcp-trust/requestedProfiles";
inline constexpr std::string_view kProfileMetaKey = "dev.mcp-trust/profile";
inline constexpr std::string_view kProfilesMetaKey = "dev.mcp-trust/profiles";

}  // namespace mcp
