// The generic codec, plus the schema's limits on forms: clients can only render flat forms of
// primitive fields, and the answers are primitive values.
#include "mcp/protocol/elicitation.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_ENUM_CODEC(ElicitAction, parse_elicit_action, "accept", "decline", "cancel")

namespace {

// The "type"s of the schema's PrimitiveSchemaDefinition alternatives.
constexpr std::string_view kPrimitiveTypes[] = {"string", "number", "integer", "boolean", "array"};

// An accepted form value: string | number | boolean | string[].
bool is_form_value(const json::value& v) {
  if (v.is_string() || v.is_number() || v.is_bool()) return true;
  const auto* a = v.if_array();
  if (!a) return false;
  for (const auto& e : *a)
    if (!e.is_string()) return false;
  return true;
}

}  // namespace

Result<void> wire_check(const RequestedSchema& s) {
  constexpr std::string_view what = "RequestedSchema";
  for (const auto& p : s.properties) {
    const std::string key = "properties." + peer_text(p.key());
    const auto* def = p.value().if_object();
    if (!def) return fail(wire::field_error(what, key, "expected an object"));
    const auto* t = def->if_contains("type");
    if (!t || !t->is_string() || !wire::find_name(kPrimitiveTypes, t->get_string()))
      return fail(wire::enum_error(std::string(what) + "." + key + ".type", kPrimitiveTypes));
  }
  if (const auto* d = s.extra.if_contains("$schema"); d && !d->is_string() && !d->is_null())
    return fail(wire::field_error(what, "$schema", "expected a string"));
  return {};
}

// The JSON Schema says integer where the TypeScript source says number; a form's number field
// legitimately answers 2.5, so any number is accepted.
Result<void> wire_check(const ElicitResult& r) {
  if (r.content)
    for (const auto& kv : *r.content)
      if (!is_form_value(kv.value()))
        return fail(wire::field_error("ElicitResult", "content." + peer_text(kv.key()),
                                      "expected a string, a number, a boolean or an array of strings"));
  return {};
}

MCP_WIRE_CODEC(RequestedSchema)
MCP_WIRE_CODEC(ElicitRequestFormParams)
MCP_WIRE_CODEC(ElicitRequestURLParams)
MCP_WIRE_CODEC(ElicitResult)
MCP_WIRE_CODEC(ElicitationCompleteNotificationParams)

json::value to_json(const ElicitRequestParams& p) { return wire::encode_value(p); }

template <>
Result<ElicitRequestParams> from_json<ElicitRequestParams>(const json::value& v) {
  return wire::decode_union<ElicitRequestParams>(v, "ElicitRequestParams", "elicitation mode");
}

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
