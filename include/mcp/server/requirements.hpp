// mcp/server/requirements.hpp — what an item needs of the client that uses it (the seed
// per-request-client-capability-scope.md; docs/wire/per-request-capabilities.md has the rules).
//
// Each request is judged by the capabilities that request declares, and nothing else: its own
// _meta in 2026-07-28, the initialize's in a 2025-11-25 session (one code path). A call, get or read
// of an item whose requirement the request does not meet fails with -32021 and
// data.requiredCapabilities naming exactly what is missing, as an object. What a list request that
// lacks the capabilities sees is the item author's choice (WhenMissing), and a list request may
// declare, under _meta["dev.mcp-trust/relatedRequestCapabilities"], the capabilities its client
// will declare on the calls that follow: the list is then decided by both together.
#pragma once

#include <string>
#include <string_view>

#include "mcp/json.hpp"
#include "mcp/protocol/capabilities.hpp"  // the _meta keys

namespace mcp {


struct CapabilityRequirement {
  // A ClientCapabilities object: {"sampling": {}}, {"elicitation": {"url": {}}}, ...
  json::object capabilities{};
  enum class WhenMissing {
    hide,        // not listed to a request lacking them
    show,        // listed with _meta["dev.mcp-trust/requiredCapabilities"], so the client can decide
    substitute,  // not listed; the item named `substitute` is listed instead (and only then)
  };
  WhenMissing when_missing = WhenMissing::show;
  // For `substitute`: the key (name, uri or uriTemplate) of a registered item of the same kind, the
  // fallback for clients without the capabilities. It is hidden from requests that meet them.
  std::string substitute{};
};

}  // namespace mcp
