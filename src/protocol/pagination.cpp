// Cursors.
#include "mcp/protocol/pagination.hpp"

#include <algorithm>
#include <charconv>

namespace mcp {

namespace {
// A prefix so that a cursor from some other scheme (or a bare number a client made up) is told
// apart from ours instead of being misread as an offset.
constexpr std::string_view kCursorPrefix = "o:";
}  // namespace

Result<PageBounds> paginate(std::size_t total, const std::optional<std::string>& cursor, std::size_t page_size) {
  std::size_t begin = 0;
  if (cursor) {
    std::string_view c = *cursor;
    bool ok = c.starts_with(kCursorPrefix);
    if (ok) {
      c.remove_prefix(kCursorPrefix.size());
      auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), begin);
      ok = ec == std::errc() && ptr == c.data() + c.size() && !c.empty();
    }
    if (!ok) return fail(Error::invalid_params("Invalid cursor"));
    begin = std::min(begin, total);
  }
  PageBounds b;
  b.begin = begin;
  b.end = page_size == 0 ? total : begin + std::min(page_size, total - begin);
  if (b.end < total) b.next_cursor = std::string(kCursorPrefix) + std::to_string(b.end);
  return b;
}

}  // namespace mcp
