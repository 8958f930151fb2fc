// The typed forms of a handler's requests to its client (mcp/server/typed_requests.hpp): each
// writes its params with the codec, sends them through RequestContext's JSON form, and reads the
// answer back into its type.
#include "mcp/server/typed_requests.hpp"

#include <utility>

#include "mcp/protocol/methods.hpp"

namespace mcp {

namespace {

// The client's answer to `method`, read as T; one that does not fit is the client's error.
template <class T>
Result<T> answer_as(std::string_view method, Result<json::value> r) {
  if (!r) return fail(std::move(r.error()));
  auto read = from_json<T>(*r);
  if (!read) return fail(Error::internal("invalid " + std::string(method) + " result from the client: " + read.error().message));
  return read;
}

template <class T>
RequestContext::Done typed_done(std::string_view method, std::function<void(Result<T>)> done) {
  return [method, done = std::move(done)](Result<json::value> r) { done(answer_as<T>(method, std::move(r))); };
}

json::object params_of(const auto& typed) { return std::move(to_json(typed).as_object()); }

}  // namespace

Result<CreateMessageResult> create_message(RequestContext& ctx, const CreateMessageRequestParams& params, RequestOptions options) {
  return answer_as<CreateMessageResult>(method::kSamplingCreateMessage, ctx.create_message(params_of(params), std::move(options)));
}

Result<ElicitResult> elicit(RequestContext& ctx, const ElicitRequestParams& params, RequestOptions options) {
  return answer_as<ElicitResult>(method::kElicitationCreate, ctx.elicit(params_of(params), std::move(options)));
}

Result<ListRootsResult> list_roots(RequestContext& ctx, RequestOptions options) {
  return answer_as<ListRootsResult>(method::kRootsList, ctx.list_roots(std::move(options)));
}

void create_message_async(RequestContext& ctx, const CreateMessageRequestParams& params,
                          std::function<void(Result<CreateMessageResult>)> done, RequestOptions options) {
  ctx.create_message_async(params_of(params), typed_done(method::kSamplingCreateMessage, std::move(done)), std::move(options));
}

void elicit_async(RequestContext& ctx, const ElicitRequestParams& params, std::function<void(Result<ElicitResult>)> done,
                  RequestOptions options) {
  ctx.elicit_async(params_of(params), typed_done(method::kElicitationCreate, std::move(done)), std::move(options));
}

void list_roots_async(RequestContext& ctx, std::function<void(Result<ListRootsResult>)> done, RequestOptions options) {
  ctx.list_roots_async(typed_done(method::kRootsList, std::move(done)), std::move(options));
}

}  // namespace mcp
