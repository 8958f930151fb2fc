// The client's side of SEP-2093 (docs/wire/resource-metadata.md): reads held to the multi-content
// rules, resources/metadata with its fallback for older servers, a resource's children, and a
// bounded walk of the resource graph.
#include <set>

#include "client/client_impl.hpp"
#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"

namespace mcp {

namespace {

// What a resource costs to hold, near enough: its strings and a fixed overhead.
std::size_t bytes_of(const Resource& r) {
  std::size_t n = 128 + r.uri.size() + r.name.size();
  for (const auto* s : {&r.title, &r.description, &r.mime_type})
    if (*s) n += (*s)->size();
  return n;
}

}  // namespace

Result<void> Client::Impl::check_children(const std::string& parent, const json::value& result) {
  for (auto it = stages.rbegin(); it != stages.rend(); ++it) {
    if (auto ok = (*it)->on_children(parent, result); !ok) return fail(end_session(ok.error()));
  }
  return {};
}

Result<ReadResourceResult> Client::read_resource(const std::string& uri, CallOptions options) {
  return impl_->checked_read(uri, impl_->typed<ReadResourceResult>("resources", method::kResourcesRead,
                                                                   json::object{{"uri", uri}}, std::move(options)));
}

Result<ReadResourceResult> Client::Impl::checked_read(const std::string& uri, Result<ReadResourceResult> r) const {
  if (!r) return r;
  auto broken = multi_content_violation(uri, *r);
  if (!broken) return r;
  const std::string why = "resources/read of " + peer_text(uri) + ": " + *broken + " (SEP-2093 multi-content rules)";
  switch (opts.resource_contents) {
    case EnforcementMode::strict: return fail(Error::internal(why));
    case EnforcementMode::permissive: MCP_LOG_WARN("client: {} (permissive, continuing)", why); break;
    case EnforcementMode::advisory: break;
  }
  return r;
}

Result<Resource> Client::resource_metadata(const std::string& uri, CallOptions options) {
  auto r = impl_->typed<ResourceMetadataResult>("resources", method::kResourcesMetadata, json::object{{"uri", uri}},
                                                std::move(options));
  if (r) return std::move(r->resource);
  if (r.error().code != error_code::kMethodNotFound) return fail(r.error());
  // A server older than SEP-2093: the listed metadata is all there is.
  auto listed = list_all_resources();
  if (!listed) return fail(listed.error());
  for (auto& resource : *listed) {
    if (resource.uri == uri) return std::move(resource);
  }
  return fail(Error::invalid_params("resources/metadata: the server does not support it, and " + peer_text(uri) +
                                    " is not in its resources/list"));
}

Result<ListResourcesResult> Client::list_children(const std::string& uri, std::optional<std::string> cursor) {
  json::object params{{"uri", uri}};
  if (cursor) params["cursor"] = *cursor;
  auto raw = impl_->call("resources", method::kResourcesList, std::move(params));
  if (!raw) return fail(raw.error());
  if (auto ok = impl_->check_children(uri, *raw); !ok) return fail(ok.error());
  auto page = from_json<ListResourcesResult>(*raw);
  if (!page) return fail(Error::internal("invalid resources/list result from server: " + page.error().message));
  return page;
}

Result<ResourceWalk> Client::walk_resources(const std::string& root, ResourceWalkOptions options) {
  ResourceWalk walk;
  std::set<std::string> seen;  // at most max_items URIs
  std::size_t pages = 0;
  // Resources still to report, each with its depth; the top is reported next (depth first).
  std::vector<WalkedResource> stack;
  // What the walk holds (reported and waiting), in resources and in bytes: a server's pages are
  // bounded one by one, so it is their sum that must be.
  std::size_t held_bytes = 0;
  // A spent budget stops all further listing; the depth limit only stops going deeper there.
  std::optional<std::string> spent;
  bool depth_cut = false;
  auto over_budget = [&](std::size_t extra_items) {
    if (walk.resources.size() + stack.size() + extra_items > options.max_items) {
      spent = "the item budget (" + std::to_string(options.max_items) + " resources)";
    } else if (held_bytes > options.max_bytes) {
      spent = "the byte budget (" + std::to_string(options.max_bytes) + " bytes of resources)";
    }
    return spent.has_value();
  };
  // Every page of `uri`'s children (the server's own list if empty) onto the stack, first child on top.
  auto expand = [&](const std::string& uri, std::size_t depth) -> Result<void> {
    std::vector<WalkedResource> children;
    std::set<std::string> cursors;
    std::optional<std::string> cursor;
    do {
      if (pages++ >= options.max_pages) {
        spent = "the page budget (" + std::to_string(options.max_pages) + " resources/list requests)";
        break;
      }
      auto page = uri.empty() ? list_resources(cursor) : list_children(uri, cursor);
      if (!page) return fail(page.error());
      for (auto& r : page->resources) {
        held_bytes += bytes_of(r);
        children.push_back(WalkedResource{std::move(r), depth});
      }
      if (over_budget(children.size())) break;
      cursor = page->next_cursor;
      if (cursor && !cursors.insert(*cursor).second) {
        return fail(Error::internal("resources/list of " + peer_text(uri) + ": the server repeated cursor '" +
                                    peer_text(*cursor) + "'"));
      }
    } while (cursor);
    // Past the item budget, only what fits is kept.
    const std::size_t held = walk.resources.size() + stack.size();
    if (children.size() > options.max_items - std::min(held, options.max_items))
      children.resize(options.max_items - std::min(held, options.max_items));
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(std::move(*it));
    return {};
  };
  if (root.empty()) {
    if (auto ok = expand("", 0); !ok) return fail(ok.error());
  } else {
    auto meta = resource_metadata(root);
    if (!meta) return fail(meta.error());
    stack.push_back(WalkedResource{std::move(*meta), 0});
  }
  while (!stack.empty()) {
    WalkedResource next = std::move(stack.back());
    stack.pop_back();
    if (!seen.insert(next.resource.uri).second) {
      ++walk.repeats;
      continue;
    }
    const bool listable = next.resource.capabilities && next.resource.capabilities->list == true;
    const std::string uri = next.resource.uri;
    const std::size_t depth = next.depth;
    walk.resources.push_back(std::move(next));
    if (!listable) continue;
    if (depth >= options.max_depth) {
      depth_cut = true;
      continue;
    }
    if (spent) continue;  // report what is already found, list nothing more
    if (auto ok = expand(uri, depth + 1); !ok) {
      if (impl_->ended()) return fail(ok.error());  // a policy ended the session
      walk.failed.emplace_back(uri, std::move(ok.error()));
    }
  }
  if (spent) walk.truncated = std::move(spent);
  else if (depth_cut) walk.truncated = "the depth limit (" + std::to_string(options.max_depth) + ")";
  return walk;
}

}  // namespace mcp
