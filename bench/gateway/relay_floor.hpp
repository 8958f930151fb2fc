// A relay floor for bench_gateway: the least any gateway design could spend relaying a tools/call
// over transports with the gateway's trust work on. Not the gateway, and not for use: a diagnostic
// row, as in-process-floor is for the trust work alone.
//
// The gateway relays a call through two sessions (its server session with the client, its client
// session with the upstream) and the proxy between them; the question this row answers is what a
// relay without them, "a tools/call relayed around both sessions' per-request machinery", could
// keep. So it does only what such a relay cannot skip: it decodes each request from the front
// strictly (its arguments are hashed into the audit record), checks the policy and the item's pin,
// gives the request an id of its own and writes it to the upstream; it reads each answer's id with
// the event parser that builds nothing (http::peek_frame), puts the front's id back in the text,
// journals the call record, counts it in the metrics and writes the answer to the front. No
// cancellation, progress, timeouts, server-initiated requests, limits or refusal records: those are
// what a real relay would have to add back, so a real one costs more than this.
#pragma once

#include <memory>
#include <string>

#include "gateway/metrics.hpp"
#include "gateway/policy.hpp"
#include "gateway/state.hpp"
#include "mcp/transport/transport.hpp"

namespace bench {

struct RelayFloorTrust {
  std::string server;  // the upstream's name in pins, policy, records and metrics
  mcp::gateway::ItemPolicy policy;
  std::shared_ptr<mcp::gateway::PinStore> pins;
  std::shared_ptr<mcp::gateway::AuditLog> audit;
  std::shared_ptr<mcp::gateway::Metrics> metrics;
};

// Relays every message between `front` (a client's link) and `upstream` until either closes. Held
// alive by the transports' callbacks; dies with them.
void start_relay_floor(std::shared_ptr<mcp::Transport> front, std::shared_ptr<mcp::Transport> upstream,
                       RelayFloorTrust trust);

}  // namespace bench
