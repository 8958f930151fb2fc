#include "mcp/server/server.hpp"

#include <algorithm>

#include "log/log_budget.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/stdio/stdio.hpp"
#include "mcp/trust/manifest.hpp"
#include "server/manifest_signer.hpp"
#include "server/server_impl.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// Keeps Impl::async_readers as a resource or template goes (removed, or replaced by another).
template <class Entry>
void uncount_reader(std::size_t& async_readers, const std::optional<Entry>& gone) {
  if (gone && gone->reader.is_async()) --async_readers;
}

}  // namespace

json::object Server::Impl::capabilities() const {
  json::object caps;
  // Tools, resources and prompts are always declared (an empty list is a valid answer), so
  // registering the first one while serving never needs a capability the client was not told about.
  caps["tools"] = json::object{{"listChanged", true}};
  json::object res{{"listChanged", true}};
  if (opts.resource_subscriptions) res["subscribe"] = true;
  caps["resources"] = std::move(res);
  caps["prompts"] = json::object{{"listChanged", true}};
  if (opts.logging) caps["logging"] = json::object{};
  std::lock_guard lock(mu);
  if (completer) caps["completions"] = json::object{};
  // SEP-2091: where the signature can be found.
  const SignatureServing* serving = explicit_signature ? &explicit_signature->serving
                                    : derive_from      ? &derive_serving
                                                       : nullptr;
  if (serving != nullptr)
    caps["signature"] = json::object{{"inInitialize", serving->in_initialize}, {"inServerCard", serving->in_server_card}};
  // Signed tool manifests, in the shape of the proposal's reference implementation (§1).
  if (manifest_signer) caps[trust::kSignedManifestsCapability] = manifest_signer->capability();
  return caps;
}

void Server::Impl::broadcast(std::string_view method, const json::object& params, const std::string& only_subscribers_of) {
  std::vector<std::shared_ptr<ServerSessionImpl>> live;
  {
    std::lock_guard lock(mu);
    // Every registry change is announced here: a derived signature must be made again.
    if (method.ends_with("/list_changed")) {
      forget_stateless_signature();
      if (change_batches > 0) {  // told once, when the last batch ends (Server::ChangeBatch)
        if (std::ranges::find(held_list_changes, method) == held_list_changes.end()) held_list_changes.emplace_back(method);
        return;
      }
    }
    live = sessions;
  }
  for (auto& s : live) {
    s->notify_listeners(method, params, only_subscribers_of);  // 2026-07-28: subscriptions/listen
    if (!only_subscribers_of.empty() && !s->subscribed(only_subscribers_of)) continue;
    s->notify_if_ready(method, params);
  }
}

Server::ChangeBatch Server::batch_changes() {
  std::lock_guard lock(impl_->mu);
  ++impl_->change_batches;
  return ChangeBatch(impl_);
}

Server::ChangeBatch::~ChangeBatch() {
  if (!impl_) return;  // moved from
  std::vector<std::string> held;
  {
    std::lock_guard lock(impl_->mu);
    if (--impl_->change_batches > 0) return;
    held.swap(impl_->held_list_changes);
  }
  // Sent after every change they stand for was made. A batch begun meanwhile holds them again,
  // until it ends too.
  for (const auto& method : held) impl_->broadcast(method, {});
}

