#include "gateway/forwarding.hpp"

#include "gateway/proxy.hpp"
#include "log/log.hpp"

namespace mcp::gateway {

namespace {

Error stopping() { return Error::internal("the gateway is stopping"); }

// The handler for a read of any URI the item serves (`via_template`: the template that matched it).
auto read_through(std::weak_ptr<Proxy> proxy, std::string via_template = {}) {
  return [proxy = std::move(proxy), via_template = std::move(via_template)](
             const std::string& uri, std::shared_ptr<RequestContext> ctx, Reply<ReadResourceResult> reply) {
    auto p = proxy.lock();
    if (!p) return void(reply(fail(stopping())));
    p->read_resource(uri, std::move(ctx), std::move(reply), via_template);
  };
}

// A subscription to any URI the item serves is forwarded to the upstream (Proxy::watch), without a
// thread waiting for the upstream's answer.
ResourceTree watched_through(std::weak_ptr<Proxy> proxy) {
  ResourceTree tree;
  tree.watch_async = [proxy = std::move(proxy)](const std::string& uri, bool on,
                                                std::function<void(Result<void>)> done) {
    auto p = proxy.lock();
    if (!p) return done(on ? Result<void>(fail(stopping())) : Result<void>{});
    p->watch(uri, on, std::move(done));
  };
  return tree;
}

// After the item is added: what it needs of its client, if the policy says.
void require(Server& server, const std::weak_ptr<Proxy>& proxy, ListKind kind, const std::string& as_served,
             const std::string& key) {
  auto p = proxy.lock();
  if (const CapabilityRequirement* r = p ? p->requirement(key) : nullptr) server.require_capabilities(kind, as_served, *r);
}

}  // namespace

Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const Tool& as_served, std::string key) {
  require(server, proxy, ListKind::tools, as_served.name, key);
  server.add_async_json_tool(as_served, [proxy = std::move(proxy), key = std::move(key)](
                                            const json::object& args, std::shared_ptr<RequestContext> ctx, Reply<json::object> reply) {
    auto p = proxy.lock();
    if (!p) return void(reply(fail(stopping())));
    p->call_tool(key, args, std::move(ctx), std::move(reply));
  });
  return {};
}

Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const Prompt& as_served, std::string key) {
  require(server, proxy, ListKind::prompts, as_served.name, key);
  server.add_async_prompt(as_served, [proxy = std::move(proxy), key = std::move(key)](
                                         const std::map<std::string, std::string>& args, std::shared_ptr<RequestContext> ctx,
                                         Reply<GetPromptResult> reply) {
    auto p = proxy.lock();
    if (!p) return void(reply(fail(stopping())));
    p->get_prompt(key, args, std::move(ctx), std::move(reply));
  });
  return {};
}

Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const Resource& resource) {
  require(server, proxy, ListKind::resources, resource.uri, resource.uri);
  server.add_async_resource(resource, read_through(proxy), watched_through(proxy));
  return {};
}

Result<void> serve_forwarded(Server& server, std::weak_ptr<Proxy> proxy, const ResourceTemplate& resource_template) {
  require(server, proxy, ListKind::resource_templates, resource_template.uri_template, resource_template.uri_template);
  auto read = read_through(proxy, resource_template.uri_template);
  return server.add_async_resource_template(
      resource_template,
      [read](const std::string& uri, const UriTemplate::Variables&, std::shared_ptr<RequestContext> ctx,
             Reply<ReadResourceResult> reply) { read(uri, std::move(ctx), std::move(reply)); },
      watched_through(proxy));
}

bool serve_vouched(Server& server, ServerSignature signature, const SignatureServing& serving, std::string& served_json,
                   std::string_view who) {
  std::string serialized = json::serialize(to_json(signature));
  if (serialized == served_json) return false;
  if (auto ok = server.set_signature(std::move(signature), serving); !ok) {
    MCP_LOG_ERROR("gateway {}: cannot serve the signature it vouches for ({}); serving an empty one", who,
                  peer_text(ok.error().message, kMaxQuotedReasonBytes));
    (void)server.set_signature(ServerSignature{}, serving);
    serialized = json::serialize(to_json(ServerSignature{}));
  }
  served_json = std::move(serialized);
  return true;
}

void unserve(Server& server, const Proxy& proxy, ListKind kind, const std::string& as_served, const std::string& key) {
  if (proxy.requirement(key)) server.require_capabilities(kind, as_served, {});  // an empty one removes it
  switch (kind) {
    case ListKind::tools: server.remove_tool(as_served); break;
    case ListKind::prompts: server.remove_prompt(as_served); break;
    case ListKind::resources: server.remove_resource(as_served); break;
    case ListKind::resource_templates: server.remove_resource_template(as_served); break;
  }
}

}  // namespace mcp::gateway
