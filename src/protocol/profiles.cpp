// Server profiles (mcp/protocol/profiles.hpp).
#include "mcp/protocol/profiles.hpp"

#include <charconv>
#include <fstream>
#include <set>

namespace mcp {

namespace {

constexpr std::size_t kMaxProfileUrlBytes = 2048;

Error invalid(std::string message) { return Error::invalid_params(std::move(message)); }

bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u}) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

std::optional<unsigned> number(std::string_view s) {
  if (s.empty() || s.size() > 6 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  unsigned n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return n;
}

json::array strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v) out.emplace_back(json::string(peer_text(s)));
  return out;
}

}  // namespace

json::value to_json(const ProfileSpec& spec) {
  json::object out = spec.extra;
  out["profileURL"] = spec.profile_url;
  out["default"] = spec.default_;
  out["minMcpVersion"] = spec.min_mcp_version;
  return out;
}

template <>
Result<ProfileSpec> from_json<ProfileSpec>(const json::value& v) {
  const json::object* o = v.if_object();
  if (!o) return fail(invalid("ProfileSpec: expected an object"));
  ProfileSpec spec;
  const json::value* url = o->if_contains("profileURL");
  if (!url || !url->is_string()) return fail(invalid("ProfileSpec.profileURL: a string is required"));
  spec.profile_url = std::string(url->get_string());
  if (const json::value* d = o->if_contains("default")) {
    if (!d->is_bool()) return fail(invalid("ProfileSpec.default: expected a boolean"));
    spec.default_ = d->get_bool();
  }
  const json::value* min = o->if_contains("minMcpVersion");
  if (!min || !min->is_string()) return fail(invalid("ProfileSpec.minMcpVersion: a string is required"));
  spec.min_mcp_version = std::string(min->get_string());
  for (const auto& [k, value] : *o) {
    if (k != "profileURL" && k != "default" && k != "minMcpVersion") spec.extra[k] = value;
  }
  return spec;
}

Result<ProfileId> parse_profile_url(std::string_view url) {
  if (url.size() > kMaxProfileUrlBytes) return fail(invalid("profile URL longer than " + std::to_string(kMaxProfileUrlBytes) + " bytes"));
  if (!url.starts_with("https://") && !url.starts_with("http://")) {
    return fail(invalid("profile URL " + peer_text(url) + " is not an http(s) URL"));
  }
  const auto slash = url.rfind('/');
  const std::string_view authority_and_path = url.substr(url.find("//") + 2);
  if (authority_and_path.find('/') == std::string_view::npos || slash + 1 >= url.size()) {
    return fail(invalid("profile URL " + peer_text(url) + " has no version segment (…/<Major>.<Minor>)"));
  }
  const std::string_view version = url.substr(slash + 1);
  const auto dot = version.find('.');
  auto major = dot == std::string_view::npos ? std::nullopt : number(version.substr(0, dot));
  auto minor = dot == std::string_view::npos ? std::nullopt : number(version.substr(dot + 1));
  if (!major || !minor) {
    return fail(invalid("profile URL " + peer_text(url) + ": its last path segment " + peer_text(version) +
                        " is not <Major>.<Minor>"));
  }
  return ProfileId{std::string(url.substr(0, slash)), *major, *minor};
}

bool satisfies(const ProfileId& implemented, const ProfileId& requested) {
  return implemented.family == requested.family && implemented.major == requested.major &&
         implemented.minor >= requested.minor;
}

Result<void> check_profiles(const std::vector<ProfileSpec>& profiles) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    const auto& p = profiles[i];
    const std::string where = "profiles[" + std::to_string(i) + "]";
    if (auto id = parse_profile_url(p.profile_url); !id) return fail(invalid(where + ": " + id.error().message));
    if (!is_date(p.min_mcp_version)) {
      return fail(invalid(where + ".minMcpVersion " + peer_text(p.min_mcp_version) + " is not a YYYY-MM-DD date"));
    }
    if (p.default_ && i != 0) return fail(invalid(where + " is a default, but only the first profile may be"));
    if (!seen.insert(p.profile_url).second) return fail(invalid(where + " repeats " + peer_text(p.profile_url)));
  }
  return {};
}

