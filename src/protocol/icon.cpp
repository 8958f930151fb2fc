#include "mcp/protocol/icon.hpp"

#include "protocol/object_reader.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const Icon& i) {
  json::object o;
  o["src"] = i.src;
  if (i.mime_type) o["mimeType"] = *i.mime_type;
  if (!i.sizes.empty()) {
    json::array a;
    for (const auto& s : i.sizes) a.emplace_back(s);
    o["sizes"] = std::move(a);
  }
  if (i.theme) o["theme"] = *i.theme;
  write_extra(o, i.extra, std::nullopt);
  return o;
}

template <>
Result<Icon> from_json<Icon>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Icon"));
  Icon i;
  MCP_TRY(src, r.str("src"));
  MCP_TRY(mime, r.opt_str("mimeType"));
  MCP_TRY(sizes, r.opt_array("sizes"));
  MCP_TRY(theme, r.opt_str("theme"));
  i.src = std::move(src);
  i.mime_type = std::move(mime);
  if (sizes) {
    for (const auto& s : *sizes) {
      if (!s.is_string()) return fail(Error::invalid_params("Icon.sizes: expected strings"));
      i.sizes.emplace_back(s.get_string());
    }
  }
  i.theme = std::move(theme);
  i.extra = r.rest();
  return i;
}

}  // namespace mcp
