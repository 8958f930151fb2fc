#include "mcp/client/client.hpp"

#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "mcp/session/thread_pool.hpp"

#include <mutex>
#include <set>

#include "client/client_impl.hpp"
#include "log/log.hpp"
#include "session/inside.hpp"

namespace mcp {

namespace {

// What the handlers set declare, the same on every request (a capability with no handler is never
// declared).
json::object declared_capabilities(const ClientOptions& opts) {
  json::object caps;
  if (opts.on_sampling) {
    json::object s;
    if (opts.sampling_tools) s["tools"] = json::object{};
    caps["sampling"] = std::move(s);
  }
  if (opts.on_elicitation) {
    json::object e;
    // Declaring url support means listing form explicitly too (client/elicitation, 2025-11-25).
    if (opts.elicitation_url) {
      e["form"] = json::object{};
      e["url"] = json::object{};
    }
    caps["elicitation"] = std::move(e);
  }
  if (opts.on_roots) caps["roots"] = json::object{{"listChanged", opts.roots_list_changed}};
  return caps;
}

}  // namespace

Client::Impl::Impl(ClientOptions o) : opts(std::move(o)), declared(declared_capabilities(opts)), cache(declared) {
  stages = opts.stages;
  // The policies are innermost: they judge what the server sent before the user's stages see it.
  if (opts.manifest) {
    manifest_enforcer = std::make_shared<ManifestEnforcer>(*opts.manifest);
    stages.push_back(manifest_enforcer);
  }
  if (opts.signature_policy) {
    enforcer = std::make_shared<SignatureEnforcer>(*opts.signature_policy);
    stages.push_back(enforcer);
  }
}

const ClientRequestHandler* Client::Impl::handler_for(std::string_view m) const {
  const ClientRequestHandler* h = nullptr;
  if (m == method::kSamplingCreateMessage) h = &opts.on_sampling;
  else if (m == method::kElicitationCreate) h = &opts.on_elicitation;
  else if (m == method::kRootsList) h = &opts.on_roots;
  return h && *h ? h : nullptr;
}

Result<json::value> Client::Impl::handle_request(InboundRequest& req) {
  // The handler (on a pool thread) may release the client: ~Client must then leave the teardown
  // to the pool, or it would free the handler it is called from.
  detail::Inside mark(this);
  const ClientRequestHandler* h = handler_for(req.method);
  if (!h) return fail(Error::method_not_found(req.method));
  try {
    return (*h)(req.params, req.cancel);
  } catch (const std::exception& e) {
    return fail(Error::internal(req.method + " handler failed: " + e.what()));
  }
}

void Client::Impl::handle_notification(const jsonrpc::Notification& n) {
  static const json::object empty;
  const json::object& p = n.params ? *n.params : empty;
  // The subscription a 2026-07-28 listen's notification names (subscriptions.mdx: its request id).
  std::optional<std::int64_t> subscription;
  if (const json::value* meta = p.if_contains("_meta"); meta && meta->is_object()) {
    if (const json::value* sid = meta->get_object().if_contains(meta_key::kSubscriptionId); sid && sid->is_int64()) {
      subscription = sid->get_int64();
    }
  }
  if (n.method == method::kSubscriptionsAcknowledged) {
    for (const auto& stage : stages) stage->on_notification(n);
    listen_acknowledged(subscription);
    if (opts.on_notification) opts.on_notification(n);
    return;
  }
  if (from_ended_listen(subscription)) return;
  for (const auto& stage : stages) stage->on_notification(n);
  if (n.method == method::kLoggingMessage && opts.on_log) {
    if (auto m = from_json<LoggingMessageNotificationParams>(p)) opts.on_log(*m);
    else MCP_LOG_WARN("client: malformed notifications/message: {}", m.error().message);
  } else if (n.method == method::kResourcesUpdated) {
    if (auto u = p.if_contains("uri"); u && u->is_string() && (!stateless || subscribed(std::string(u->get_string())))) {
      cache.forget_resource(u->get_string());
      if (opts.on_resource_updated) opts.on_resource_updated(std::string(u->get_string()));
    }
  } else if (n.method.starts_with("notifications/") && n.method.ends_with("/list_changed")) {
    if (auto kind = list_kind_of_method(n.method)) {
      cache.forget(*kind);
      if (*kind == ListKind::resources) cache.forget(ListKind::resource_templates);
      if (opts.on_list_changed) opts.on_list_changed(std::string(result_key(*kind)));
    }
  }
  if (opts.on_notification) opts.on_notification(n);
}

void Client::Impl::handle_closed(const std::optional<Error>& reason) {
  // The reason may quote the peer (a child's last stderr lines, a server's error text).
  if (reason) MCP_LOG_WARN("client: connection closed: {}", peer_text(reason->message, kMaxQuotedReasonBytes));
  if (opts.on_closed) opts.on_closed(reason);
}

bool Client::Impl::supports(std::string_view capability) const { return declares_capability(server_caps, capability); }

Result<void> Client::Impl::prepare(std::string_view capability, std::string_view method, json::object& params,
                                   const CallOptions& o) {
  if (!session) return fail(Error::connection_closed("not connected"));
  // A stage ended the session: every later call says why, not just "closed".
  if (auto e = ended()) return fail(*e);
  if (!capability.empty() && !supports(capability)) {
    return fail(error_code::kMethodNotFound, "the server did not declare the '" + std::string(capability) +
                                                 "' capability, so " + std::string(method) + " was not sent");
  }
  if (o.meta) {
    json::value& m = params["_meta"];
    if (!m.is_object()) m = json::object{};
    for (const auto& kv : *o.meta) m.get_object()[kv.key()] = kv.value();
  }
  for (const auto& stage : stages) {
    if (auto ok = stage->on_request(method, params); !ok) return fail(ok.error());
  }
  // A stateless request's envelope goes into its text as it is sent (request_options).
  return {};
}

Result<json::value> Client::Impl::finish(std::string_view method, Result<json::value> r) {
  if (!r) return r;
  for (auto it = stages.rbegin(); it != stages.rend(); ++it) {
    if (auto ok = (*it)->on_result(method, *r); !ok) return fail(ok.error());
  }
  return r;
}

Result<json::value> Client::Impl::call(std::string_view capability, std::string_view method, json::object params,
                                       CallOptions o) {
  if (auto ok = prepare(capability, method, params, o); !ok) return fail(ok.error());
  std::optional<std::string> cache_key;
  std::optional<json::value> cached;
  if (stateless) {
    cache_key = cache.key(method, params);
    if (cache_key) cached = cache.find(*cache_key);
  }
  Result<json::value> r = cached ? Result<json::value>(std::move(*cached)) : exchange(method, params, o);
  if (!r) return r;
  if (!cached) {
    if (method == method::kToolsList) filter_tools(*r, !params.contains("cursor"));
    if (cache_key) cache.store(*cache_key, method, params, *r);
  }
  return finish(method, std::move(r));
}

std::optional<Error> Client::Impl::ended() const {
  std::lock_guard lock(mu);
  return ended_by;
}

// A stage refused the session: close it, and remember why for every later call.
Error Client::Impl::end_session(Error why) {
  {
    std::lock_guard lock(mu);
    if (!ended_by) ended_by = why;
  }
  session->close();
  return why;
}

// Holds a list result to every stage, innermost first; a refusal ends the session.
Result<void> Client::Impl::check_list(ListKind kind, const json::value& result, bool complete) {
  for (auto it = stages.rbegin(); it != stages.rend(); ++it) {
    if (auto ok = (*it)->on_list(kind, result, complete, *this); !ok) return fail(end_session(ok.error()));
  }
  return {};
}

// Straight on the session: the stages' own checks must not refuse what a stage fetches.
Result<json::value> Client::Impl::send_direct(std::string_view method, json::object params) {
  RequestOptions ro;
  ro.meta = envelope_members();
  return session->request(method, params, std::move(ro));
}

template <class T>
Result<T> Client::Impl::typed(std::string_view capability, std::string_view method, json::object params, CallOptions o) {
  // A page asked for without a cursor that comes back without one is the whole list.
  const bool first_page = !params.contains("cursor");
  // A resources/list scoped to a uri (SEP-2093) is a resource's children, not the server's list.
  const bool scoped = params.contains("uri");
  auto r = call(capability, method, std::move(params), std::move(o));
  if (!r) return fail(r.error());
  if (auto kind = list_kind_of_method(method); kind && !scoped) {
    const bool more = r->is_object() && r->get_object().contains("nextCursor");
    if (auto ok = check_list(*kind, *r, first_page && !more); !ok) return fail(ok.error());
  }
  auto t = from_json<T>(*r);
  if (!t) return fail(Error::internal("invalid " + std::string(method) + " result from server: " + t.error().message));
  return t;
}

// Follows nextCursor until the end, refusing a repeated cursor or more than max_pages pages. The
// signature policy checks the pages joined, as one complete list.
// The resource methods of resources.cpp use typed() too.
template Result<ReadResourceResult> Client::Impl::typed<ReadResourceResult>(std::string_view, std::string_view,
                                                                              json::object, CallOptions);
template Result<ResourceMetadataResult> Client::Impl::typed<ResourceMetadataResult>(std::string_view, std::string_view,
                                                                                      json::object, CallOptions);
template Result<ListResourcesResult> Client::Impl::typed<ListResourcesResult>(std::string_view, std::string_view,
                                                                                json::object, CallOptions);

template <class Item, class Page>
Result<std::vector<Item>> Client::Impl::all(std::string_view capability, std::string_view method,
                                            std::vector<Item> Page::*items) {
  std::vector<Item> out;
  std::set<std::string> seen;
  std::optional<std::string> cursor;
  const auto kind = list_kind_of_method(method);
  json::array joined;
  std::size_t bytes = 0;
  for (std::size_t page = 0; page < opts.max_pages; ++page) {
    json::object params;
    if (cursor) params["cursor"] = *cursor;
    auto raw = call(capability, method, std::move(params));
    if (!raw) return fail(raw.error());
    // Lists are read seldom (at connect, on list_changed): measuring each page by writing it
    // again costs little beside reading it.
    bytes += json::serialize(*raw).size();
    if (bytes > opts.max_list_bytes) {
      return fail(
          Error::internal(std::string(method) + ": the pages hold more than " + std::to_string(opts.max_list_bytes) +
                          " bytes (ClientOptions::max_list_bytes) after " + std::to_string(page + 1) + " pages"));
    }
    auto r = from_json<Page>(*raw);
    if (!r) return fail(Error::internal("invalid " + std::string(method) + " result from server: " + r.error().message));
    if (!stages.empty() && kind) {
      if (const json::value* a = raw->get_object().if_contains(result_key(*kind)); a && a->is_array())
        for (const auto& i : a->get_array()) joined.push_back(i);
    }
    for (auto& i : (*r).*items) out.push_back(std::move(i));
    if (!r->next_cursor) {
      if (kind) {
        json::object whole;
        whole[result_key(*kind)] = std::move(joined);
        if (auto ok = check_list(*kind, whole, true); !ok) return fail(ok.error());
      }
      return out;
    }
    if (!seen.insert(*r->next_cursor).second) {
      return fail(Error::internal(std::string(method) + ": the server repeated cursor '" + peer_text(*r->next_cursor) + "'"));
    }
    cursor = r->next_cursor;
  }
  return fail(Error::internal(std::string(method) + ": more than " + std::to_string(opts.max_pages) +
                              " pages (ClientOptions::max_pages)"));
}

Client::Client(ClientOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {}

Client::~Client() {
  if (!impl_->inside_callback()) {
    impl_->shutdown();
    return;
  }
  // Released inside one of its own callbacks (a gateway's upstream client, say, released by the
  // answer it is delivering): waiting here for the callbacks to end would wait for this one. The
  // pool closes the connection and waits; the Impl the callbacks use goes after them. Not closed
  // here: a transport's close may wait for the very callback this thread is in (the HTTP client
  // transport's delivery lock, a child's reaping while its output goes unread).
  if (ThreadPool::shared()->post([impl = impl_] { impl->shutdown(); })) return;
  // Releasing the Impl under a running callback would free what it uses: it is kept, open.
  MCP_LOG_ERROR("client: no thread to finish closing on; its connection and state are kept");
  static_cast<void>(new std::shared_ptr<Impl>(impl_));
}

Result<InitializeResult> Client::Impl::initialize(const std::string& version) {
  InitializeRequestParams request;
  request.protocol_version = version;
  request.client_info = opts.info;
  auto params = to_json(request);
  params.as_object()["capabilities"] = capabilities();
  if (!opts.profiles.empty()) {
    json::array wanted;
    for (const auto& p : opts.profiles) wanted.emplace_back(json::string(p));
    params.as_object()["requestedProfiles"] = std::move(wanted);
  }
  auto r = session->request(method::kInitialize, std::move(params.as_object()));
  if (!r) return fail(r.error());
  auto result = from_json<InitializeResult>(*r);
  if (!result) return fail(Error::internal("invalid initialize result: " + result.error().message));
  if (!is_supported_protocol_version(result->protocol_version)) {
    session->close();
    return fail(Error::internal("the server chose protocol version " + peer_text(result->protocol_version) +
                                ", which this client does not speak"));
  }
  init = *result;
  if (auto c = r->get_object().if_contains("capabilities"); c && c->is_object()) server_caps = c->get_object();
  // A stage (strict signature mode, say) may refuse the session before anything else is sent.
  for (const auto& stage : stages) {
    if (auto ok = stage->on_initialize(r->get_object()); !ok) return fail(end_session(ok.error()));
  }
  if (auto n = session->notify(method::kInitialized, {}); !n) return fail(n.error());
  for (const auto& stage : stages) {
    if (auto ok = stage->on_connected(r->get_object(), *this); !ok) return fail(end_session(ok.error()));
  }
  const json::value* granted = r->get_object().if_contains("profile");
  auto accepted = accept_profile(r->get_object(), granted && granted->is_string()
                                                      ? std::optional<std::string>(granted->get_string())
                                                      : std::nullopt);
  if (!accepted) return fail(end_session(accepted.error()));
  return result;
}

Result<void> Client::Impl::start_stages(const json::object& result) {
  for (const auto& stage : stages) {
    if (auto ok = stage->on_initialize(result); !ok) return fail(end_session(ok.error()));
  }
  // Requests may go now (the manifest stage fetches tools/manifest); a refusal comes before the
  // caller sees any tool.
  for (const auto& stage : stages) {
    if (auto ok = stage->on_connected(result, *this); !ok) return fail(end_session(ok.error()));
  }
  return {};
}

Result<InitializeResult> Client::connect(std::shared_ptr<Transport> transport) {
  if (impl_->session) return fail(Error::internal("already connected"));
  auto sopts = impl_->opts.session;
  if (sopts.name == "mcp") sopts.name = "client";
  // A server sending more than we accept ends the session at once, naming the limit: the client
  // cannot tell which request the oversized message answered, and would otherwise wait it out.
  sopts.close_on_oversize = true;
  impl_->session = Session::create(std::move(transport), *impl_, std::move(sopts));
  if (auto s = impl_->session->start(); !s) return fail(s.error());

  const std::string& wanted = impl_->opts.protocol_version;
  if (!is_stateless_protocol_version(wanted)) return impl_->initialize(wanted);
  // 2026-07-28 first: server/discover says whether the server speaks it (docs/protocol-2026-07-28.md §3).
  std::string version = wanted;
  auto probed = impl_->probe(version);
  if (!probed) return fail(probed.error());
  if (*probed) return impl_->start_stateless(version, std::move(**probed));
  if (!impl_->opts.fallback) {
    impl_->session->close();
    return fail(Error::internal("the server does not speak " + wanted +
                                " (server/discover), and ClientOptions::fallback is off"));
  }
  return impl_->initialize(std::string(kLatestProtocolVersion));
}

const InitializeResult& Client::server() const { return impl_->init; }
bool Client::server_supports(std::string_view capability) const { return impl_->supports(capability); }

namespace {
json::object cursor_params(const std::optional<std::string>& cursor) {
  json::object p;
  if (cursor) p["cursor"] = *cursor;
  return p;
}
}  // namespace

Result<ListToolsResult> Client::list_tools(std::optional<std::string> cursor) {
  return impl_->typed<ListToolsResult>("tools", method::kToolsList, cursor_params(cursor));
}
Result<std::vector<Tool>> Client::list_all_tools() {
  return impl_->all<Tool>("tools", method::kToolsList, &ListToolsResult::tools);
}
Result<CallToolResult> Client::call_tool(const std::string& name, json::object arguments, CallOptions options) {
  return impl_->typed<CallToolResult>("tools", method::kToolsCall,
                                      json::object{{"name", name}, {"arguments", std::move(arguments)}},
                                      std::move(options));
}


Result<ListResourcesResult> Client::list_resources(std::optional<std::string> cursor) {
  return impl_->typed<ListResourcesResult>("resources", method::kResourcesList, cursor_params(cursor));
}
Result<std::vector<Resource>> Client::list_all_resources() {
  return impl_->all<Resource>("resources", method::kResourcesList, &ListResourcesResult::resources);
}
Result<ListResourceTemplatesResult> Client::list_resource_templates(std::optional<std::string> cursor) {
  return impl_->typed<ListResourceTemplatesResult>("resources", method::kResourcesTemplatesList, cursor_params(cursor));
}
Result<std::vector<ResourceTemplate>> Client::list_all_resource_templates() {
  return impl_->all<ResourceTemplate>("resources", method::kResourcesTemplatesList,
                                      &ListResourceTemplatesResult::resource_templates);
}
Result<void> Client::subscribe(const std::string& uri) {
  if (impl_->stateless) return impl_->change_subscription(uri, true);
  auto r = impl_->call("resources.subscribe", method::kResourcesSubscribe, json::object{{"uri", uri}});
  if (!r) return fail(r.error());
  return {};
}
Result<void> Client::unsubscribe(const std::string& uri) {
  if (impl_->stateless) return impl_->change_subscription(uri, false);
  auto r = impl_->call("resources.subscribe", method::kResourcesUnsubscribe, json::object{{"uri", uri}});
  if (!r) return fail(r.error());
  return {};
}

Result<ListPromptsResult> Client::list_prompts(std::optional<std::string> cursor) {
  return impl_->typed<ListPromptsResult>("prompts", method::kPromptsList, cursor_params(cursor));
}
Result<std::vector<Prompt>> Client::list_all_prompts() {
  return impl_->all<Prompt>("prompts", method::kPromptsList, &ListPromptsResult::prompts);
}
Result<GetPromptResult> Client::get_prompt(const std::string& name, std::map<std::string, std::string> arguments,
                                           CallOptions options) {
  json::object args;
  for (auto& [k, v] : arguments) args[k] = v;
  return impl_->typed<GetPromptResult>("prompts", method::kPromptsGet, json::object{{"name", name}, {"arguments", std::move(args)}},
                                       std::move(options));
}

Result<CompleteResult> Client::complete(const CompleteRequestParams& params) {
  auto p = to_json(params);
  return impl_->typed<CompleteResult>("completions", method::kCompletionComplete, std::move(p.as_object()));
}

Result<void> Client::set_log_level(LoggingLevel level) {
  if (impl_->stateless) {
    // 2026-07-28 has no logging/setLevel: each request asks for its own level in _meta.
    if (!impl_->supports("logging")) {
      return fail(error_code::kMethodNotFound, "the server did not declare the 'logging' capability");
    }
    std::lock_guard lock(impl_->mu);
    impl_->log_level = std::string(to_string(level));
    impl_->make_envelope_meta();
    return {};
  }
  auto r = impl_->call("logging", method::kLoggingSetLevel, json::object{{"level", to_string(level)}});
  if (!r) return fail(r.error());
  return {};
}

Result<void> Client::ping() {
  // 2026-07-28 has no ping; server/discover is its cheapest request.
  auto r = impl_->call("", impl_->stateless ? method::kServerDiscover : method::kPing, {});
  if (!r) return fail(r.error());
  return {};
}

Result<json::value> Client::request(std::string_view method, json::object params, CallOptions options) {
  return impl_->call("", method, std::move(params), std::move(options));
}

Result<void> Client::notify(std::string_view method, json::object params) {
  if (!impl_->session) return fail(Error::connection_closed("not connected"));
  return impl_->session->notify(method, std::move(params));
}

std::shared_ptr<const ServerSignature> Client::signature() const {
  return impl_->enforcer ? impl_->enforcer->signature() : nullptr;
}

std::vector<SignatureViolation> Client::signature_violations() const {
  return impl_->enforcer ? impl_->enforcer->violations() : std::vector<SignatureViolation>{};
}

std::vector<DeclaredItem> Client::available_if_enabled() const {
  return impl_->enforcer ? impl_->enforcer->available_if_enabled() : std::vector<DeclaredItem>{};
}

std::shared_ptr<const trust::ToolManifest> Client::manifest() const {
  return impl_->manifest_enforcer ? impl_->manifest_enforcer->manifest() : nullptr;
}

std::shared_ptr<const trust::VerifyResult> Client::manifest_verification() const {
  return impl_->manifest_enforcer ? impl_->manifest_enforcer->last_verification() : nullptr;
}

std::vector<SignatureViolation> Client::manifest_violations() const {
  return impl_->manifest_enforcer ? impl_->manifest_enforcer->violations() : std::vector<SignatureViolation>{};
}

void Client::close() {
  impl_->stop_listening();
  if (impl_->session) impl_->session->close();
}

bool Client::stateless() const { return impl_->stateless; }
std::optional<std::string> Client::profile() const { return impl_->profile; }

bool Client::closed() const {
  // A stage ends the session at once, before the transport has reported its close.
  if (impl_->ended()) return true;
  return !impl_->session || impl_->session->closed();
}

}  // namespace mcp
