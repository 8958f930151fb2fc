#include "mcp/protocol/initialize.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const Implementation& i) {
  json::object o;
  o["name"] = i.name;
  o["version"] = i.version;
  if (i.title) o["title"] = *i.title;
  if (i.description) o["description"] = *i.description;
  if (i.website_url) o["websiteUrl"] = *i.website_url;
  if (!i.icons.empty()) o["icons"] = detail::to_json_array(i.icons);
  write_extra(o, i.extra, std::nullopt);
  return o;
}

template <>
Result<Implementation> from_json<Implementation>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Implementation"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(version, r.str("version"));
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(description, r.opt_str("description"));
  MCP_TRY(website, r.opt_str("websiteUrl"));
  MCP_TRY(icons, r.opt_list<Icon>("icons"));
  Implementation i;
  i.name = std::move(name);
  i.version = std::move(version);
  i.title = std::move(title);
  i.description = std::move(description);
  i.website_url = std::move(website);
  i.icons = std::move(icons);
  i.extra = r.rest();
  return i;
}

json::value to_json(const InitializeRequestParams& p) {
  json::object o;
  o["protocolVersion"] = p.protocol_version;
  o["capabilities"] = to_json(p.capabilities);
  o["clientInfo"] = to_json(p.client_info);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<InitializeRequestParams> from_json<InitializeRequestParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "InitializeRequestParams"));
  MCP_TRY(version, r.str("protocolVersion"));
  MCP_TRY(caps, r.req<ClientCapabilities>("capabilities"));
  MCP_TRY(info, r.req<Implementation>("clientInfo"));
  MCP_TRY(meta, detail::request_meta(r, "InitializeRequestParams"));
  return InitializeRequestParams{std::move(version), std::move(caps), std::move(info), std::move(meta), r.rest()};
}

json::value to_json(const InitializeResult& res) {
  json::object o;
  o["protocolVersion"] = res.protocol_version;
  o["capabilities"] = to_json(res.capabilities);
  o["serverInfo"] = to_json(res.server_info);
  if (res.instructions) o["instructions"] = *res.instructions;
  write_extra(o, res.extra, res.meta);
  return o;
}

template <>
Result<InitializeResult> from_json<InitializeResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "InitializeResult"));
  MCP_TRY(version, r.str("protocolVersion"));
  MCP_TRY(caps, r.req<ServerCapabilities>("capabilities"));
  MCP_TRY(info, r.req<Implementation>("serverInfo"));
  MCP_TRY(instructions, r.opt_str("instructions"));
  MCP_TRY(meta, r.meta());
  return InitializeResult{std::move(version),      std::move(caps), std::move(info),
                          std::move(instructions), std::move(meta), r.rest()};
}

}  // namespace mcp
