#include "mcp/client/client.hpp"

#include "mcp/protocol/capabilities.hpp"

#include <mutex>
#include <set>

#include "client/manifest_enforcer.hpp"
#include "client/signature_enforcer.hpp"
#include "log/log.hpp"

namespace mcp {

struct Client::Impl final : Session::Handler {
  explicit Impl(ClientOptions o) : opts(std::move(o)) {
    if (opts.signature_policy) enforcer = std::make_unique<SignatureEnforcer>(*opts.signature_policy);
    if (opts.manifest) manifest_enforcer = std::make_unique<ManifestEnforcer>(*opts.manifest);
  }

  ClientOptions opts;
  std::unique_ptr<SignatureEnforcer> enforcer;  // null without a signature policy
  std::unique_ptr<ManifestEnforcer> manifest_enforcer;  // null without a manifest policy
  std::shared_ptr<Session> session;
  InitializeResult init;
  json::object server_caps;
  mutable std::mutex mu;

  json::object capabilities() const {
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

  Result<json::value> handle_request(InboundRequest& req) override {
    const ClientRequestHandler* h = nullptr;
    if (req.method == "sampling/createMessage") h = &opts.on_sampling;
    else if (req.method == "elicitation/create") h = &opts.on_elicitation;
    else if (req.method == "roots/list") h = &opts.on_roots;
    if (!h || !*h) return fail(Error::method_not_found(req.method));
    try {
      return (*h)(req.params, req.cancel);
    } catch (const std::exception& e) {
      return fail(Error::internal(req.method + " handler failed: " + e.what()));
    }
  }

  void handle_notification(const jsonrpc::Notification& n) override {
    static const json::object empty;
    const json::object& p = n.params ? *n.params : empty;
    // The next tools/list is held to a manifest fetched after this (not here: this is the reader thread).
    if (manifest_enforcer && n.method == "notifications/tools/list_changed") manifest_enforcer->mark_stale();
    if (n.method == "notifications/message" && opts.on_log) {
      if (auto m = from_json<LoggingMessageNotificationParams>(p)) opts.on_log(*m);
      else MCP_LOG_WARN("client: malformed notifications/message: {}", m.error().message);
    } else if (n.method == "notifications/resources/updated" && opts.on_resource_updated) {
      if (auto u = p.if_contains("uri"); u && u->is_string()) opts.on_resource_updated(std::string(u->get_string()));
    } else if (opts.on_list_changed) {
      if (n.method == "notifications/tools/list_changed") opts.on_list_changed("tools");
      else if (n.method == "notifications/resources/list_changed") opts.on_list_changed("resources");
      else if (n.method == "notifications/prompts/list_changed") opts.on_list_changed("prompts");
    }
    if (opts.on_notification) opts.on_notification(n);
  }

  void handle_closed(const std::optional<Error>& reason) override {
    if (reason) MCP_LOG_WARN("client: connection closed: {}", reason->message);
    if (opts.on_closed) opts.on_closed(reason);
  }

  bool supports(std::string_view capability) const { return declares_capability(server_caps, capability); }

  Result<json::value> call(std::string_view capability, std::string_view method, json::object params,
                           CallOptions o = {}) {
    if (!session) return fail(Error::connection_closed("not connected"));
    // Strict mode ended the session: every later call says why, not just "closed".
    if (enforcer) {
      if (auto f = enforcer->fatal()) return fail(*f);
    }
    if (manifest_enforcer) {
      if (auto f = manifest_enforcer->fatal()) return fail(*f);
    }
    if (!capability.empty() && !supports(capability)) {
      return fail(error_code::kMethodNotFound, "the server did not declare the '" + std::string(capability) +
                                                   "' capability, so " + std::string(method) + " was not sent");
    }
    if (o.meta) {
      json::value& m = params["_meta"];
      if (!m.is_object()) m = json::object{};
      for (const auto& kv : *o.meta) m.get_object()[kv.key()] = kv.value();
    }
    RequestOptions ro;
    ro.timeout = o.timeout;
    ro.on_progress = std::move(o.on_progress);
    ro.cancel = o.cancel;
    return session->request(method, std::move(params), std::move(ro));
  }

  // Holds a list result to the signature policy; in strict mode a violation ends the session.
  Result<void> check_list(ListKind kind, const json::value& result, bool complete) {
    if (enforcer) {
      auto ok = enforcer->on_list(kind, result, complete);
      if (!ok) {
        session->close();
        return ok;
      }
    }
    // Signed manifests cover tools only.
    if (manifest_enforcer && kind == ListKind::tools) {
      auto ok = manifest_enforcer->on_tools(result, [this] { return fetch_manifest(); });
      if (!ok) session->close();
      return ok;
    }
    return {};
  }

  // tools/manifest straight on the session: the policies' own checks must not refuse it.
  Result<json::value> fetch_manifest() { return session->request("tools/manifest", {}); }

  template <class T>
  Result<T> typed(std::string_view capability, std::string_view method, json::object params, CallOptions o = {}) {
    // A page asked for without a cursor that comes back without one is the whole list.
    const bool first_page = !params.contains("cursor");
    auto r = call(capability, method, std::move(params), std::move(o));
    if (!r) return fail(r.error());
    if (auto kind = list_kind_of_method(method)) {
      const bool more = r->is_object() && r->get_object().contains("nextCursor");
      if (auto ok = check_list(*kind, *r, first_page && !more); !ok) return fail(ok.error());
    }
    auto t = from_json<T>(*r);
    if (!t) return fail(Error::internal("invalid " + std::string(method) + " result from server: " + t.error().message));
    return t;
  }

  // Follows nextCursor until the end, refusing a repeated cursor or more than max_pages pages. The
  // signature policy checks the pages joined, as one complete list.
  template <class Item, class Page>
  Result<std::vector<Item>> all(std::string_view capability, std::string_view method,
                                std::vector<Item> Page::*items) {
    std::vector<Item> out;
    std::set<std::string> seen;
    std::optional<std::string> cursor;
    const auto kind = list_kind_of_method(method);
    json::array joined;
    for (std::size_t page = 0; page < opts.max_pages; ++page) {
      json::object params;
      if (cursor) params["cursor"] = *cursor;
      auto raw = call(capability, method, std::move(params));
      if (!raw) return fail(raw.error());
      auto r = from_json<Page>(*raw);
      if (!r) return fail(Error::internal("invalid " + std::string(method) + " result from server: " + r.error().message));
      if ((enforcer || manifest_enforcer) && kind) {
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
        return fail(Error::internal(std::string(method) + ": the server repeated cursor '" + *r->next_cursor + "'"));
      }
      cursor = r->next_cursor;
    }
    return fail(Error::internal(std::string(method) + ": more than " + std::to_string(opts.max_pages) +
                                " pages (ClientOptions::max_pages)"));
  }
};

Client::Client(ClientOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {}

Client::~Client() {
  if (impl_->session) impl_->session->shutdown();
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

  json::object params{{"protocolVersion", impl_->opts.protocol_version},
                      {"capabilities", impl_->capabilities()},
                      {"clientInfo", to_json(impl_->opts.info)}};
  auto r = impl_->session->request("initialize", std::move(params));
  if (!r) return fail(r.error());
  auto init = from_json<InitializeResult>(*r);
  if (!init) return fail(Error::internal("invalid initialize result: " + init.error().message));
  static const std::set<std::string> supported = {"2025-11-25", "2025-06-18", "2025-03-26"};
  if (!supported.contains(init->protocol_version)) {
    impl_->session->close();
    return fail(Error::internal("the server chose protocol version " + peer_text(init->protocol_version) +
                                ", which this client does not speak"));
  }
  impl_->init = *init;
  if (auto c = r->get_object().if_contains("capabilities"); c && c->is_object()) impl_->server_caps = c->get_object();
  if (impl_->enforcer) {
    // Strict mode refuses a session whose signature is refused, before anything else is sent.
    if (auto ok = impl_->enforcer->on_initialize(r->get_object()); !ok) {
      impl_->session->close();
      return fail(ok.error());
    }
  }
  if (auto n = impl_->session->notify("notifications/initialized", {}); !n) return fail(n.error());
  if (impl_->manifest_enforcer) {
    // tools/manifest is a request, so it waits for notifications/initialized; strict mode refuses
    // a session whose manifest does not verify before the caller sees any tool.
    if (auto ok = impl_->manifest_enforcer->on_initialize(r->get_object(), [this] { return impl_->fetch_manifest(); });
        !ok) {
      impl_->session->close();
      return fail(ok.error());
    }
  }
  return init;
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
  return impl_->typed<ListToolsResult>("tools", "tools/list", cursor_params(cursor));
}
Result<std::vector<Tool>> Client::list_all_tools() {
  return impl_->all<Tool>("tools", "tools/list", &ListToolsResult::tools);
}
Result<CallToolResult> Client::call_tool(const std::string& name, json::object arguments, CallOptions options) {
  return impl_->typed<CallToolResult>("tools", "tools/call",
                                      json::object{{"name", name}, {"arguments", std::move(arguments)}},
                                      std::move(options));
}

Result<ListResourcesResult> Client::list_resources(std::optional<std::string> cursor) {
  return impl_->typed<ListResourcesResult>("resources", "resources/list", cursor_params(cursor));
}
Result<std::vector<Resource>> Client::list_all_resources() {
  return impl_->all<Resource>("resources", "resources/list", &ListResourcesResult::resources);
}
Result<ListResourceTemplatesResult> Client::list_resource_templates(std::optional<std::string> cursor) {
  return impl_->typed<ListResourceTemplatesResult>("resources", "resources/templates/list", cursor_params(cursor));
}
Result<std::vector<ResourceTemplate>> Client::list_all_resource_templates() {
  return impl_->all<ResourceTemplate>("resources", "resources/templates/list",
                                      &ListResourceTemplatesResult::resource_templates);
}
Result<ReadResourceResult> Client::read_resource(const std::string& uri, CallOptions options) {
  return impl_->typed<ReadResourceResult>("resources", "resources/read", json::object{{"uri", uri}}, std::move(options));
}
Result<void> Client::subscribe(const std::string& uri) {
  auto r = impl_->call("resources.subscribe", "resources/subscribe", json::object{{"uri", uri}});
  if (!r) return fail(r.error());
  return {};
}
Result<void> Client::unsubscribe(const std::string& uri) {
  auto r = impl_->call("resources.subscribe", "resources/unsubscribe", json::object{{"uri", uri}});
  if (!r) return fail(r.error());
  return {};
}

Result<ListPromptsResult> Client::list_prompts(std::optional<std::string> cursor) {
  return impl_->typed<ListPromptsResult>("prompts", "prompts/list", cursor_params(cursor));
}
Result<std::vector<Prompt>> Client::list_all_prompts() {
  return impl_->all<Prompt>("prompts", "prompts/list", &ListPromptsResult::prompts);
}
Result<GetPromptResult> Client::get_prompt(const std::string& name, std::map<std::string, std::string> arguments,
                                           CallOptions options) {
  json::object args;
  for (auto& [k, v] : arguments) args[k] = v;
  return impl_->typed<GetPromptResult>("prompts", "prompts/get", json::object{{"name", name}, {"arguments", std::move(args)}},
                                       std::move(options));
}

Result<CompleteResult> Client::complete(const CompleteRequestParams& params) {
  auto p = to_json(params);
  return impl_->typed<CompleteResult>("completions", "completion/complete", std::move(p.as_object()));
}

Result<void> Client::set_log_level(LoggingLevel level) {
  auto r = impl_->call("logging", "logging/setLevel", json::object{{"level", to_string(level)}});
  if (!r) return fail(r.error());
  return {};
}

Result<void> Client::ping() {
  auto r = impl_->call("", "ping", {});
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
  if (impl_->session) impl_->session->close();
}

bool Client::closed() const {
  // Strict mode ends the session at once, before the transport has reported its close.
  if (impl_->enforcer && impl_->enforcer->fatal()) return true;
  if (impl_->manifest_enforcer && impl_->manifest_enforcer->fatal()) return true;
  return !impl_->session || impl_->session->closed();
}

}  // namespace mcp
