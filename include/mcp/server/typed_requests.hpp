// mcp/server/typed_requests.hpp — a handler's requests to its client (sampling, elicitation, roots)
// with the protocol types instead of JSON: RequestContext's create_message / elicit / list_roots
// (mcp/server/context.hpp), their params written from the type and the client's answer read into
// its type.
//
//   auto answer = create_message(ctx, CreateMessageRequestParams{.messages = {...}, .max_tokens = 100});
//   if (answer) use(answer->model);
//
// An answer that does not fit its type fails with -32603 naming the method and the member (the
// client answered something malformed). Everything else is as for the JSON forms: a capability
// the client did not declare fails with -32601 before anything is sent, the blocking forms are
// refused on the reader thread, and a 2026-07-28 request, which has no channel back, asks through
// RequestContext::input_required instead.
#pragma once

#include <functional>

#include "mcp/protocol/elicitation.hpp"
#include "mcp/protocol/roots.hpp"
#include "mcp/protocol/sampling.hpp"
#include "mcp/server/context.hpp"

namespace mcp {

[[nodiscard]] Result<CreateMessageResult> create_message(RequestContext& ctx, const CreateMessageRequestParams& params,
                                                         RequestOptions options = {});
[[nodiscard]] Result<ElicitResult> elicit(RequestContext& ctx, const ElicitRequestParams& params, RequestOptions options = {});
[[nodiscard]] Result<ListRootsResult> list_roots(RequestContext& ctx, RequestOptions options = {});

// The asynchronous forms (RequestContext::create_message_async...): `done` gets the typed answer
// on the thread that received it.
void create_message_async(RequestContext& ctx, const CreateMessageRequestParams& params,
                          std::function<void(Result<CreateMessageResult>)> done, RequestOptions options = {});
void elicit_async(RequestContext& ctx, const ElicitRequestParams& params, std::function<void(Result<ElicitResult>)> done,
                  RequestOptions options = {});
void list_roots_async(RequestContext& ctx, std::function<void(Result<ListRootsResult>)> done, RequestOptions options = {});

}  // namespace mcp
