// SEP-2093 on the server (docs/wire/resource-metadata.md): the one lookup behind every method that
// names a URI, resources/metadata, resources/list scoped by `uri`, the multi-content rules a read's
// answer must meet before it leaves, and the watches behind subscriptions.
#include <atomic>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/session/thread_pool.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// What a template says of one URI it expands to: its metadata, under that URI.
Resource expanded(const ResourceTemplate& t, const std::string& uri) {
  Resource out;
  out.uri = uri;
  out.name = t.name;
  out.title = t.title;
  out.description = t.description;
  out.mime_type = t.mime_type;
  out.annotations = t.annotations;
  out.icons = t.icons;
  return out;
}

// A tree hook is the application's code: a throw becomes an error, as for any handler.
template <class F>
auto guarded(std::string_view what, const std::string& uri, F&& hook) -> decltype(hook()) {
  try {
    return hook();
  } catch (const std::exception& e) {
    MCP_LOG_ERROR("server: the {} hook of {} threw: {}", what, peer_text(uri), e.what());
    return fail(Error::internal(std::string("internal error in the ") + std::string(what) + " of " + peer_text(uri) +
                                ": " + e.what()));
  }
}

// Fills what `out` lacks from `from` (a read's element from the resource's definition).
template <class T>
void fill_missing(std::optional<T>& out, const std::optional<T>& from) {
  if (!out && from) out = from;
}

}  // namespace

Result<void> ServerSessionImpl::find_uri(ServerRequest& r, std::string uri) {
  if (uri.size() > server_->opts.max_uri_bytes) {
    return fail(Error::invalid_params(r.in.method + ": uri is " + std::to_string(uri.size()) +
                                      " bytes, over the limit of " + std::to_string(server_->opts.max_uri_bytes) +
                                      " (max_uri_bytes)"));
  }
  r.target = Target{.kind = ListKind::resources, .key = uri, .uri = uri};
  std::lock_guard lock(server_->mu);
  auto match = server_->match_resource(uri);
  if (match.resource) {
    r.resource.reset(new ServerRequest::ResourceMatch{.reader = match.resource->reader,
                                                      .tree = match.resource->tree,
                                                      .definition = match.resource->resource});
    r.found = true;
  } else if (match.template_entry) {
    const auto& t = *match.template_entry;
    r.resource.reset(new ServerRequest::ResourceMatch{.template_reader = t.reader,
                                                      .variables = std::move(match.variables),
                                                      .tree = t.tree,
                                                      .definition = expanded(t.resource_template, uri)});
    r.target->kind = ListKind::resource_templates;
    r.target->key = t.resource_template.uri_template;
    r.found = true;
  }
  return {};
}

Result<void> ServerSessionImpl::find_list_scope(ServerRequest& r) {
  auto request = from_json<ListResourcesRequestParams>(r.in.params);
  if (!request) return fail(Error::invalid_params(r.in.method + ": " + request.error().message));
  if (!request->uri) return {};  // the server's own list: it names no item
  return find_uri(r, std::move(*request->uri));
}

bool ServerSessionImpl::list_runs_inline(const json::object& params) const {
  // The server's own list only copies the registry; a scoped one may run the tree's lister.
  return !params.contains("uri");
}

bool ServerSessionImpl::metadata_runs_inline(const json::object& params) const {
  const json::value* v = params.if_contains("uri");
  const json::string* uri = v ? v->if_string() : nullptr;
  if (!uri || uri->size() > server_->opts.max_uri_bytes) return true;  // refused at once (find_resource)
  std::lock_guard lock(server_->mu);
  auto match = server_->match_resource(*uri);
  const auto& tree = match.resource ? match.resource->tree
                                    : (match.template_entry ? match.template_entry->tree : nullptr);
  return !tree || !tree->metadata;
}

void ServerSessionImpl::resource_metadata(const std::shared_ptr<ServerRequest>& r) {
  if (!r->found || !r->resource || !r->resource->definition) {
    finish(*r, fail(unknown_item_error(*r->target)));
    return;
  }
  const std::string& uri = r->target->uri;
  const auto& tree = r->resource->tree;
  Result<Resource> out = *r->resource->definition;
  if (tree && tree->metadata) out = guarded("metadata", uri, [&] { return tree->metadata(uri, r->ctx); });
  if (!out) {
    finish(*r, fail(std::move(out.error())));
    return;
  }
  if (out->uri.empty()) out->uri = uri;
  finish(*r, to_json(ResourceMetadataResult{.resource = std::move(*out)}));
}

void ServerSessionImpl::list_resources_route(const std::shared_ptr<ServerRequest>& r) {
  finish(*r, r->target ? list_children(*r) : list_resources(*r));
}

