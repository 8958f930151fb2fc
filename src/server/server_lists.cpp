// The four list methods: what is registered, shown with the annotations the signature allows, passed
// item by item through the chain's stages (availability, the user's, the signature self-check), and
// paged.
//
// A cursor is the place in registration order (registry.hpp) of the next item to look at, not an
// offset into the whole list as the chain shows it: a page takes from the registry only the items
// that fill it, so it costs the same however long the list is. With offsets, each page made the
// whole list again to find its own, and listing 10,000 tools page by page took 597 ms (81 times
// 1,000's: it grew with the square of the count; bench/RESULTS.md "2026-12-06: a server with many
// items"). An item registered meanwhile comes on a later page; one removed is not shown.
#include <limits>

#include "mcp/protocol/pagination.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// The place a cursor names, or why it names none.
Result<std::uint64_t> cursor_place(std::string_view cursor) {
  const bool digits = !cursor.empty() && cursor.size() < 20 &&
                      std::all_of(cursor.begin(), cursor.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  if (!digits) return fail(Error::invalid_params("invalid cursor: " + peer_text(cursor)));
  return std::stoull(std::string(cursor));
}

// One page of `entries`: from `place` on, `copy` takes each entry out of the registry under `mu` (a
// few at a time, as many as could still fill the page) and `shown` makes it into JSON, or nothing
// if a stage drops it. `next`: the place of the first item past the page, if any. page_size 0:
// every item, taken in chunks, not under one long lock.
struct TakenPage {
  json::array items;
  std::optional<std::uint64_t> next;
};
template <class Entry, class Copy, class Shown>
TakenPage take_page(std::mutex& mu, const detail::Registry<Entry>& entries, Copy copy, Shown shown, std::uint64_t place,
                    std::size_t page_size) {
  constexpr std::size_t kChunk = 1024;
  const std::size_t want = page_size == 0 ? std::numeric_limits<std::size_t>::max() : page_size;
  using Copied = decltype(copy(std::declval<const Entry&>()));
  TakenPage page;
  for (;;) {
    std::vector<Copied> chunk;
    const std::size_t take = std::min(want - page.items.size(), kChunk);
    {
      std::lock_guard lock(mu);
      auto range = entries.from(place);
      auto it = range.begin();
      for (; it != range.end() && chunk.size() < take; ++it) chunk.push_back(copy(it->second));
      page.next = it != range.end() ? std::optional<std::uint64_t>(it->first) : std::nullopt;
    }
    for (const auto& item : chunk) {
      if (auto j = shown(item)) page.items.push_back(std::move(*j));
    }
    if (!page.next || page.items.size() == want) return page;
    place = *page.next;
  }
}

// A list method's answer: the page its cursor names, under `key`, with nextCursor when items
// remain past it.
template <class Entry, class Copy, class Shown>
Result<json::value> list_page(std::mutex& mu, const detail::Registry<Entry>& entries, Copy copy, Shown shown,
                              std::string_view key, const ServerRequest& r, std::size_t page_size) {
  auto request = from_json<PaginatedRequestParams>(r.in.params);
  if (!request) return fail(Error::invalid_params(r.in.method + ": " + request.error().message));
  std::uint64_t place = 0;
  if (request->cursor) {
    auto at = cursor_place(*request->cursor);
    if (!at) return fail(at.error());
    place = *at;
  }
  auto page = take_page(mu, entries, std::move(copy), std::move(shown), place, page_size);
  json::object result;
  result[key] = std::move(page.items);
  if (page.next) result["nextCursor"] = std::to_string(*page.next);
  return result;
}

}  // namespace

std::optional<json::value> ServerSessionImpl::shown_tool(const Tool& t, ServerRequest& r) {
  json::value j = to_json(t);
  json::object& o = j.as_object();
  if (const auto& sig = r.signature) {
    // The signature decides: the worst case of the declared variants (SEP-2091), not the
    // annotations the tool happened to be registered with (availability may pick a variant).
    auto it = sig->listed_annotations.find(t.name);
    if (it != sig->listed_annotations.end()) {
      if (it->second.is_null()) o.erase("annotations");
      else o["annotations"] = it->second;
    }
  }
  ListedItem listed{.kind = ListKind::tools, .key = t.name, .item = o, .tool = &t};
  if (!r.chain.keep(r.call, listed)) return std::nullopt;
  return j;
}

json::array ServerSessionImpl::listed_tools(ServerRequest& r) {
  // Whole, whatever the request's params: tools/manifest signs every tool this request may see.
  return take_page(
             server_->mu, server_->tools, [](const auto& entry) { return entry; },
             [&](const std::shared_ptr<const Server::Impl::ToolEntry>& e) { return shown_tool(e->tool, r); }, 0, 0)
      .items;
}

Result<json::value> ServerSessionImpl::list_tools(ServerRequest& r) {
  // Tool entries are shared and never changed once registered: one reference count each.
  return list_page(
      server_->mu, server_->tools, [](const auto& entry) { return entry; },
      [&](const std::shared_ptr<const Server::Impl::ToolEntry>& e) { return shown_tool(e->tool, r); }, "tools", r,
      server_->opts.page_size);
}

template <class Entry, class Item, class KeyOf>
Result<json::value> ServerSessionImpl::list_items(ListKind kind, detail::Registry<Entry> Server::Impl::*entries,
                                                  Item Entry::*item, KeyOf key_of, ServerRequest& r) {
  return list_page(
      server_->mu, (*server_).*entries, [&](const Entry& e) { return e.*item; },
      [&](const Item& x) -> std::optional<json::value> {
        json::value j = to_json(x);
        ListedItem listed{.kind = kind, .key = key_of(x), .item = j.as_object()};
        if (!r.chain.keep(r.call, listed)) return std::nullopt;
        return j;
      },
      result_key(kind), r, server_->opts.page_size);
}

Result<json::value> ServerSessionImpl::list_resources(ServerRequest& r) {
  return list_items(ListKind::resources, &Server::Impl::resources, &Server::Impl::ResourceEntry::resource,
                    [](const Resource& x) -> const std::string& { return x.uri; }, r);
}

Result<json::value> ServerSessionImpl::list_resource_templates(ServerRequest& r) {
  return list_items(ListKind::resource_templates, &Server::Impl::templates,
                    &Server::Impl::TemplateEntry::resource_template,
                    [](const ResourceTemplate& x) -> const std::string& { return x.uri_template; }, r);
}

Result<json::value> ServerSessionImpl::list_prompts(ServerRequest& r) {
  return list_items(ListKind::prompts, &Server::Impl::prompts, &Server::Impl::PromptEntry::prompt,
                    [](const Prompt& x) -> const std::string& { return x.name; }, r);
}

}  // namespace mcp
