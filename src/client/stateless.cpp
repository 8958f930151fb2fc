// The client's side of MCP 2026-07-28 (docs/protocol-2026-07-28.md): the server/discover probe and
// the fallback to 2025-11-25, the per-request _meta, multi round-trip results answered with the
// handlers the application registered, x-mcp-header (tools dropped, Mcp-Param-* headers sent),
// and the capability requirements servers list (docs/wire/per-request-capabilities.md).
#include "mcp/protocol/stateless.hpp"
#include "client/client_impl.hpp"
#include "log/log_budget.hpp"
#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/input_required.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/profiles.hpp"

namespace mcp {

namespace {

constexpr std::size_t kMaxInputRequestsPerRound = 32;

json::object envelope_for(const std::string& version, const ClientOptions& opts, const json::object& capabilities) {
  json::object meta{{meta_key::kProtocolVersion, version},
                    {meta_key::kClientCapabilities, capabilities},
                    {meta_key::kClientInfo, to_json(opts.info)}};
  // Server profiles: without a handshake, every request names the ones it could use.
  if (!opts.profiles.empty()) {
    json::array wanted;
    for (const auto& p : opts.profiles) wanted.emplace_back(json::string(p));
    meta[kRequestedProfilesMetaKey] = std::move(wanted);
  }
  return meta;
}

// The first stateless revision we speak in a list of versions a server sent (empty if none).
std::string mutual_version(const json::value* versions) {
  const json::array* list = versions ? versions->if_array() : nullptr;
  if (!list) return {};
  for (std::string_view ours : kStatelessProtocolVersions) {
    for (const auto& v : *list) {
      if (v.is_string() && v.get_string() == ours) return std::string(ours);
    }
  }
  return {};
}

bool is_input_required(const json::value& result) {
  const json::object* o = result.if_object();
  const json::value* type = o ? o->if_contains("resultType") : nullptr;
  return type && type->is_string() && type->get_string() == kResultInputRequired;
}

}  // namespace

Result<std::optional<json::object>> Client::Impl::probe(std::string& version) {
  // A -32022 naming a version we speak earns one more try, even with the version just sent: a
  // server may refuse the first request of a connection that way (conformance "request-metadata").
  for (int attempt = 0; attempt < 2; ++attempt) {
    RequestOptions ro;
    ro.timeout = opts.probe_timeout;
    auto r = session->request(method::kServerDiscover,
                              json::object{{"_meta", envelope_for(version, opts, declared)}}, std::move(ro));
    if (r) {
      const json::object* o = r->if_object();
      std::string mutual = mutual_version(o ? o->if_contains("supportedVersions") : nullptr);
      if (mutual.empty()) return std::optional<json::object>{};  // not a discover result we can use
      version = std::move(mutual);
      return std::optional<json::object>(*o);
    }
    // Nothing to fall back on once the connection is gone (a child that exited, say).
    if (session->closed()) return fail(r.error());
    if (r.error().code != error_code::kUnsupportedProtocolVersion || attempt > 0) break;
    const json::value* data = r.error().data ? &*r.error().data : nullptr;
    const json::object* d = data ? data->if_object() : nullptr;
    std::string mutual = mutual_version(d ? d->if_contains("supported") : nullptr);
    if (mutual.empty()) break;  // it speaks only revisions with a handshake
    version = std::move(mutual);
  }
  // Any other answer (-32601, a 2025 server's "no session", silence) is a server without 2026-07-28.
  return std::optional<json::object>{};
}

Result<InitializeResult> Client::Impl::start_stateless(const std::string& version, json::object discovered) {
  stateless = true;
  envelope = envelope_for(version, opts, declared);
  {
    std::lock_guard lock(mu);
    make_envelope_meta();
  }
  if (const json::value* c = discovered.if_contains("capabilities"); c && c->is_object()) server_caps = c->get_object();
  // What stands for an InitializeResult: the discover result with the version spoken and the
  // server's identity (its result _meta, or the body of servers older than spec PR #3002).
  json::object standing = discovered;
  standing["protocolVersion"] = version;
  const json::value* meta = discovered.if_contains("_meta");
  const json::value* info = meta && meta->is_object() ? meta->get_object().if_contains(meta_key::kServerInfo) : nullptr;
  if (!info) info = discovered.if_contains("serverInfo");
  standing["serverInfo"] = info && info->is_object() ? *info : json::value(json::object{{"name", "unknown"}, {"version", ""}});
  auto result = from_json<InitializeResult>(json::value(standing));
  if (!result) return fail(Error::internal("invalid server/discover result: " + result.error().message));
  init = *result;
  if (auto ok = start_stages(standing); !ok) return fail(ok.error());
  const json::value* granted = meta && meta->is_object() ? meta->get_object().if_contains(kProfileMetaKey) : nullptr;
  auto accepted = accept_profile(standing, granted && granted->is_string() ? std::optional<std::string>(granted->get_string())
                                                                           : std::nullopt);
  if (!accepted) return fail(end_session(accepted.error()));
  // Change notifications only at connect: a server that refuses them still serves requests.
  if (auto listened = relisten(); !listened)
    MCP_LOG_WARN("client: the server refused subscriptions/listen: {}",
                 peer_text(listened.error().message, kMaxQuotedReasonBytes));
  return result;
}

void Client::Impl::make_envelope_meta() {
  auto members = std::make_shared<jsonrpc::MetaMembers>();
  for (const auto& [k, v] : envelope) members->push_back(jsonrpc::meta_member(std::string(k), v));
  if (log_level) members->push_back(jsonrpc::meta_member(std::string(meta_key::kLogLevel), json::value(*log_level)));
  envelope_meta = std::move(members);
}

std::shared_ptr<const jsonrpc::MetaMembers> Client::Impl::envelope_members() const {
  if (!stateless) return nullptr;
  std::lock_guard lock(mu);
  return envelope_meta;
}

RequestOptions Client::Impl::request_options(std::string_view method, const json::object& params,
                                             const CallOptions& o) const {
  // Named members: a RequestOptions made first and then assigned would make a token of its own
  // (an allocation per request) only to drop it for the caller's.
  RequestOptions ro{.timeout = o.timeout, .on_progress = o.on_progress, .cancel = o.cancel, .meta = envelope_members()};
  if (!stateless || method != method::kToolsCall) return ro;
  // The arguments the tool mirrors into Mcp-Param-* headers (the HTTP transport encodes them).
  const json::value* name = params.if_contains("name");
  const json::value* args = params.if_contains("arguments");
  if (!name || !name->is_string() || !args || !args->is_object()) return ro;
  std::lock_guard lock(mu);
  auto it = tool_headers.find(std::string(name->get_string()));
  if (it == tool_headers.end()) return ro;
  for (const HeaderParam& p : it->second) {
    if (auto text = header_param_text(args->get_object(), p)) ro.headers.emplace_back("Mcp-Param-" + p.name, std::move(*text));
  }
  return ro;
}

Result<json::value> Client::Impl::exchange(std::string_view method, const json::object& params, const CallOptions& o) {
  return continue_exchange(method, params, o, session->request(method, params, request_options(method, params, o)));
}

bool Client::Impl::needs_more_rounds(std::string_view method, const Result<json::value>& r) const {
  if (r) return is_input_required(*r);
  return stateless && method == method::kToolsCall && r.error().code == error_code::kHeaderMismatch;
}

Result<json::value> Client::Impl::continue_exchange(std::string_view method, const json::object& params,
                                                    const CallOptions& o, Result<json::value> r) {
  if (!r && stateless && method == method::kToolsCall && r.error().code == error_code::kHeaderMismatch) {
    // The tool's headers may have changed since it was listed: list again, then retry once
    // (streamable-http.mdx, "Client Behavior").
    json::object page;
    for (std::size_t i = 0; i < opts.max_pages; ++i) {
      auto listed = call("tools", method::kToolsList, page);  // filter_tools records the headers
      const json::value* next = listed && listed->is_object() ? listed->get_object().if_contains("nextCursor") : nullptr;
      if (!next || !next->is_string()) break;
      page["cursor"] = *next;
    }
    r = session->request(method, params, request_options(method, params, o));
  }
  // A result without resultType is complete (2025-11-25 servers, and sep-2322's default).
  for (int round = 0; r && is_input_required(*r); ++round) {
    if (round >= opts.max_input_rounds) {
      return fail(Error::internal("the server asked for input " + std::to_string(round) + " times for one " +
                                  std::string(method) + ", over the limit of " + std::to_string(opts.max_input_rounds) +
                                  " (ClientOptions::max_input_rounds)"));
    }
    auto asked = input_required_from_json(r->get_object());
    if (!asked) return fail(Error::internal("invalid input_required result from the server: " + asked.error().message));
    // Each input request may put a question to the user or the model: a server may not ask more
    // of them at once than anyone could answer.
    if (asked->input_requests.size() > kMaxInputRequestsPerRound) {
      return fail(Error::internal("the server asked for " + std::to_string(asked->input_requests.size()) +
                                  " inputs in one round of " + std::string(method) + ", over the limit of " +
                                  std::to_string(kMaxInputRequestsPerRound)));
    }
    json::object answers;
    for (const auto& [key, request] : asked->input_requests) {
      const ClientRequestHandler* h = handler_for(request.method);
      if (!h) {
        return fail(Error::internal("the server asked for " + request.method + " (input request '" + peer_text(key) +
                                    "'), which this client has no handler for and did not declare"));
      }
      Result<json::value> answer = [&]() -> Result<json::value> {
        try {
          return (*h)(request.params.value_or(json::object{}), o.cancel);
        } catch (const std::exception& e) {
          return fail(Error::internal(request.method + " handler failed: " + e.what()));
        }
      }();
      if (!answer) return fail(answer.error());
      answers[key] = std::move(*answer);
    }
    // The retry is a new request: the original params, the answers, and the state byte for byte.
    json::object retry = params;
    retry["inputResponses"] = std::move(answers);
    if (asked->request_state) retry["requestState"] = *asked->request_state;
    else retry.erase("requestState");
    r = session->request(method, retry, request_options(method, retry, o));
  }
  return r;
}

void Client::Impl::filter_tools(json::value& result, bool first_page) {
  json::object* o = result.if_object();
  json::value* listed = o ? o->if_contains("tools") : nullptr;
  if (!listed || !listed->is_array()) return;
  json::array kept;
  std::map<std::string, std::vector<HeaderParam>> headers;
  for (auto& t : listed->get_array()) {
    const json::object* tool = t.if_object();
    const json::value* name = tool ? tool->if_contains("name") : nullptr;
    if (!name || !name->is_string()) {
      kept.push_back(std::move(t));  // the typed reading refuses it with a clear error
      continue;
    }
    const std::string tool_name(name->get_string());
    const json::value* meta = tool->if_contains("_meta");
    const json::value* needs = meta && meta->is_object() ? meta->get_object().if_contains(kRequiredCapabilitiesKey) : nullptr;
    if (needs && needs->is_object() && !missing_capabilities(needs->get_object(), declared).empty()) {
      MCP_LOG_DEBUG("client: tool {} needs capabilities this client does not declare; not listed", peer_text(tool_name));
      continue;
    }
    if (stateless) {
      const json::value* schema = tool->if_contains("inputSchema");
      auto params = schema && schema->is_object() ? header_params(schema->get_object()) : Result<std::vector<HeaderParam>>{};
      if (!params) {
        // streamable-http.mdx: a client MUST drop the tool, and SHOULD say which and why.
        static detail::LogBudget budget;  // one per tool, and a server lists as many as it likes
        MCP_LOG_WARN_WITHIN(budget, "client: tool {} dropped from tools/list: {}", peer_text(tool_name),
                            params.error().message);
        continue;
      }
      if (!params->empty()) headers[tool_name] = std::move(*params);
    }
    kept.push_back(std::move(t));
  }
  *listed = std::move(kept);
  std::lock_guard lock(mu);
  // A list from its first page starts over: what a server stopped listing is not kept, so a
  // server renaming its tools on every list cannot make this grow (later pages add to it).
  if (first_page) tool_headers.clear();
  for (auto& [name, params] : headers) tool_headers[name] = std::move(params);
}

}  // namespace mcp
