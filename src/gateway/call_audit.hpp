// Private to the gateway: what every answered tools/call, prompts/get and resources/read leaves
// behind, whether the gateway forwarded it or refused it itself.
//
// The issue asks for "every call" in the audit log; a refusal (a deny rule, a quarantined pin, a
// configured signature, a capability the client lacks, a name nothing serves, a person who said
// no) is a call too, and the one an administrator most wants to see. Forwarded requests are
// recorded by the proxy when the upstream answers (Proxy::record); those the gateway answers
// itself by the outermost stage of each Server it serves (refusal_stage()), which sees every answer
// the chain gives, the SDK's own refusals included, and the proxy's own refusals (an ask denied)
// where they are made.
//
// Thread-safety: the functions are; the stage is shared by every session.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gateway/audit_log.hpp"
#include "gateway/metrics.hpp"
#include "mcp/server/stage.hpp"

namespace mcp::gateway {

struct CallAudit {
  std::string_view server;  // the upstream's name ("/mcp" for a name no upstream serves there)
  std::string_view method;
  std::string_view item;       // peer text: bounded and made printable here
  std::string_view arguments;  // the digest (arguments_digest)
  std::string_view client;       // the session id
  std::string_view client_info;  // RequestContext::client_label: "name/version" as it gave them
  std::chrono::microseconds latency{};
  std::string_view outcome;  // "ok", "tool-error", "error", "refused"
  const Error* error = nullptr;
};

// Appends the call's record (journaled: it survives a kill -9 once this returns) and counts it in
// `metrics` (if set; a refusal is counted, not timed). An error if it could not be recorded: the
// request must then not be answered as if it had been.
[[nodiscard]] Result<void> audit_call(AuditLog& audit, Metrics* metrics, const CallAudit& call);

// The item, upstream and key a refused request names, for its record.
struct Refused {
  std::string server;
  std::string item;
};
// Maps what a request named on this Server to its upstream and the item's key there (/mcp's
// NAME__item to NAME and item); std::nullopt: the name is served by no upstream.
using RefusedWhere = std::function<std::optional<Refused>(ListKind kind, const std::string& named)>;

// The outermost stage (Server::use(..., StagePlace::outermost)) that records every tools/call,
// prompts/get and resources/read answered with an error before it reached a forwarding handler:
// `unmatched_server` names the server in a record of a name `where` does not resolve.
std::shared_ptr<Stage> refusal_stage(RefusedWhere where, std::string unmatched_server, std::shared_ptr<AuditLog> audit,
                                     std::shared_ptr<Metrics> metrics);

}  // namespace mcp::gateway
