// mcp/server/uri_template.hpp — RFC 6570 URI templates: expansion and the inverse, matching.
//
// Resource templates are RFC 6570 templates; a server must find which template a requested URI
// came from and recover its variables. Supported: level 1-3 expressions {var} {+var} {#var} {.var}
// {/var} {;var} {?a,b} {&c}, several variables per expression, and the explode modifier on path
// segments ({/path*} matches several segments). Prefix modifiers ({var:3}) are accepted when expanding
// and matched as plain variables. Query expressions ({?..} {&..}) match parameters in any order and
// may be absent. Matching percent-decodes the values it returns.
//
// Thread-safety: immutable after parse; safe to share.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/error.hpp"

namespace mcp {

class UriTemplate {
 public:
  using Variables = std::map<std::string, std::string>;

  // -32602 with the position of the problem if `text` is not a valid template.
  static Result<UriTemplate> parse(std::string_view text);

  // The variables of `uri` if it is an expansion of this template.
  std::optional<Variables> match(std::string_view uri) const;
  // The URI for these variables (missing ones are left out, as RFC 6570 says).
  std::string expand(const Variables& variables) const;
  // Names of the variables, in order of appearance.
  std::vector<std::string> variable_names() const;
  const std::string& text() const;

  struct Parsed;

 private:
  std::shared_ptr<const Parsed> p_;
};

}  // namespace mcp