Result<json::value> ServerSessionImpl::list_children(ServerRequest& r) {
  if (!r.found || !r.resource) return fail(unknown_item_error(*r.target));
  const std::string& uri = r.target->uri;
  const auto& tree = r.resource->tree;
  if (!tree || !tree->children) {
    return fail(Error{error_code::kInvalidParams,
                      "resources/list: " + peer_text(uri) +
                          " is not listable (its capabilities.list is not true); list without uri for the server's "
                          "resources",
                      json::object{{"uri", uri}}});
  }
  // Read again after the chain: a stage may have rewritten the cursor.
  auto request = from_json<ListResourcesRequestParams>(r.in.params);
  if (!request) return fail(Error::invalid_params(r.in.method + ": " + request.error().message));
  auto page = guarded("children", uri, [&] { return tree->children(uri, request->cursor, r.ctx); });
  if (!page) return fail(std::move(page.error()));
  json::array out;
  out.reserve(page->resources.size());
  for (const auto& child : page->resources) {
    json::value j = to_json(child);
    // Each child is held to the same stages as a listed resource (signature, availability).
    ListedItem listed{.kind = ListKind::resources, .key = child.uri, .item = j.as_object()};
    if (!r.chain.keep(r.call, listed)) continue;
    out.push_back(std::move(j));
  }
  json::object result{{"resources", std::move(out)}};
  if (page->next_cursor) result["nextCursor"] = *page->next_cursor;
  return result;
}

Result<ReadResourceResult> ServerSessionImpl::checked_contents(const ServerRequest& r, ReadResourceResult result) const {
  const std::string& uri = r.target->uri;
  // Listable or not: what the answer says of the URI read, else the registered definition.
  const Resource* definition = r.resource && r.resource->definition ? &*r.resource->definition : nullptr;
  std::optional<bool> listable;
  if (definition && definition->capabilities) listable = definition->capabilities->list.value_or(false);
  if (auto broken = multi_content_violation(uri, result, listable)) {
    MCP_LOG_ERROR("server: not sending the read of {}: {}", peer_text(uri), *broken);
    return fail(Error::internal("resources/read of " + peer_text(uri) + ": " + *broken + " (SEP-2093)"));
  }
  if (!definition) return result;
  const Resource& d = *definition;
  for (auto& c : result.contents) {
    std::visit([&](auto& x) {
      if (x.uri != uri) return;
      if (!x.name) x.name = d.name;
      fill_missing(x.title, d.title);
      fill_missing(x.description, d.description);
      fill_missing(x.mime_type, d.mime_type);
      fill_missing(x.annotations, d.annotations);
      fill_missing(x.capabilities, d.capabilities);
      if (x.icons.empty()) x.icons = d.icons;
    }, c);
  }
  return result;
}

void WatchLease::release() {
  // A lease goes when its session does, often on a transport's I/O thread with the session's
  // teardown under way, and the last one calls the URI's hook: the release runs on the pool. Only
  // the count's 1 -> 0 step calls the hook, so the order of releases and new leases does not
  // matter.
  auto server = std::exchange(server_, {});
  if (server.expired()) return;
  auto job = [server, uri = std::move(uri_)] {
    if (auto s = server.lock()) s->unwatch_uri(uri);
  };
  if (!ThreadPool::shared()->post(job)) job();
}

namespace {

std::atomic<int> blocking_watches_running{0};  // the process's, over every server

// `tree`'s hook as the holds' turn: an asynchronous hook as it is (a throw is its refusal); a
// blocking one on the shared pool, at most kMaxBlockingWatches at once.
detail::AsyncHolds::Turn turn_of(std::shared_ptr<const ResourceTree> tree) {
  if (tree->watch_async) {
    return [tree](const std::string& uri, bool on, detail::AsyncHolds::Done done) {
      auto started = guarded("watch", uri, [&]() -> Result<void> {
        tree->watch_async(uri, on, done);
        return {};
      });
      if (!started) done(fail(std::move(started.error())));  // after an answer already given: ignored
    };
  }
  return [tree](const std::string& uri, bool on, detail::AsyncHolds::Done done) {
    constexpr int kMax = Server::Impl::kMaxBlockingWatches;
    if (blocking_watches_running.fetch_add(1) >= kMax && on) {
      blocking_watches_running.fetch_sub(1);
      done(fail(Error::internal(std::to_string(kMax) +
                                " watch hooks already run for subscriptions in this process: subscribe again later")));
      return;
    }
    auto job = [tree, uri, on, done] {
      auto r = guarded("watch", uri, [&] { return tree->watch(uri, on); });
      blocking_watches_running.fetch_sub(1);
      done(std::move(r));
    };
    if (ThreadPool::shared()->post(job)) return;
    if (!on) return job();  // a stop still happens, here
    blocking_watches_running.fetch_sub(1);
    done(fail(Error::internal("no thread to run the watch hook of " + peer_text(uri) + ": subscribe again later")));
  };
}

}  // namespace

void Server::Impl::watch_uri(const std::string& uri, std::function<void(Result<WatchLease>)> done) {
  std::shared_ptr<const ResourceTree> tree;
  {
    std::lock_guard lock(mu);
    auto match = match_resource(uri);
    tree = match.resource ? match.resource->tree : (match.template_entry ? match.template_entry->tree : nullptr);
  }
  if (!tree || !tree->watches()) return done(WatchLease{});
  watches->hold(uri, turn_of(std::move(tree)), [weak = weak_from_this(), uri, done = std::move(done)](Result<void> on) {
    if (!on) return done(fail(std::move(on.error())));
    done(WatchLease(weak, uri));
  });
}

void Server::Impl::unwatch_uri(const std::string& uri) { watches->release(uri); }

}  // namespace mcp