Result<std::vector<ProfileSpec>> parse_profiles_document(const json::value& document) {
  const json::array* a = document.if_array();
  if (!a) return fail(invalid("the profiles document is not a JSON array"));
  std::vector<ProfileSpec> out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    auto spec = from_json<ProfileSpec>((*a)[i]);
    if (!spec) return fail(invalid("profiles[" + std::to_string(i) + "]: " + spec.error().message));
    out.push_back(std::move(*spec));
  }
  if (auto ok = check_profiles(out); !ok) return fail(ok.error());
  return out;
}

Result<std::vector<ProfileSpec>> parse_profiles_text(std::string_view text) {
  auto parsed = parse_json_strict(text);
  if (!parsed) return fail(invalid("the profiles are not JSON: " + parsed.error().message));
  return parse_profiles_document(*parsed);
}

Result<std::vector<ProfileSpec>> read_profiles_file(const std::string& path) {
  constexpr std::size_t kMaxFileBytes = 256 * 1024;
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(invalid(path + ": cannot read it"));
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxFileBytes) return fail(invalid(path + ": over 256 KiB"));
  auto profiles = parse_profiles_text(text);
  if (!profiles) return fail(invalid(path + ": " + profiles.error().message));
  return profiles;
}

json::array profiles_document(const std::vector<ProfileSpec>& profiles) {
  json::array out;
  for (const auto& p : profiles) out.push_back(to_json(p));
  return out;
}

Result<std::optional<std::string>> negotiate_profile(const std::vector<ProfileSpec>& offered,
                                                     const std::vector<std::string>& requested, std::string_view revision) {
  auto usable = [&](const ProfileSpec& p) { return std::string_view(p.min_mcp_version) <= revision; };
  auto refuse = [&](std::string why) -> Error {
    json::array supported;
    for (const auto& p : offered) supported.emplace_back(json::string(p.profile_url));
    return Error{error_code::kInvalidParams, std::move(why),
                 json::object{{"supportedProfiles", std::move(supported)}, {"requestedProfiles", strings(requested)}}};
  };
  if (requested.empty()) {
    if (offered.empty()) return std::optional<std::string>{};
    if (offered.front().default_ && usable(offered.front())) return std::optional<std::string>(offered.front().profile_url);
    return fail(refuse(offered.front().default_
                           ? "this server's default profile needs MCP " + offered.front().min_mcp_version + " or later"
                           : "this server has no default profile: request one of its profiles"));
  }
  for (const auto& r : requested) {
    auto wanted = parse_profile_url(r);
    if (!wanted) continue;  // a URL that names no version cannot be met; the refusal lists it
    for (const auto& p : offered) {
      auto id = parse_profile_url(p.profile_url);
      if (id && satisfies(*id, *wanted) && usable(p)) return std::optional<std::string>(r);
    }
  }
  return fail(refuse("this server implements none of the requested profiles (for MCP " + std::string(revision) + ")"));
}

Result<std::vector<std::string>> read_requested_profiles(const json::value* value) {
  std::vector<std::string> out;
  if (!value || value->is_null()) return out;
  const json::array* a = value->if_array();
  if (!a) return fail(invalid("requestedProfiles: expected an array of profile URLs"));
  if (a->size() > kMaxRequestedProfiles) {
    return fail(invalid("requestedProfiles: " + std::to_string(a->size()) + " profiles, over the limit of " +
                        std::to_string(kMaxRequestedProfiles)));
  }
  for (const auto& v : *a) {
    if (!v.is_string()) return fail(invalid("requestedProfiles: expected an array of strings"));
    if (v.get_string().size() > kMaxProfileUrlBytes) return fail(invalid("requestedProfiles: a URL over 2048 bytes"));
    out.emplace_back(v.get_string());
  }
  return out;
}

}  // namespace mcp