Server::Server(ServerOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {
  std::lock_guard lock(impl_->mu);
  impl_->rebuild_stages();
}
Server::~Server() {
  // Sessions hold the registry; closing them here ends the connections this server still serves.
  for (auto& s : impl_->take_sessions(false)) s->close();
}

const ServerOptions& Server::options() const { return impl_->opts; }
json::object Server::capabilities() const { return impl_->capabilities(); }

void Server::Impl::add_tool(ToolEntry entry) {
  auto params = header_params(entry.tool.input_schema);
  if (!params) {
    // Clients over Streamable HTTP must drop such a tool (server/tools.mdx, x-mcp-header): say why
    // where its author will look, and check no header for it.
    // Within a budget: a gateway adds each tool an upstream lists, and may be sent thousands.
    static detail::LogBudget budget;
    MCP_LOG_ERROR_WITHIN(budget, "server: tool {}: {}; clients over Streamable HTTP will not list it",
                         peer_text(entry.tool.name), params.error().message);
  }
  entry.header_params = std::make_shared<const std::vector<HeaderParam>>(params ? std::move(*params)
                                                                                : std::vector<HeaderParam>{});
  {
    std::lock_guard lock(mu);
    const std::string name = entry.tool.name;
    tools.upsert(name, std::make_shared<const ToolEntry>(std::move(entry)));
  }
  broadcast(method::kToolsListChanged, {});
}

std::shared_ptr<const std::vector<HeaderParam>> Server::tool_header_params(std::string_view name) const {
  std::lock_guard lock(impl_->mu);
  const auto* entry = impl_->tools.find(name);
  return entry ? (*entry)->header_params : nullptr;
}

void Server::add_tool(Tool tool, ToolHandler handler, ToolOptions options) {
  ToolHandlers h;
  h.blocking = std::move(handler);
  impl_->add_tool(Impl::ToolEntry{std::move(tool), std::move(h), options});
}

void Server::add_async_tool(Tool tool, AsyncToolHandler handler) {
  ToolHandlers h;
  h.async = std::move(handler);
  impl_->add_tool(Impl::ToolEntry{std::move(tool), std::move(h), ToolOptions{}});
}

void Server::add_async_json_tool(Tool tool, AsyncJsonToolHandler handler) {
  ToolHandlers h;
  h.json_async = std::move(handler);
  impl_->add_tool(Impl::ToolEntry{std::move(tool), std::move(h), ToolOptions{}});
}

void Server::Impl::rebuild_stages() {
  auto list = std::make_shared<StageList>(user_stages);
  list->push_back(make_availability_stage(hooks));
  // Innermost: an unavailable item is refused as unknown before it can be found wanting, so -32021
  // never reveals an item the availability hooks hide.
  if (requirements && !requirements->items.empty()) list->push_back(make_requirements_stage(requirements));
  inner_stages = std::move(list);
}

void Server::use(std::shared_ptr<Stage> stage, StagePlace place) {
  std::lock_guard lock(impl_->mu);
  if (place == StagePlace::outermost) {
    auto list = impl_->outermost_stages ? std::make_shared<StageList>(*impl_->outermost_stages) : std::make_shared<StageList>();
    list->push_back(std::move(stage));
    impl_->outermost_stages = std::move(list);
    return;
  }
  impl_->user_stages.push_back(std::move(stage));
  impl_->rebuild_stages();
}

bool Server::remove_tool(const std::string& name) {
  bool removed;
  {
    std::lock_guard lock(impl_->mu);
    removed = impl_->tools.erase(name).has_value();
  }
  if (removed) impl_->broadcast(method::kToolsListChanged, {});
  return removed;
}

Server::Impl::ResourceMatch Server::Impl::match_resource(std::string_view uri) const {
  if (const ResourceEntry* resource = resources.find(uri)) return {.resource = resource};
  // Among templates, the first registered that matches.
  for (const auto& t : templates.items()) {
    if (auto m = t.matcher.match(uri)) return {.template_entry = &t, .variables = std::move(*m)};
  }
  return {};
}

void Server::Impl::add_resource(ResourceEntry entry) {
  {
    std::lock_guard lock(mu);
    const std::string uri = entry.resource.uri;
    if (entry.reader.is_async()) ++async_readers;
    uncount_reader(async_readers, resources.upsert(uri, std::move(entry)));
  }
  broadcast(method::kResourcesListChanged, {});
}

namespace {
std::shared_ptr<const ResourceTree> shared_tree(ResourceTree tree) {
  return tree.empty() ? nullptr : std::make_shared<const ResourceTree>(std::move(tree));
}
}  // namespace

void Server::add_resource(Resource resource, ResourceReader reader, ResourceTree tree) {
  impl_->add_resource(
      Impl::ResourceEntry{std::move(resource), {.blocking = std::move(reader)}, shared_tree(std::move(tree))});
}

void Server::add_async_resource(Resource resource, AsyncResourceReader reader, ResourceTree tree) {
  impl_->add_resource(Impl::ResourceEntry{std::move(resource), {.async = std::move(reader)}, shared_tree(std::move(tree))});
}

bool Server::remove_resource(const std::string& uri) {
  bool removed;
  {
    std::lock_guard lock(impl_->mu);
    auto gone = impl_->resources.erase(uri);
    removed = gone.has_value();
    uncount_reader(impl_->async_readers, gone);
  }
  if (removed) impl_->broadcast(method::kResourcesListChanged, {});
  return removed;
}

Result<void> Server::Impl::add_template(ResourceTemplate resource_template, TemplateHandlers reader,
                                        ResourceTree tree) {
  auto matcher = UriTemplate::parse(resource_template.uri_template);
  if (!matcher) return fail(matcher.error());
  {
    std::lock_guard lock(mu);
    const std::string key = resource_template.uri_template;
    if (reader.is_async()) ++async_readers;
    uncount_reader(async_readers, templates.upsert(key, TemplateEntry{std::move(resource_template), std::move(*matcher),
                                                                      std::move(reader), shared_tree(std::move(tree))}));
  }
  broadcast(method::kResourcesListChanged, {});
  return {};
}

Result<void> Server::add_resource_template(ResourceTemplate resource_template, TemplateReader reader,
                                           ResourceTree tree) {
  return impl_->add_template(std::move(resource_template), {.blocking = std::move(reader)}, std::move(tree));
}

Result<void> Server::add_async_resource_template(ResourceTemplate resource_template, AsyncTemplateReader reader,
                                                 ResourceTree tree) {
  return impl_->add_template(std::move(resource_template), {.async = std::move(reader)}, std::move(tree));
}

bool Server::remove_resource_template(const std::string& uri_template) {
  bool removed;
  {
    std::lock_guard lock(impl_->mu);
    auto gone = impl_->templates.erase(uri_template);
    removed = gone.has_value();
    uncount_reader(impl_->async_readers, gone);
  }
  if (removed) impl_->broadcast(method::kResourcesListChanged, {});
  return removed;
}

void Server::Impl::add_prompt(PromptEntry entry) {
  {
    std::lock_guard lock(mu);
    const std::string name = entry.prompt.name;
    prompts.upsert(name, std::move(entry));
  }
  broadcast(method::kPromptsListChanged, {});
}

void Server::add_prompt(Prompt prompt, PromptHandler handler) {
  impl_->add_prompt(Impl::PromptEntry{std::move(prompt), {.blocking = std::move(handler)}});
}

void Server::add_async_prompt(Prompt prompt, AsyncPromptHandler handler) {
  impl_->add_prompt(Impl::PromptEntry{std::move(prompt), {.async = std::move(handler)}});
}

bool Server::remove_prompt(const std::string& name) {
  bool removed;
  {
    std::lock_guard lock(impl_->mu);
    removed = impl_->prompts.erase(name).has_value();
  }
  if (removed) impl_->broadcast(method::kPromptsListChanged, {});
  return removed;
}

void Server::Impl::set_completer(CompleterHandlers c) {
  std::lock_guard lock(mu);
  completer = std::move(c);
}

void Server::set_completer(Completer completer) { impl_->set_completer({.blocking = std::move(completer)}); }

void Server::set_async_completer(AsyncCompleter completer) { impl_->set_completer({.async = std::move(completer)}); }

void Server::notify_resource_updated(const std::string& uri) {
  impl_->broadcast(method::kResourcesUpdated, json::object{{"uri", uri}}, uri);
}

std::vector<std::shared_ptr<ServerSessionImpl>> Server::Impl::take_sessions(bool only_closed) {
  std::vector<std::shared_ptr<ServerSessionImpl>> out;
  std::lock_guard lock(mu);
  if (!only_closed) {
    out.swap(sessions);
    return out;
  }
  for (auto& s : sessions) {
    if (s->closed()) out.push_back(std::move(s));
  }
  std::erase(sessions, nullptr);
  prune_at = std::max<std::size_t>(64, 2 * sessions.size());
  return out;
}

Result<std::shared_ptr<ServerSessionImpl>> Server::Impl::open_session(std::shared_ptr<Transport> transport) {
  auto s = ServerSessionImpl::create(shared_from_this(), std::move(transport));
  bool prune;
  {
    // Recorded before it starts: from its first message on, the session may subscribe or listen,
    // and a change broadcast meanwhile must reach it. (Recorded after start, a change made while
    // the opening thread had not recorded it yet was lost: a subscribed file's update, about once
    // in a thousand runs of file_manager_root_subscribe_test on a loaded machine.)
    std::lock_guard lock(mu);
    sessions.push_back(s);
    // Amortised: the list is walked once each time it doubles, so it stays within twice the live
    // sessions without a walk per connection.
    prune = sessions.size() >= prune_at;
  }
  if (auto started = s->start(); !started) {
    {
      std::lock_guard lock(mu);
      std::erase(sessions, s);
    }
    return fail(started.error());
  }
  if (prune) (void)take_sessions(true);  // destroyed here, outside the lock
  return s;
}

Result<std::shared_ptr<ServerSession>> Server::connect(std::shared_ptr<Transport> transport) {
  auto s = impl_->open_session(std::move(transport));
  if (!s) return fail(s.error());
  return std::shared_ptr<ServerSession>(*s);
}

std::optional<Error> Server::serve_stdio() {
  auto s = impl_->open_session(make_stdio_transport());
  if (!s) return s.error();
  (*s)->wait_closed();
  auto reason = (*s)->close_reason();
  (*s)->close();
  return reason;
}

}  // namespace mcp
