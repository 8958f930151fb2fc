// The four list methods: what is registered, shown with the annotations the signature allows, passed
// item by item through the chain's stages (availability, the user's, the signature self-check), and
// paged.
#include "mcp/protocol/pagination.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// One page of already-converted items under `key`, with nextCursor when more remain.
Result<json::value> page_json(json::array items, std::string_view key, const ServerRequest& r, std::size_t page_size) {
  auto request = from_json<PaginatedRequestParams>(r.in.params);
  if (!request) return fail(Error::invalid_params(r.in.method + ": " + request.error().message));
  auto page = page_of(request->cursor, items.size(), page_size);
  if (!page) return fail(page.error());
  json::array out;
  out.reserve(page->end - page->begin);
  for (std::size_t i = page->begin; i < page->end; ++i) out.push_back(std::move(items[i]));
  json::object result;
  result[key] = std::move(out);
  if (page->next_cursor) result["nextCursor"] = *page->next_cursor;
  return result;
}

}  // namespace

json::array ServerSessionImpl::listed_tools(ServerRequest& r) {
  std::vector<Tool> tools;
  {
    std::lock_guard lock(server_->mu);
    for (const auto& e : server_->tools.items()) tools.push_back(e->tool);
  }
  const auto& sig = r.signature;
  json::array items;
  items.reserve(tools.size());
  for (const auto& t : tools) {
    json::value j = to_json(t);
    json::object& o = j.as_object();
    if (sig) {
      // The signature decides: the worst case of the declared variants (SEP-2091), not the
      // annotations the tool happened to be registered with (availability may pick a variant).
      auto it = sig->listed_annotations.find(t.name);
      if (it != sig->listed_annotations.end()) {
        if (it->second.is_null()) o.erase("annotations");
        else o["annotations"] = it->second;
      }
    }
    ListedItem listed{.kind = ListKind::tools, .key = t.name, .item = o, .tool = &t};
    if (!r.chain.keep(r.call, listed)) continue;
    items.push_back(std::move(j));
  }
  return items;
}

Result<json::value> ServerSessionImpl::list_tools(ServerRequest& r) {
  return page_json(listed_tools(r), "tools", r, server_->opts.page_size);
}

template <class Entry, class Item, class KeyOf>
Result<json::value> ServerSessionImpl::list_items(ListKind kind, detail::Registry<Entry> Server::Impl::*entries,
                                                  Item Entry::*item, KeyOf key_of, ServerRequest& r) {
  std::vector<Item> items;
  {
    std::lock_guard lock(server_->mu);
    for (const auto& e : ((*server_).*entries).items()) items.push_back(e.*item);
  }
  json::array out;
  out.reserve(items.size());
  for (const auto& x : items) {
    json::value j = to_json(x);
    ListedItem listed{.kind = kind, .key = key_of(x), .item = j.as_object()};
    if (!r.chain.keep(r.call, listed)) continue;
    out.push_back(std::move(j));
  }
  return page_json(std::move(out), result_key(kind), r, server_->opts.page_size);
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
