// mcp/client/typed_handlers.hpp — ClientOptions' handlers for the server's requests (on_sampling,
// on_elicitation, on_roots) written against the protocol types instead of JSON.
//
//   ClientOptions o;
//   o.on_sampling = sampling_handler([](const CreateMessageRequestParams& p, const CancellationToken&)
//                                        -> Result<CreateMessageResult> { ... });
//
// Each adapter reads the request's params into its type before the handler runs: params that do
// not fit are answered -32602 naming the method and the member (the server sent a malformed
// request; the handler never sees it). What the handler returns is written back as the result.
// They serve both revisions alike: a 2025-11-25 server's nested request and a 2026-07-28
// InputRequiredResult's input requests reach the same handler (mcp/client/client.hpp).
#pragma once

#include <functional>

#include "mcp/client/client.hpp"
#include "mcp/protocol/elicitation.hpp"
#include "mcp/protocol/roots.hpp"
#include "mcp/protocol/sampling.hpp"

namespace mcp {

using SamplingHandler = std::function<Result<CreateMessageResult>(const CreateMessageRequestParams&, const CancellationToken&)>;
// Form or URL mode (std::get_if<ElicitRequestURLParams> tells them apart); declare URL support
// with ClientOptions::elicitation_url.
using ElicitationHandler = std::function<Result<ElicitResult>(const ElicitRequestParams&, const CancellationToken&)>;
using RootsHandler = std::function<Result<ListRootsResult>(const CancellationToken&)>;

ClientRequestHandler sampling_handler(SamplingHandler handler);
ClientRequestHandler elicitation_handler(ElicitationHandler handler);
ClientRequestHandler roots_handler(RootsHandler handler);

}  // namespace mcp
