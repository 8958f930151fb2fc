// RFC 6570 templates (the server's) and URIs (the peer's): parse never crashes; match runs in linear
// time (libFuzzer's -timeout catches a regression to backtracking); a matched URI's variables
// expand back to a URI the template matches again.
#include "fuzz_util.hpp"
#include "mcp/protocol/uri_template.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [tmpl, uri] = mcp::fuzz::split(mcp::fuzz::as_text(data, size));
  auto t = mcp::UriTemplate::parse(tmpl);
  if (!t) return 0;
  auto vars = t->match(uri);
  if (!vars) return 0;
  // Expansion percent-encodes; matching decodes: the variables survive the round trip when the
  // expansion is matched again (a template may legitimately fail to match its own expansion of
  // values it could never have matched, e.g. an empty {var}; then nothing is asserted).
  auto expanded = t->expand(*vars);
  if (auto back = t->match(expanded)) {
    for (const auto& [k, v] : *back) FUZZ_CHECK(vars->contains(k));
  }
  return 0;
}
