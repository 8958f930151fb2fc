#include "server/server_session.hpp"

#include <algorithm>
#include <array>

#include "log/log.hpp"
#include "mcp/protocol/logging.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/session/thread_pool.hpp"

namespace mcp {

namespace {
std::string next_session_id() {
  static std::atomic<std::uint64_t> counter{0};
  return "s" + std::to_string(++counter);
}
}  // namespace

std::shared_ptr<ServerSessionImpl> ServerSessionImpl::create(std::shared_ptr<Server::Impl> server,
                                                             std::shared_ptr<Transport> transport) {
  return std::shared_ptr<ServerSessionImpl>(new ServerSessionImpl(std::move(server), std::move(transport)), &release);
}

Result<void> ServerSessionImpl::start() { return session_->start(); }

void ServerSessionImpl::release(ServerSessionImpl* s) {
  // The last reference can go on this session's own reader thread: a request's context released
  // by a cancel delivered there, after the Server itself was destroyed. The destructor waits for
  // the close, which that thread delivers once it returns: the session goes from the pool instead.
  if (!s->session_->inside_callback()) return delete s;
  if (ThreadPool::shared()->post([s] { delete s; })) return;
  // Deleting here would wait forever; keeping it costs one session's memory. Closed, so that its
  // client is told and nothing more is dispatched to a session nobody owns.
  s->session_->close();
  MCP_LOG_ERROR("server: no thread to release session {} on; it is closed and kept", s->id_);
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

void ServerSessionImpl::close() {
  end_listens();
  session_->close();
}
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

void ServerSessionImpl::request_async(std::string_view method, json::object params, RequestOptions options,
                                      std::function<void(Result<json::value>)> done) {
  session_->request_async(method, std::move(params), std::move(options), std::move(done));
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
    if (answering_) {
      constexpr std::size_t kMaxHeld = 64;  // distinct changes: a handful of kinds in practice
      held_until_ready_.hold(method, params, kMaxHeld);
      return;
    }
    if (!ready_) return;
  }
  (void)session_->notify(method, params);
}

void ServerSessionImpl::initialized() {
  std::vector<std::pair<std::string, json::object>> held;
  {
    std::lock_guard lock(mu_);
    if (!answering_) return;
    answering_ = false;
    ready_ = client_ != nullptr;
    held.swap(held_until_ready_.items);
  }
  for (auto& [m, p] : held) (void)session_->notify(m, std::move(p));
}

void ServerSessionImpl::handle_notification(const jsonrpc::Notification& n) {
  if (n.method == method::kInitialized) {
    std::lock_guard lock(mu_);
    ready_ = client_ != nullptr;
  }
  // cancelled and progress were handled by the session engine; roots/list_changed needs no action here.
}

void ServerSessionImpl::handle_closed(const std::optional<Error>& reason) {
  // The connection is gone: so are its subscriptions and listens, and with them their watches
  // (released here, outside the lock, rather than whenever the session object goes).
  std::map<std::string, WatchLease> subscriptions;
  std::vector<WatchLease> watches;
  std::lock_guard lock(mu_);
  close_reason_ = reason;
  gone_ = true;  // a subscribe that lands later is let go (subscriptions.cpp)
  subscriptions.swap(subscriptions_);
  for (auto& [key, listen] : listens_)
    for (auto& w : listen.watches) watches.push_back(std::move(w));
}

Result<json::value> ServerSessionImpl::initialize(const json::object& params) {
  auto request = from_json<InitializeRequestParams>(params);
  if (!request) return fail(Error::invalid_params("initialize: " + request.error().message));
  auto view = std::make_shared<ClientView>();
  // Version negotiation: answer with the client's version if we speak it, else our latest.
  view->protocol_version = is_supported_protocol_version(request->protocol_version) ? request->protocol_version
                                                                                    : std::string(kLatestProtocolVersion);
  view->capabilities = to_json(request->capabilities).as_object();
  view->client_info = to_json(request->client_info).as_object();
  view->client_label = client_label_of(view->client_info);
  view->session_id = id_;
  // Server profiles: the one this session is served under, or a refusal naming ours.
  auto requested = read_requested_profiles(params.if_contains("requestedProfiles"));
  if (!requested) return fail(Error::invalid_params("initialize: " + requested.error().message));
  auto profile = server_->negotiate_profile(*requested, view->protocol_version);
  if (!profile) return fail(profile.error());
  view->profile = *profile;
  // The signature is fixed now for the whole session (SEP-2091 "Stability").
  auto signature = server_->session_signature();
  if (!signature) {
    MCP_LOG_ERROR("server: cannot derive the capability signature: {}", signature.error().message);
    return fail(Error::internal("the server's capability signature is unavailable: " + signature.error().message));
  }
  InitializeResult result;
  result.protocol_version = view->protocol_version;
  {
    // Notifications may flow once this result is out (initialized()): the specification restricts
    // only *requests* before notifications/initialized, and waiting for that would lose a
    // list_changed raced with it; one raised meanwhile waits for the result, not overtaking it.
    std::lock_guard lock(mu_);
    view->identity = identity_;
    client_ = std::move(view);
    signature_ = *signature;
    outer_stages_ = std::make_shared<const StageList>(StageList{make_log_stage(id_), make_signature_stage(signature_)});
    answering_ = true;
  }
  result.server_info = server_->opts.info;
  result.instructions = server_->opts.instructions;
  auto out = to_json(result);
  // Built as JSON: they carry extensions (signature, signed manifests) the typed struct does not name.
  out.as_object()["capabilities"] = server_->capabilities();
  if (*signature && (*signature)->serving.in_initialize) out.as_object()["signature"] = (*signature)->json;
  if (*profile) out.as_object()["profile"] = **profile;
  return out;
}

Result<json::value> ServerSessionImpl::set_level(ServerRequest& r) {
  if (!server_->opts.logging) return fail(Error::method_not_found(method::kLoggingSetLevel));
  auto request = from_json<SetLevelRequestParams>(r.in.params);
  if (!request) return fail(Error::invalid_params("logging/setLevel: " + request.error().message));
  std::lock_guard lock(mu_);
  log_level_ = std::string(to_string(request->level));
  return json::object{};
}

}  // namespace mcp
