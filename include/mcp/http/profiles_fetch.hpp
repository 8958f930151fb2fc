// mcp/http/profiles_fetch.hpp — a server's profiles, from /.well-known/mcp-profiles on its MCP
// endpoint's origin (mcp/protocol/profiles.hpp; the seed server-profiles.md, "Profile Discovery").
#pragma once

#include <string>
#include <vector>

#include "mcp/http/client_transport.hpp"
#include "mcp/protocol/profiles.hpp"

namespace mcp::http {

// The profiles document, checked (parse_profiles_document). A 404, or an empty body, is a server
// that supports no profiles: an empty list, as the proposal says a client must assume. Any other
// status, a body over 256 KiB or one that breaks the proposal's rules fails with a message naming
// the URL and what came back.
[[nodiscard]] Result<std::vector<ProfileSpec>> fetch_profiles(const std::string& mcp_url, const HttpClientOptions& options = {});
std::string profiles_url(const std::string& mcp_url);

}  // namespace mcp::http
