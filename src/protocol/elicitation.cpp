// The URLElicitationRequiredError helpers.
#include "mcp/protocol/elicitation.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

// The "data" of the schema's URLElicitationRequiredError.
struct URLElicitationRequiredErrorData {
  std::vector<ElicitRequestURLParams> elicitations{};
  json::object extra{};
};
MCP_WIRE_TYPE(URLElicitationRequiredErrorData, elicitations, extra)
MCP_WIRE_CODEC(URLElicitationRequiredErrorData)

Error url_elicitation_required_error(const std::vector<ElicitRequestURLParams>& elicitations, std::string message) {
  return Error{error_code::kUrlElicitationRequired, std::move(message),
               to_json(URLElicitationRequiredErrorData{elicitations, {}})};
}

Result<std::vector<ElicitRequestURLParams>> url_elicitations(const Error& e) {
  if (e.code != error_code::kUrlElicitationRequired)
    return fail(Error::invalid_params("URLElicitationRequiredError: error code is not -32042"));
  if (!e.data) return fail(Error::invalid_params("URLElicitationRequiredError.data: required field is missing"));
  auto data = from_json<URLElicitationRequiredErrorData>(*e.data);
  if (!data) return fail(data.error());
  return std::move(data->elicitations);
}

}  // namespace mcp
