// The four list methods: what is registered, filtered per request by the availability hooks, shown
// with the annotations the signature allows, checked against the session's signature, and paged.
#include "log/log.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// One page of already-converted items under `key`, with nextCursor when more remain.
Result<json::value> page_json(json::array items, std::string_view key, const json::object& params,
                              std::size_t page_size) {
  auto page = page_of(params, items.size(), page_size);
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

bool ServerSessionImpl::may_list(const SessionSignature* sig, ListKind kind, const json::object& item,
                                 const std::string& key) const {
  if (sig == nullptr || !sig->serving.self_check) return true;
  auto violations = sig->checker->check_item(kind, item);
  // The server never sends what its signature does not allow; the developer learns why here.
  for (const auto& v : violations)
    MCP_LOG_ERROR("server: not listing {} '{}', outside the capability signature: {}", item_noun(kind), peer_text(key),
                  v.describe());
  return violations.empty();
}

bool ServerSessionImpl::usable(ListKind kind, const std::string& key, const Tool* tool, RequestContext& ctx) const {
  auto sig = session_signature();
  if (sig && sig->serving.self_check && !sig->declares(kind, key)) {
    MCP_LOG_ERROR("server: refusing {} '{}': not declared in the capability signature", item_noun(kind), peer_text(key));
    return false;
  }
  AvailabilityHooks hooks;
  {
    std::lock_guard lock(server_->mu);
    hooks = server_->hooks;
  }
  if (kind == ListKind::tools) return !hooks.tool || tool == nullptr || hooks.tool(*tool, ctx).available;
  return !hooks.item || hooks.item(kind, key, ctx);
}

json::array ServerSessionImpl::listed_tools(RequestContext& ctx) {
  std::vector<Tool> tools;
  decltype(AvailabilityHooks::tool) hook;
  {
    std::lock_guard lock(server_->mu);
    for (const auto& e : server_->tools) tools.push_back(e.tool);
    hook = server_->hooks.tool;
  }
  const auto sig = session_signature();
  json::array items;
  items.reserve(tools.size());
  for (const auto& t : tools) {
    ToolAvailability av;
    if (hook) av = hook(t, ctx);
    if (!av.available) continue;
    json::value j = to_json(t);
    json::object& o = j.as_object();
    if (av.annotations) {
      o["annotations"] = to_json(*av.annotations);
    } else if (sig) {
      // The signature decides: the worst case of the declared variants (SEP-2091), not the
      // annotations the tool happened to be registered with.
      auto it = sig->listed_annotations.find(t.name);
      if (it != sig->listed_annotations.end()) {
        if (it->second.is_null()) o.erase("annotations");
        else o["annotations"] = it->second;
      }
    }
    if (!may_list(sig.get(), ListKind::tools, o, t.name)) continue;
    items.push_back(std::move(j));
  }
  return items;
}

Result<json::value> ServerSessionImpl::list_tools(const json::object& params, RequestContext& ctx) {
  return page_json(listed_tools(ctx), "tools", params, server_->opts.page_size);
}

template <class Entry, class Item, class KeyOf>
Result<json::value> ServerSessionImpl::list_items(ListKind kind, std::vector<Entry> Server::Impl::*entries,
                                                  Item Entry::*item, KeyOf key_of, std::string_view json_key,
                                                  const json::object& params, RequestContext& ctx) {
  std::vector<Item> items;
  decltype(AvailabilityHooks::item) hook;
  {
    std::lock_guard lock(server_->mu);
    for (const auto& e : (*server_).*entries) items.push_back(e.*item);
    hook = server_->hooks.item;
  }
  const auto sig = session_signature();
  json::array out;
  out.reserve(items.size());
  for (const auto& x : items) {
    const std::string& key = key_of(x);
    if (hook && !hook(kind, key, ctx)) continue;
    json::value j = to_json(x);
    if (!may_list(sig.get(), kind, j.as_object(), key)) continue;
    out.push_back(std::move(j));
  }
  return page_json(std::move(out), json_key, params, server_->opts.page_size);
}

Result<json::value> ServerSessionImpl::list_resources(const json::object& params, RequestContext& ctx) {
  return list_items(ListKind::resources, &Server::Impl::resources, &Server::Impl::ResourceEntry::resource,
                    [](const Resource& r) -> const std::string& { return r.uri; }, "resources", params, ctx);
}

Result<json::value> ServerSessionImpl::list_resource_templates(const json::object& params, RequestContext& ctx) {
  return list_items(ListKind::resource_templates, &Server::Impl::templates,
                    &Server::Impl::TemplateEntry::resource_template,
                    [](const ResourceTemplate& t) -> const std::string& { return t.uri_template; },
                    "resourceTemplates", params, ctx);
}

Result<json::value> ServerSessionImpl::list_prompts(const json::object& params, RequestContext& ctx) {
  return list_items(ListKind::prompts, &Server::Impl::prompts, &Server::Impl::PromptEntry::prompt,
                    [](const Prompt& p) -> const std::string& { return p.name; }, "prompts", params, ctx);
}

}  // namespace mcp
