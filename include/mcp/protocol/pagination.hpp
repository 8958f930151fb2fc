// mcp/protocol/pagination.hpp — cursor pagination of the list methods (schema 2025-11-25:
// "PaginatedRequestParams"; the "nextCursor" of each List*Result lives in that result's struct).
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// Params of resources/list, resources/templates/list, prompts/list and tools/list.
struct PaginatedRequestParams {
  std::optional<std::string> cursor{};  // opaque; from a previous result's nextCursor
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(PaginatedRequestParams, cursor, meta, extra)

// One page of a list the server holds in full: items [begin, end) go out, and `next_cursor` goes
// into the result's nextCursor (absent on the last page, which is how clients know they are done).
struct PageBounds {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::optional<std::string> next_cursor{};
};

// Cursors made here encode an offset. Clients must treat them as opaque, so the format may change;
// a cursor this function did not make fails with -32602 as the specification asks. A cursor past
// the end (the list shrank since) gives an empty last page rather than an error. page_size 0 means
// no paging.
Result<PageBounds> paginate(std::size_t total, const std::optional<std::string>& cursor, std::size_t page_size);

// Convenience over paginate(): copies the page out of `all`, and its next cursor into `next_cursor`.
template <class T>
Result<std::vector<T>> page_of(const std::vector<T>& all, const std::optional<std::string>& cursor,
                               std::size_t page_size, std::optional<std::string>& next_cursor) {
  auto bounds = paginate(all.size(), cursor, page_size);
  if (!bounds) return fail(bounds.error());
  next_cursor = bounds->next_cursor;
  return std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(bounds->begin),
                        all.begin() + static_cast<std::ptrdiff_t>(bounds->end));
}

}  // namespace mcp
