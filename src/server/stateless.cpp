// The server's side of MCP 2026-07-28 (stateless): a request whose _meta names its protocol
// version is judged by that _meta alone, never by an initialize or an earlier request
// (docs/protocol-2026-07-28.md §1.1-1.4). After the checks here it takes the same path as every
// request (dispatch.cpp), with its own ClientView and the stateless stage outermost, which gives
// each answer what the revision adds: resultType, serverInfo, caching hints, its error codes.
//
// Multi round-trip results are input_required.cpp's. A stateless request is served under the
// server's capability signature of the moment (Server::Impl::stateless_signature), which
// server/discover carries as `signature` the way InitializeResult does.
#include <algorithm>
#include <atomic>

#include "json/equal.hpp"
#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/profiles.hpp"
#include "mcp/protocol/stateless.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// Methods 2026-07-28 removed: the handshake, ping, the session's log level, resource
// subscriptions (now subscriptions/listen). Unknown to a stateless request, as the revision says.
bool removed_method(std::string_view m) {
  return m == method::kInitialize || m == method::kPing || m == method::kLoggingSetLevel ||
         m == method::kResourcesSubscribe || m == method::kResourcesUnsubscribe;
}

// Results that carry caching hints (server/utilities/caching.mdx): the lists, resources/read and
// server/discover (which sets its own).
bool cacheable(std::string_view m) {
  return m == method::kToolsList || m == method::kPromptsList || m == method::kResourcesList ||
         m == method::kResourcesTemplatesList || m == method::kResourcesRead;
}

Error unsupported_version(std::string_view requested) {
  json::array supported;
  std::string names;
  for (std::string_view v : kStatelessProtocolVersions) {
    supported.emplace_back(json::string(v));
    names += names.empty() ? "" : ", ";
    names += v;
  }
  return Error{error_code::kUnsupportedProtocolVersion,
               "Unsupported protocol version " + peer_text(requested) + " (this server speaks " + names + ")",
               json::object{{"supported", std::move(supported)}, {"requested", peer_text(requested)}}};
}

json::object with_server_info(json::object meta, const Implementation& info) {
  meta[meta_key::kServerInfo] = to_json(info);
  return meta;
}

// Outermost on every stateless request: the last to see each answer on its way out.
class StatelessStage final : public Stage {
 public:
  // `lists_vary` belongs to the Server::Impl the session holds, which outlives this stage.
  StatelessStage(const Implementation& info, std::chrono::milliseconds ttl, CacheScope scope, const std::atomic<bool>& lists_vary)
      : info_(to_json(info)), ttl_ms_(std::max<std::int64_t>(0, ttl.count())), scope_(scope), lists_vary_(lists_vary) {}
  std::string_view name() const override { return "stateless"; }

  void on_result(const Call& call, Result<json::value>& answer) override {
    if (!answer) {
      // 2026-07-28 has no -32002: a resource that does not exist is -32602 (its data names the uri).
      if (answer.error().code == error_code::kResourceNotFound) answer.error().code = error_code::kInvalidParams;
      return;
    }
    json::object* result = answer->if_object();
    if (!result) return;
    const json::value* type = result->if_contains("resultType");
    if (!type) result->emplace("resultType", kResultComplete);
    const bool complete = !type || (type->is_string() && type->get_string() == kResultComplete);
    if (cacheable(call.method) && complete) {
      // A list filtered by this request's capabilities (mcp/server/requirements.hpp) is this
      // request's alone: not to be reused, and never shared.
      const bool varies = lists_vary_.load() && call.method != method::kResourcesRead;
      (*result)["ttlMs"] = varies ? 0 : ttl_ms_;
      (*result)["cacheScope"] = to_json(varies ? CacheScope::private_ : scope_);
    }
    json::value& meta = (*result)["_meta"];
    if (!meta.is_object()) meta = json::object{};
    meta.as_object()[meta_key::kServerInfo] = info_;
    if (const auto& profile = call.context.profile()) meta.as_object()[kProfileMetaKey] = *profile;
  }

 private:
  json::value info_;  // serverInfo, made once: every answer carries it
  std::int64_t ttl_ms_;
  CacheScope scope_;
  const std::atomic<bool>& lists_vary_;
};

}  // namespace

