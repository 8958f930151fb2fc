// Private to the gateway: serving an upstream's item on a Server of ours, each request for it
// forwarded through the upstream's Proxy (which records, counts and cancels it). The Proxy serves
// items under their own names on its Server; the aggregate (/mcp, aggregate.hpp) serves the same
// items of every upstream on one Server, under names of its own: `as_served` is the item as our
// clients see it, `key` its name at the upstream.
//
// What the upstream's policy says the item needs of its client (requireCapabilities) is required
// of it where served, under the name it is served as.
//
// A request that arrives once the Proxy is gone (the gateway stopping) is answered with an error.
#pragma once

#include <memory>
#include <string>

#include "mcp/protocol/list_kind.hpp"
#include "mcp/server/server.hpp"

namespace mcp::gateway {

class Proxy;

[[nodiscard]] Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const Tool& as_served, std::string key);
[[nodiscard]] Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const Prompt& as_served, std::string key);
// Resources and templates keep their URIs: a read is forwarded with the URI asked for, and a
// subscription to it is forwarded too (Proxy::watch).
[[nodiscard]] Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const Resource& resource);
[[nodiscard]] Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const ResourceTemplate& resource_template);
// Serves `signature` on `server` if it differs from the one served (`served_json`, its
// serialization, updated); true if it changed. One over the signature limits is not served: an
// empty signature is, rather than an older set that may hold items rejected since (`who` names
// the server in the error logged).
bool serve_vouched(Server& server, ServerSignature signature, const SignatureServing& serving, std::string& served_json,
                   std::string_view who);

// Stops serving the item of `kind` served as `as_served`, `key` at `proxy`'s upstream.
void unserve(Server& server, const Proxy& proxy, ListKind kind, const std::string& as_served, const std::string& key);

}  // namespace mcp::gateway
