// mcp/protocol/header_params.hpp — tool arguments mirrored into HTTP headers (MCP 2026-07-28,
// server/tools.mdx "x-mcp-header"; basic/transports/streamable-http.mdx "Custom Headers from Tool
// Parameters").
//
// A property of a tool's inputSchema may carry "x-mcp-header": "Region": a client calling the tool
// over Streamable HTTP then sends the argument's value as `Mcp-Param-Region`, so that proxies can
// route on it without reading the body, and the server refuses the call (-32020) unless header and
// body agree. The rules of a valid annotation are the specification's; a client drops a tool that
// breaks one, and a server does not declare one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/error.hpp"
#include "mcp/json.hpp"

namespace mcp {

enum class HeaderParamType { string, integer, boolean };

struct HeaderParam {
  std::vector<std::string> path;  // property names from the schema root to the annotated property
  std::string name;               // the header is "Mcp-Param-" + name
  HeaderParamType type = HeaderParamType::string;
};

// What one schema's annotations may make us keep (each parameter holds its property path, and a
// peer's schema is a peer's): this many parameters, and this many bytes of property names in
// their paths together. Real tools have a handful of short ones.
inline constexpr std::size_t kMaxHeaderParams = 64;
inline constexpr std::size_t kMaxHeaderPathBytes = 64 * 1024;

// The header parameters an inputSchema declares, in schema order. -32602 saying which annotation
// breaks which rule: an empty or non-token name (RFC 9110 tchar), a name repeated (ignoring case),
// a property whose type is not one of string, integer, boolean (one type, stated), an annotation
// not reachable from the root through `properties` alone, or more than the bounds above. Walks
// the schema without recursion, keeping each property path once: memory grows with the schema's
// size, never with its depth times its width.
[[nodiscard]] Result<std::vector<HeaderParam>> header_params(const json::object& input_schema);

// The text a call's `arguments` give header `param` (specification "Type conversion"): a string as
// is, an integer in decimal, a boolean as true or false. Empty when the path holds no value or
// null (the header is then omitted), or a value of another JSON type (no header can carry it).
// Integers outside ±(2^53-1) are refused the same way.
std::optional<std::string> header_param_text(const json::object& arguments, const HeaderParam& param);

}  // namespace mcp
