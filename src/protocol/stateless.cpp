// Reading the per-request fields of a 2026-07-28 request (mcp/protocol/stateless.hpp).
#include "mcp/protocol/stateless.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

namespace {

const json::object* meta_of(const json::object& params) {
  const json::value* m = params.if_contains("_meta");
  return m ? m->if_object() : nullptr;
}

Error meta_error(std::string_view key, std::string_view problem) {
  return Error::invalid_params("_meta[\"" + std::string(key) + "\"]: " + std::string(problem));
}

}  // namespace

bool is_stateless_request(const json::object& params) {
  const json::object* meta = meta_of(params);
  return meta && meta->contains(meta_key::kProtocolVersion);
}

Result<RequestMeta> read_request_meta(const json::object& params) {
  const json::object* meta = meta_of(params);
  if (!meta) return fail(Error::invalid_params("_meta is required on every request of a stateless revision"));
  RequestMeta out;
  const json::value* version = meta->if_contains(meta_key::kProtocolVersion);
  if (!version) return fail(meta_error(meta_key::kProtocolVersion, "required field is missing"));
  if (!version->is_string()) return fail(meta_error(meta_key::kProtocolVersion, "expected a string"));
  out.protocol_version = std::string(version->get_string());

  // Required: "{}" declares no optional capability; nothing is inferred from earlier requests.
  const json::value* caps = meta->if_contains(meta_key::kClientCapabilities);
  if (!caps) return fail(meta_error(meta_key::kClientCapabilities, "required field is missing"));
  if (auto checked = from_json<ClientCapabilities>(*caps); !checked)
    return fail(meta_error(meta_key::kClientCapabilities, checked.error().message));
  out.client_capabilities = caps->get_object();

  if (const json::value* info = meta->if_contains(meta_key::kClientInfo)) {
    if (auto checked = from_json<Implementation>(*info); !checked)
      return fail(meta_error(meta_key::kClientInfo, checked.error().message));
    out.client_info = info->get_object();
  }
  if (const json::value* level = meta->if_contains(meta_key::kLogLevel)) {
    auto parsed = from_json<LoggingLevel>(*level);
    if (!parsed) return fail(meta_error(meta_key::kLogLevel, parsed.error().message));
    out.log_level = *parsed;
  }
  return out;
}

}  // namespace mcp
