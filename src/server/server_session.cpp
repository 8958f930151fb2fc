#include "server/server_session.hpp"

#include <algorithm>
#include <array>

#include "log/log.hpp"

namespace mcp {

namespace {
constexpr std::array<std::string_view, 3> kSupportedVersions = {"2025-11-25", "2025-06-18", "2025-03-26"};

std::string next_session_id() {
  static std::atomic<std::uint64_t> counter{0};
  return "s" + std::to_string(++counter);
}
}  // namespace

Result<std::shared_ptr<ServerSessionImpl>> ServerSessionImpl::create(std::shared_ptr<Server::Impl> server,
                                                                     std::shared_ptr<Transport> transport) {
  auto s = std::make_shared<ServerSessionImpl>(std::move(server), std::move(transport));
  if (auto r = s->session_->start(); !r) return fail(r.error());
  return s;
}

ServerSessionImpl::ServerSessionImpl(std::shared_ptr<Server::Impl> server, std::shared_ptr<Transport> transport)
    : server_(std::move(server)), id_(next_session_id()) {
  auto opts = server_->opts.session;
  if (opts.name == "mcp") opts.name = "server";
  session_ = Session::create(std::move(transport), *this, std::move(opts));
}

ServerSessionImpl::~ServerSessionImpl() { session_->shutdown(); }

std::shared_ptr<const ClientView> ServerSessionImpl::client() const {
  std::lock_guard lock(mu_);
  return client_;
}

void ServerSessionImpl::set_identity(std::optional<std::string> identity) {
  std::lock_guard lock(mu_);
  identity_ = identity;
  if (client_) {
    // ClientViews are shared with running handlers, so a change makes a new one.
    auto view = std::make_shared<ClientView>(*client_);
    view->identity = std::move(identity);
    client_ = std::move(view);
  }
}

std::shared_ptr<const ServerSignature> ServerSessionImpl::signature() const {
  auto s = session_signature();
  return s ? s->signature : nullptr;
}

std::shared_ptr<const SessionSignature> ServerSessionImpl::session_signature() const {
  std::lock_guard lock(mu_);
  return signature_;
}

void ServerSessionImpl::close() { session_->close(); }
void ServerSessionImpl::wait_closed() { session_->wait_closed(); }

std::optional<Error> ServerSessionImpl::close_reason() const {
  std::lock_guard lock(mu_);
  return close_reason_;
}

Result<void> ServerSessionImpl::notify(std::string_view method, json::object params) {
  return session_->notify(method, std::move(params));
}

Result<void> ServerSessionImpl::notify(std::string_view method, json::object params, const jsonrpc::Id& related) {
  return session_->notify(method, std::move(params), related);
}

Result<json::value> ServerSessionImpl::request(std::string_view method, json::object params, RequestOptions options) {
  return session_->request(method, std::move(params), std::move(options));
}

std::string ServerSessionImpl::log_level() const {
  std::lock_guard lock(mu_);
  return log_level_;
}

bool ServerSessionImpl::subscribed(const std::string& uri) const {
  std::lock_guard lock(mu_);
  return subscriptions_.contains(uri);
}

void ServerSessionImpl::notify_if_ready(std::string_view method, const json::object& params) {
  {
    std::lock_guard lock(mu_);
    if (!ready_) return;
  }
  (void)session_->notify(method, params);
}

void ServerSessionImpl::handle_notification(const jsonrpc::Notification& n) {
  if (n.method == "notifications/initialized") {
    std::lock_guard lock(mu_);
    ready_ = client_ != nullptr;
  }
  // cancelled and progress were handled by the session engine; roots/list_changed needs no action here.
}

void ServerSessionImpl::handle_closed(const std::optional<Error>& reason) {
  std::lock_guard lock(mu_);
  close_reason_ = reason;
}

Result<json::value> ServerSessionImpl::initialize(const json::object& params) {
  auto view = std::make_shared<ClientView>();
  const json::value* v = params.if_contains("protocolVersion");
  if (!v || !v->is_string()) return fail(Error::invalid_params("initialize: protocolVersion must be a string"));
  std::string requested(v->get_string());
  // Version negotiation: answer with the client's version if we speak it, else our latest.
  bool known = std::find(kSupportedVersions.begin(), kSupportedVersions.end(), requested) != kSupportedVersions.end();
  view->protocol_version = known ? requested : std::string(kSupportedVersions.front());
  if (auto c = params.if_contains("capabilities"); c && c->is_object()) view->capabilities = c->get_object();
  else return fail(Error::invalid_params("initialize: capabilities must be an object"));
  if (auto ci = params.if_contains("clientInfo"); ci && ci->is_object()) view->client_info = ci->get_object();
  else return fail(Error::invalid_params("initialize: clientInfo must be an object"));
  view->session_id = id_;
  // The signature is fixed now for the whole session (SEP-2091 "Stability").
  auto signature = server_->session_signature();
  if (!signature) {
    MCP_LOG_ERROR("server: cannot derive the capability signature: {}", signature.error().message);
    return fail(Error::internal("the server's capability signature is unavailable: " + signature.error().message));
  }
  {
    // Notifications may flow from here on: the specification restricts only *requests* before
    // notifications/initialized, and waiting for it would lose a list_changed raced with it.
    std::lock_guard lock(mu_);
    view->identity = identity_;
    client_ = std::move(view);
    signature_ = *signature;
    ready_ = true;
  }
  json::object result;
  result["protocolVersion"] = client()->protocol_version;
  result["capabilities"] = server_->capabilities();
  result["serverInfo"] = to_json(server_->opts.info);
  if (server_->opts.instructions) result["instructions"] = *server_->opts.instructions;
  if (*signature && (*signature)->serving.in_initialize) result["signature"] = (*signature)->json;
  return result;
}

bool ServerSessionImpl::runs_inline(const std::string& method, const json::object* params) const {
  // Listing copies registry entries and never waits on anything.
  if (method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
      method == "resources/templates/list" || method == "logging/setLevel") {
    return true;
  }
  if (method != "tools/call" || !params) return false;
  const json::value* name = params->if_contains("name");
  if (!name || !name->is_string()) return false;
  std::lock_guard lock(server_->mu);
  for (const auto& e : server_->tools) {
    if (e.tool.name == name->get_string()) return e.options.non_blocking;
  }
  return false;
}

Result<json::value> ServerSessionImpl::handle_request(InboundRequest& req) {
  if (req.method == "initialize") return initialize(req.params);
  auto view = client();
  if (!view) {
    return fail(Error::invalid_request("the session is not initialized: send initialize first (got " + peer_text(req.method) + ")"));
  }
  std::optional<json::object> meta;
  if (auto m = req.params.if_contains("_meta"); m && m->is_object()) meta = m->get_object();
  RequestContext ctx(std::move(view), *this, req.id, std::move(meta), req.cancel);
  if (runs_inline(req.method, &req.params)) ctx.forbid_nested_requests();
  try {
    return dispatch(req, ctx);
  } catch (const std::exception& e) {
    // A handler bug must not take the connection down; the client gets a clear internal error.
    MCP_LOG_ERROR("server: handler for {} threw: {}", peer_text(req.method), e.what());
    return fail(Error::internal("internal error while handling " + peer_text(req.method) + ": " + e.what()));
  }
}

Result<json::value> ServerSessionImpl::dispatch(InboundRequest& req, RequestContext& ctx) {
  const auto& m = req.method;
  const auto& p = req.params;
  if (m == "tools/list") return list_tools(p, ctx);
  if (m == "tools/call") return call_tool(p, ctx);
  if (m == "tools/manifest") return tools_manifest(ctx);
  if (m == "resources/list") return list_resources(p, ctx);
  if (m == "resources/templates/list") return list_resource_templates(p, ctx);
  if (m == "resources/read") return read_resource(p, ctx);
  if (m == "resources/subscribe") return subscribe(p, true);
  if (m == "resources/unsubscribe") return subscribe(p, false);
  if (m == "prompts/list") return list_prompts(p, ctx);
  if (m == "prompts/get") return get_prompt(p, ctx);
  if (m == "completion/complete") return complete(p, ctx);
  if (m == "logging/setLevel") return set_level(p);
  return fail(Error::method_not_found(m));
}

Result<json::value> ServerSessionImpl::set_level(const json::object& params) {
  if (!server_->opts.logging) return fail(Error::method_not_found("logging/setLevel"));
  const json::value* level = params.if_contains("level");
  if (!level || !level->is_string() || log_level_rank(level->get_string()) < 0) {
    return fail(Error::invalid_params("logging/setLevel: level must be one of debug, info, notice, warning, error, "
                                      "critical, alert, emergency"));
  }
  std::lock_guard lock(mu_);
  log_level_ = std::string(level->get_string());
  return json::object{};
}

Result<json::value> ServerSessionImpl::subscribe(const json::object& params, bool on) {
  if (!server_->opts.resource_subscriptions) {
    return fail(Error::method_not_found(on ? "resources/subscribe" : "resources/unsubscribe"));
  }
  const json::value* uri = params.if_contains("uri");
  if (!uri || !uri->is_string()) return fail(Error::invalid_params("uri must be a string"));
  const auto& opts = server_->opts;
  if (uri->get_string().size() > opts.max_uri_bytes) {
    return fail(Error::invalid_params("uri is " + std::to_string(uri->get_string().size()) + " bytes, over the limit of " +
                                      std::to_string(opts.max_uri_bytes) + " (max_uri_bytes)"));
  }
  std::lock_guard lock(mu_);
  if (!on) {
    subscriptions_.erase(std::string(uri->get_string()));
    return json::object{};
  }
  if (!subscriptions_.contains(std::string(uri->get_string())) && subscriptions_.size() >= opts.max_subscriptions) {
    return fail(Error::invalid_params("this session already holds " + std::to_string(subscriptions_.size()) +
                                      " subscriptions, the limit (max_subscriptions); unsubscribe first"));
  }
  subscriptions_.insert(std::string(uri->get_string()));
  return json::object{};
}

Result<Page> page_of(const json::object& params, std::size_t total, std::size_t page_size) {
  Page page;
  if (auto c = params.if_contains("cursor"); c && !c->is_null()) {
    if (!c->is_string()) return fail(Error::invalid_params("cursor must be a string"));
    auto s = std::string_view(c->get_string());
    std::size_t off = 0;
    bool ok = !s.empty() && s.size() < 12 && std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    if (ok) off = std::stoull(std::string(s));
    if (!ok || off > total) return fail(Error::invalid_params("invalid cursor: " + peer_text(s)));
    page.begin = off;
  }
  page.end = page_size == 0 ? total : std::min(total, page.begin + page_size);
  if (page.end < total) page.next_cursor = std::to_string(page.end);
  return page;
}

}  // namespace mcp
