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

Result<RequestMetaView> check_request_meta(const json::object& params) {
  const json::object* meta = meta_of(params);
  if (!meta) return fail(Error::invalid_params("_meta is required on every request of a stateless revision"));
  RequestMetaView out;
  const json::value* version = meta->if_contains(meta_key::kProtocolVersion);
  if (!version) return fail(meta_error(meta_key::kProtocolVersion, "required field is missing"));
  if (!version->is_string()) return fail(meta_error(meta_key::kProtocolVersion, "expected a string"));
  out.protocol_version = version->get_string();

  // Required: "{}" declares no optional capability; nothing is inferred from earlier requests.
  // Read as the object it is (capabilities are looked up by path, declares_capability): the
  // codec's full reading costs more than the rest of a small call, on every request.
  const json::value* caps = meta->if_contains(meta_key::kClientCapabilities);
  if (!caps) return fail(meta_error(meta_key::kClientCapabilities, "required field is missing"));
  if (!caps->is_object()) return fail(meta_error(meta_key::kClientCapabilities, "expected an object"));
  out.client_capabilities = &caps->get_object();

  // For display only: an object with a string name and version (Implementation's required members).
  if (const json::value* info = meta->if_contains(meta_key::kClientInfo)) {
    const json::object* o = info->if_object();
    if (!o) return fail(meta_error(meta_key::kClientInfo, "expected an object"));
    for (std::string_view member : {"name", "version"}) {
      const json::value* v = o->if_contains(member);
      if (!v || !v->is_string()) {
        return fail(meta_error(meta_key::kClientInfo, std::string(member) + (v ? ": expected a string" : ": required field is missing")));
      }
    }
    out.client_info = o;
  }
  if (const json::value* level = meta->if_contains(meta_key::kLogLevel)) {
    auto parsed = from_json<LoggingLevel>(*level);
    if (!parsed) return fail(meta_error(meta_key::kLogLevel, parsed.error().message));
    out.log_level = *parsed;
  }
  return out;
}

Result<RequestMeta> read_request_meta(const json::object& params) {
  auto view = check_request_meta(params);
  if (!view) return fail(view.error());
  RequestMeta out;
  out.protocol_version = std::string(view->protocol_version);
  out.client_capabilities = *view->client_capabilities;
  if (view->client_info) out.client_info = *view->client_info;
  out.log_level = view->log_level;
  return out;
}

}  // namespace mcp
