#include "mcp/protocol/elicitation.hpp"

#include <array>

#include "protocol/codec.hpp"

namespace mcp {

using detail::field_error;
using detail::ObjectReader;
using detail::write_extra;

namespace {

constexpr std::array<std::string_view, 3> kActions = {"accept", "decline", "cancel"};

// The "type"s of the schema's PrimitiveSchemaDefinition alternatives.
bool is_primitive_schema_type(std::string_view t) {
  return t == "string" || t == "number" || t == "integer" || t == "boolean" || t == "array";
}

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

std::string_view to_string(ElicitAction a) { return kActions[static_cast<std::size_t>(a)]; }

std::optional<ElicitAction> parse_elicit_action(std::string_view s) {
  for (std::size_t i = 0; i < kActions.size(); ++i)
    if (kActions[i] == s) return static_cast<ElicitAction>(i);
  return std::nullopt;
}

json::value to_json(ElicitAction a) { return json::string(to_string(a)); }

template <>
Result<ElicitAction> from_json<ElicitAction>(const json::value& v) {
  const auto* s = v.if_string();
  auto a = s ? parse_elicit_action(*s) : std::nullopt;
  if (!a) return fail(Error::invalid_params("ElicitAction: expected \"accept\", \"decline\" or \"cancel\""));
  return *a;
}

json::value to_json(const RequestedSchema& s) {
  json::object o;
  if (s.schema) o["$schema"] = *s.schema;
  o["type"] = "object";
  o["properties"] = s.properties;
  if (!s.required.empty()) o["required"] = detail::to_json_array(s.required);
  write_extra(o, s.extra, std::nullopt);
  return o;
}

template <>
Result<RequestedSchema> from_json<RequestedSchema>(const json::value& v) {
  constexpr std::string_view what = "RequestedSchema";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(type, r.str("type"));
  if (type != "object") return fail(field_error(what, "type", "expected \"object\""));
  MCP_TRY(properties, r.object("properties"));
  for (const auto& p : properties) {
    const std::string key = "properties." + std::string(p.key());
    const auto* def = p.value().if_object();
    if (!def) return fail(field_error(what, key, "expected an object"));
    const auto* t = def->if_contains("type");
    if (!t || !t->is_string() || !is_primitive_schema_type(t->get_string()))
      return fail(
          field_error(what, key + ".type", "expected \"string\", \"number\", \"integer\", \"boolean\" or \"array\""));
  }
  MCP_TRY(required, detail::opt_strings(r, what, "required"));
  MCP_TRY(schema, r.opt_str("$schema"));
  return RequestedSchema{std::move(properties), std::move(required), std::move(schema), r.rest()};
}

json::value to_json(const ElicitRequestFormParams& p) {
  json::object o;
  o["mode"] = "form";
  o["message"] = p.message;
  o["requestedSchema"] = to_json(p.requested_schema);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<ElicitRequestFormParams> from_json<ElicitRequestFormParams>(const json::value& v) {
  constexpr std::string_view what = "ElicitRequestFormParams";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(mode, r.opt_str("mode"));
  if (mode && *mode != "form") return fail(field_error(what, "mode", "expected \"form\""));
  MCP_TRY(message, r.str("message"));
  MCP_TRY(schema, r.req<RequestedSchema>("requestedSchema"));
  MCP_TRY(meta, detail::request_meta(r, what));
  return ElicitRequestFormParams{std::move(message), std::move(schema), std::move(meta), r.rest()};
}

json::value to_json(const ElicitRequestURLParams& p) {
  json::object o;
  o["mode"] = "url";
  o["message"] = p.message;
  o["url"] = p.url;
  o["elicitationId"] = p.elicitation_id;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<ElicitRequestURLParams> from_json<ElicitRequestURLParams>(const json::value& v) {
  constexpr std::string_view what = "ElicitRequestURLParams";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(mode, r.str("mode"));
  if (mode != "url") return fail(field_error(what, "mode", "expected \"url\""));
  MCP_TRY(message, r.str("message"));
  MCP_TRY(url, r.str("url"));
  MCP_TRY(id, r.str("elicitationId"));
  MCP_TRY(meta, detail::request_meta(r, what));
  return ElicitRequestURLParams{std::move(message), std::move(url), std::move(id), std::move(meta), r.rest()};
}

json::value to_json(const ElicitRequestParams& p) {
  return std::visit([](const auto& alt) { return to_json(alt); }, p);
}

template <>
Result<ElicitRequestParams> from_json<ElicitRequestParams>(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return fail(Error::invalid_params("ElicitRequestParams: expected an object"));
  const auto* mode = o->if_contains("mode");
  if (mode && mode->is_string() && mode->get_string() == "url") {
    MCP_TRY(p, from_json<ElicitRequestURLParams>(v));
    return ElicitRequestParams(std::move(p));
  }
  if (!mode || mode->is_null() || (mode->is_string() && mode->get_string() == "form")) {
    MCP_TRY(p, from_json<ElicitRequestFormParams>(v));
    return ElicitRequestParams(std::move(p));
  }
  return fail(Error::invalid_params("ElicitRequestParams.mode: expected \"form\" or \"url\""));
}

json::value to_json(const ElicitResult& res) {
  json::object o;
  o["action"] = to_json(res.action);
  if (res.content) o["content"] = *res.content;
  write_extra(o, res.extra, res.meta);
  return o;
}

template <>
Result<ElicitResult> from_json<ElicitResult>(const json::value& v) {
  constexpr std::string_view what = "ElicitResult";
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_TRY(action, r.req<ElicitAction>("action"));
  MCP_TRY(content, r.opt_object("content"));
  if (content) {
    // The JSON Schema says integer where the TypeScript source says number; a form's number field
    // legitimately answers 2.5, so any number is accepted.
    for (const auto& kv : *content)
      if (!is_form_value(kv.value()))
        return fail(field_error(what, "content." + std::string(kv.key()),
                                "expected a string, a number, a boolean or an array of strings"));
  }
  MCP_TRY(meta, r.meta());
  return ElicitResult{action, std::move(content), std::move(meta), r.rest()};
}

json::value to_json(const ElicitationCompleteNotificationParams& p) {
  json::object o;
  o["elicitationId"] = p.elicitation_id;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<ElicitationCompleteNotificationParams> from_json<ElicitationCompleteNotificationParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ElicitationCompleteNotificationParams"));
  MCP_TRY(id, r.str("elicitationId"));
  MCP_TRY(meta, r.meta());
  return ElicitationCompleteNotificationParams{std::move(id), std::move(meta), r.rest()};
}

Error url_elicitation_required_error(const std::vector<ElicitRequestURLParams>& elicitations, std::string message) {
  json::object data;
  data["elicitations"] = detail::to_json_array(elicitations);
  return Error{error_code::kUrlElicitationRequired, std::move(message), json::value(std::move(data))};
}

Result<std::vector<ElicitRequestURLParams>> url_elicitations(const Error& e) {
  if (e.code != error_code::kUrlElicitationRequired)
    return fail(Error::invalid_params("URLElicitationRequiredError: error code is not -32042"));
  if (!e.data) return fail(Error::invalid_params("URLElicitationRequiredError.data: required field is missing"));
  MCP_TRY(r, ObjectReader::open(*e.data, "URLElicitationRequiredError.data"));
  return r.list<ElicitRequestURLParams>("elicitations");
}

}  // namespace mcp
