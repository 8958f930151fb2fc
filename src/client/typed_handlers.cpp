// The typed adapters of mcp/client/typed_handlers.hpp: read the params, run the handler, write
// its answer.
#include "mcp/client/typed_handlers.hpp"

#include <utility>

#include "mcp/protocol/methods.hpp"

namespace mcp {

namespace {

// A typed handler's answer, as the session sends it.
template <class T>
Result<json::value> written(Result<T> answer) {
  if (!answer) return fail(std::move(answer.error()));
  return to_json(*answer);
}

// Reads `params` as P and runs `run` on it; a request that does not fit is refused here, so a
// handler only ever sees what its type says.
template <class P, class Run>
Result<json::value> typed_call(std::string_view method, const json::object& params, Run&& run) {
  auto read = from_json<P>(json::value(params));
  if (!read) return fail(Error::invalid_params(std::string(method) + ": " + read.error().message));
  return written(run(*read));
}

}  // namespace

ClientRequestHandler sampling_handler(SamplingHandler handler) {
  return [h = std::move(handler)](const json::object& params, const CancellationToken& cancel) -> Result<json::value> {
    return typed_call<CreateMessageRequestParams>(method::kSamplingCreateMessage, params,
                                                  [&](const CreateMessageRequestParams& p) { return h(p, cancel); });
  };
}

ClientRequestHandler elicitation_handler(ElicitationHandler handler) {
  return [h = std::move(handler)](const json::object& params, const CancellationToken& cancel) -> Result<json::value> {
    return typed_call<ElicitRequestParams>(method::kElicitationCreate, params,
                                           [&](const ElicitRequestParams& p) { return h(p, cancel); });
  };
}

ClientRequestHandler roots_handler(RootsHandler handler) {
  // roots/list's params carry nothing but _meta: nothing to read.
  return [h = std::move(handler)](const json::object&, const CancellationToken& cancel) -> Result<json::value> {
    return written(h(cancel));
  };
}

}  // namespace mcp