Result<json::value> ServerSessionImpl::discover(const std::optional<std::string>& profile) {
  const auto& opts = server_->opts;
  DiscoverResult result;
  for (std::string_view v : kStatelessProtocolVersions) result.supported_versions.emplace_back(v);
  // listChanged and subscribe are what subscriptions/listen honours (listen.cpp).
  json::object caps = server_->capabilities();
  auto typed = from_json<ServerCapabilities>(caps);
  if (!typed) return fail(Error::internal("server/discover: " + typed.error().message));
  result.capabilities = std::move(*typed);
  result.instructions = opts.instructions;
  result.ttl_ms = std::max<std::int64_t>(0, opts.cache_ttl.count());
  result.cache_scope = opts.cache_scope;
  result.meta = with_server_info({}, opts.info);
  if (auto profiles = server_->profiles_now(); !profiles->empty()) (*result.meta)[kProfilesMetaKey] = profiles_document(*profiles);
  if (profile) (*result.meta)[kProfileMetaKey] = *profile;
  json::value out = to_json(result);
  // SEP-2091 without a handshake: the signature travels where initialize's result carried it.
  auto signature = server_->stateless_signature();
  if (!signature) return fail(Error::internal("the server's capability signature is unavailable: " + signature.error().message));
  if (*signature && (*signature)->serving.in_initialize) out.as_object()["signature"] = (*signature)->json;
  return out;
}

std::shared_ptr<const ClientView> ServerSessionImpl::stateless_view(const RequestMetaView& meta, std::optional<std::string> profile) {
  // A client sends the same envelope with every request: the view made for the last one is used
  // again while everything in it is the same (compared, not copied: the copies cost more than the
  // rest of a small call's dispatch).
  const json::object kNoInfo;
  const json::object& info = meta.client_info ? *meta.client_info : kNoInfo;
  std::optional<std::string_view> level;
  if (meta.log_level) level = to_string(*meta.log_level);
  std::lock_guard lock(mu_);
  const auto& last = last_stateless_view_;
  if (last && last->protocol_version == meta.protocol_version &&
      detail::json_equal(last->capabilities, *meta.client_capabilities) &&
      detail::json_equal(last->client_info, info) && last->log_level == level && last->profile == profile &&
      last->identity == identity_) {
    return last;
  }
  auto view = std::make_shared<ClientView>();
  view->stateless = true;
  view->protocol_version = std::string(meta.protocol_version);
  view->capabilities = *meta.client_capabilities;
  view->client_info = info;
  view->client_label = client_label_of(info);
  if (level) view->log_level = std::string(*level);
  view->profile = std::move(profile);
  view->session_id = id_;
  view->identity = identity_;
  last_stateless_view_ = view;
  return view;
}

void ServerSessionImpl::start_stateless(InboundRequest& in, Responder reply) {
  auto meta = check_request_meta(in.params);
  if (!meta) {
    reply(fail(Error::invalid_params(peer_text(in.method) + ": " + meta.error().message)));
    return;
  }
  if (!is_stateless_protocol_version(meta->protocol_version)) {
    reply(fail(unsupported_version(meta->protocol_version)));
    return;
  }
  if (removed_method(in.method)) {
    reply(fail(Error::method_not_found(in.method)));
    return;
  }
  // Server profiles: this request's own, from its _meta (docs/wire/profiles.md).
  const json::object* meta_object = in.params.at("_meta").if_object();
  auto requested = read_requested_profiles(meta_object ? meta_object->if_contains(kRequestedProfilesMetaKey) : nullptr);
  if (!requested) {
    reply(fail(Error::invalid_params(peer_text(in.method) + ": _meta[\"" + std::string(kRequestedProfilesMetaKey) +
                                     "\"]: " + requested.error().message)));
    return;
  }
  auto profile = server_->negotiate_profile(*requested, meta->protocol_version);
  if (in.method == method::kServerDiscover) {
    // Discovery always answers: it is how a client learns the profiles it may request.
    reply(discover(profile ? *profile : std::nullopt));
    return;
  }
  if (!profile) {
    reply(fail(profile.error()));
    return;
  }
  if (in.method == method::kSubscriptionsListen) {
    listen(in, std::move(reply));
    return;
  }
  std::shared_ptr<const ClientView> view = stateless_view(*meta, std::move(*profile));
  // Served under the server's signature of now, which server/discover also shows (SEP-2091 for a
  // revision without a session: the signature is the server's, not a session's).
  auto signature = server_->stateless_signature();
  if (!signature) {
    reply(fail(Error::internal("the server's capability signature is unavailable: " + signature.error().message)));
    return;
  }
  std::shared_ptr<const StageList> outer;
  {
    std::lock_guard lock(mu_);
    if (!stateless_stages_ || stateless_stages_signature_ != *signature) {
      const auto& opts = server_->opts;
      StageList stages{
          std::make_shared<StatelessStage>(opts.info, opts.cache_ttl, opts.cache_scope, server_->lists_vary_by_capabilities),
          make_log_stage(id_)};
      if (*signature) stages.push_back(make_signature_stage(*signature));
      stateless_stages_ = std::make_shared<const StageList>(std::move(stages));
      stateless_stages_signature_ = *signature;
    }
    outer = stateless_stages_;
  }
  dispatch(in, std::move(reply), std::move(view), std::move(outer), std::move(*signature));
}

}  // namespace mcp
