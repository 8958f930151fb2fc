// mcp/protocol/uri_template.hpp — RFC 6570 URI templates: expansion and the inverse, matching.
//
// Resource templates are RFC 6570 templates; a server must find which template a requested URI
// came from and recover its variables. Supported: level 1-3 expressions {var} {+var} {#var} {.var}
// {/var} {;var} {?a,b} {&c}, several variables per expression, and the explode modifier on path
// segments ({/path*} matches several segments). Prefix modifiers ({var:3}) are accepted when
// expanding and matched as plain variables. Query expressions ({?..} {&..}) match parameters in any
// order and may be absent. Matching percent-decodes the values it returns.
//
// Matching takes peer input, so it is linear in the URI's length, never recursive, never a regular
// expression, and refuses URIs longer than kMaxMatchBytes. Its rules, where RFC 6570 leaves matching
// open:
//  - a value holds only the characters its operator allows: {var} and {.var} / {/var} / {;var}
//    stop at "/ ? #" and at their own separator ("," "." "/" ";"); {+var} stops at "? #"; {#var}
//    takes anything; a {var} value is never empty;
//  - a value ends at the first occurrence of the literal that follows it, except before the
//    template's last literal, which must end the URI (or its path, when query expressions follow);
//  - two adjacent expressions need a boundary: templates such as "{a}{b}" or "{+a}{b}", where no
//    rule above can tell where one value ends, are refused by parse().
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

  // URIs longer than this never match (a matching server answers them as unknown resources).
  static constexpr std::size_t kMaxMatchBytes = 64 * 1024;

  // -32602 with the position of the problem if `text` is not a valid template.
  [[nodiscard]] static Result<UriTemplate> parse(std::string_view text);

  // The variables of `uri` if it is an expansion of this template.
  [[nodiscard]] std::optional<Variables> match(std::string_view uri) const;
  // The URI for these variables (missing ones are left out, as RFC 6570 says).
  [[nodiscard]] std::string expand(const Variables& variables) const;
  // Names of the variables, in order of appearance.
  [[nodiscard]] std::vector<std::string> variable_names() const;
  [[nodiscard]] const std::string& text() const;

  struct Parsed;

 private:
  std::shared_ptr<const Parsed> p_;
};

}  // namespace mcp
