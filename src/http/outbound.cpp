#include "http/outbound.hpp"

#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"

namespace mcp::http {

Outbound Outbound::read(const std::string& frame) {
  Outbound out;
  boost::system::error_code ec;
  auto v = json::parse(frame, ec);
  const json::object* o = ec ? nullptr : v.if_object();
  if (!o) return out;
  if (const json::value* i = o->if_contains("id")) out.id = *i;
  if (const json::value* m = o->if_contains("method"); m && m->is_string()) out.method = std::string(m->get_string());
  const json::value* pv = o->if_contains("params");
  const json::object* params = pv ? pv->if_object() : nullptr;
  if (!params) return out;
  if (is_stateless_request(*params)) {
    const json::value& version = params->at("_meta").at(meta_key::kProtocolVersion);
    if (version.is_string()) out.stateless_version = std::string(version.get_string());
  }
  if (const std::string_view key = mcp::method::item_param(out.method); !key.empty()) {
    if (const json::value* n = params->if_contains(key); n && n->is_string()) out.name = std::string(n->get_string());
  }
  if (out.method == mcp::method::kCancelled) {
    if (const json::value* r = params->if_contains("requestId")) out.cancels = *r;
  }
  return out;
}

}  // namespace mcp::http
