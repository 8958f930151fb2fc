#include "gateway/aggregate.hpp"

#include "gateway/call_audit.hpp"
#include "gateway/forwarding.hpp"
#include "gateway/key.hpp"
#include "log/log_budget.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::gateway {

namespace {

constexpr std::size_t kHashDigits = 10;

// Admits each request and list item through the proxy of the upstream it comes from.
class AggregateStage final : public Stage {
 public:
  explicit AggregateStage(std::weak_ptr<Aggregate> aggregate) : aggregate_(std::move(aggregate)) {}
  std::string_view name() const override { return "aggregate"; }
  std::optional<Result<json::value>> on_request(Call& call) override {
    if (!call.target) return std::nullopt;
    if (auto why = refusal(call.target->kind, call.target->key, call.target->uri, call.target->tool))
      return Result<json::value>(fail(std::move(*why)));
    return std::nullopt;
  }
  bool on_list_item(const Call&, ListedItem& item) override { return !refusal(item.kind, item.key, {}, item.tool); }

 private:
  std::optional<Error> refusal(ListKind kind, const std::string& key, const std::string& uri, const Tool* tool) const {
    auto aggregate = aggregate_.lock();
    if (!aggregate) return Error::internal("the gateway is stopping");
    auto origin = aggregate->origin(kind, key);
    if (!origin) return Error::internal("no upstream serves " + std::string(item_noun(kind)) + " '" + peer_text(key) + "'");
    auto proxy = origin->proxy.lock();
    if (!proxy) return Error::internal("the gateway is stopping");
    return proxy->admission(Target{kind, origin->key, uri, tool});
  }
  std::weak_ptr<Aggregate> aggregate_;
};

}  // namespace

std::string aggregate_name(const std::string& upstream, const std::string& item) {
  std::string full = upstream + "__" + item;
  if (full.size() <= kMaxAggregateName) return full;
  const std::string tag = "_" + trust::sha256_tag(full).substr(std::string_view("sha256:").size(), kHashDigits);
  // Cut at a character's start: half a UTF-8 sequence would make every list unreadable.
  std::size_t cut = kMaxAggregateName - tag.size();
  while (cut > 0 && (static_cast<unsigned char>(full[cut]) & 0xC0) == 0x80) --cut;
  return full.substr(0, cut) + tag;
}

std::shared_ptr<Aggregate> Aggregate::make(std::shared_ptr<const trust::Ed25519SecretKey> key, std::shared_ptr<AuditLog> audit,
                                           std::shared_ptr<Metrics> metrics) {
  std::shared_ptr<Aggregate> a(new Aggregate());
  ServerOptions so;
  so.info.name = "mcp-trust-gateway";
  a->server_ = std::make_shared<Server>(std::move(so));
  std::weak_ptr<Aggregate> weak = a;
  if (audit) {
    // A refusal here is recorded under the upstream whose item it named, by that item's key there
    // (as its forwarded calls are); a name no upstream serves, under "/mcp".
    auto where = [weak](ListKind kind, const std::string& served) -> std::optional<Refused> {
      auto self = weak.lock();
      auto origin = self ? self->origin(kind, served) : std::nullopt;
      auto proxy = origin ? origin->proxy.lock() : nullptr;
      if (!proxy) return std::nullopt;
      return Refused{proxy->name(), origin->key};
    };
    a->server_->use(refusal_stage(std::move(where), std::string(kUnmatchedServer), std::move(audit), std::move(metrics)), StagePlace::outermost);
  }
  a->server_->use(std::make_shared<AggregateStage>(a));
  // Completion for NAME__prompt or a template's URI: the upstream that serves it, under its own
  // name there (an upstream without completions says so).
  a->server_->set_async_completer([weak](const CompleteRequestParams& params, std::shared_ptr<RequestContext> ctx,
                                         Reply<CompleteResult> reply) {
    auto self = weak.lock();
    if (!self) return void(reply(fail(Error::internal("the gateway is stopping"))));
    CompleteRequestParams forwarded = params;
    std::optional<Origin> origin;
    if (auto* prompt = std::get_if<PromptReference>(&forwarded.ref)) {
      origin = self->origin(ListKind::prompts, prompt->name);
      if (origin) prompt->name = origin->key;
    } else if (auto* resource = std::get_if<ResourceTemplateReference>(&forwarded.ref)) {
      origin = self->origin(ListKind::resource_templates, resource->uri);
    }
    auto proxy = origin ? origin->proxy.lock() : nullptr;
    if (!proxy) return void(reply(fail(Error::invalid_params("completion/complete: no upstream serves what the ref names"))));
    proxy->complete(std::move(forwarded), *ctx, std::move(reply));
  });
  if (key) {
    if (auto ok = a->server_->set_manifest_signing(ManifestSigning{copy_key(*key), "mcp-trust-gateway"}); !ok)
      MCP_LOG_ERROR("gateway /mcp: cannot sign tools/manifest: {}", ok.error().message);
  }
  return a;
}

void Aggregate::add(const std::shared_ptr<Proxy>& proxy) {
  {
    std::lock_guard lock(mu_);
    members_.push_back(proxy);
  }
  proxy->observe(weak_from_this());
}

void Aggregate::remove(Proxy& proxy) {
  proxy.observe({});  // no more news from it
  auto batch = server_->batch_changes();  // its items go together: clients are told once
  // Under the lock, so that a key it held and another upstream claims meanwhile is not unserved
  // from under the new holder. (The Server never calls back into the aggregate while it holds its
  // own locks: stages run outside them.)
  std::lock_guard lock(mu_);
  for (auto& [kind, of_kind] : origins_) {
    std::erase_if(of_kind, [&, kind = kind](const auto& entry) {
      auto holder = entry.second.proxy.lock();
      if (holder && holder.get() != &proxy) return false;
      unserve(*server_, proxy, kind, entry.first, entry.second.key);
      return true;
    });
  }
  std::erase_if(members_, [&](const std::weak_ptr<Proxy>& m) {
    auto p = m.lock();
    return !p || p.get() == &proxy;
  });
  vouch_locked();
}

std::string Aggregate::served_key(const Proxy& proxy, ListKind kind, const std::string& key) const {
  const bool named = kind == ListKind::tools || kind == ListKind::prompts;
  return named ? aggregate_name(proxy.name(), key) : key;
}

std::optional<Aggregate::Origin> Aggregate::origin(ListKind kind, const std::string& key) const {
  std::lock_guard lock(mu_);
  const auto& of_kind = origins_.find(kind);
  if (of_kind == origins_.end()) return std::nullopt;
  auto it = of_kind->second.find(key);
  if (it == of_kind->second.end()) return std::nullopt;
  return it->second;
}

namespace {

// `definition` (as the upstream lists it) served on `server` under `as_served`, forwarded to `key`.
Result<void> serve_as(Server& server, const std::shared_ptr<Proxy>& proxy, ListKind kind, const std::string& as_served,
                      const std::string& key, const json::object& definition) {
  switch (kind) {
    case ListKind::tools: {
      auto tool = from_json<Tool>(definition);
      if (!tool) return fail(tool.error());
      tool->name = as_served;
      return serve_forwarded(server, proxy, *tool, key);
    }
    case ListKind::prompts: {
      auto prompt = from_json<Prompt>(definition);
      if (!prompt) return fail(prompt.error());
      prompt->name = as_served;
      return serve_forwarded(server, proxy, *prompt, key);
    }
    case ListKind::resources: {
      auto resource = from_json<Resource>(definition);
      if (!resource) return fail(resource.error());
      return serve_forwarded(server, proxy, *resource);
    }
    case ListKind::resource_templates: {
      auto resource_template = from_json<ResourceTemplate>(definition);
      if (!resource_template) return fail(resource_template.error());
      return serve_forwarded(server, proxy, *resource_template);
    }
  }
  return {};
}

}  // namespace

void Aggregate::served(Proxy& proxy, ListKind kind, const std::string& key, const json::object& definition) {
  const std::string as_served = served_key(proxy, kind, key);
  std::lock_guard lock(mu_);
  auto& slot = origins_[kind][as_served];
  if (auto holder = slot.proxy.lock(); holder && holder.get() != &proxy) {
    MCP_LOG_WARN_WITHIN(warnings_, "gateway /mcp: {} '{}' of {} is also {}'s; serving {}'s", item_noun(kind),
                        peer_text(as_served), proxy.name(), holder->name(), holder->name());
    return;
  }
  auto self = proxy.shared_from_this();
  if (auto ok = serve_as(*server_, self, kind, as_served, key, definition); !ok) {
    MCP_LOG_WARN_WITHIN(warnings_, "gateway /mcp: not serving {} '{}' of {}: {}", item_noun(kind), peer_text(as_served),
                        proxy.name(), ok.error().message);
    origins_[kind].erase(as_served);
    return;
  }
  slot = Origin{self, key};
}

void Aggregate::unserved(Proxy& proxy, ListKind kind, const std::string& key) {
  const std::string as_served = served_key(proxy, kind, key);
  std::lock_guard lock(mu_);
  auto& of_kind = origins_[kind];
  auto it = of_kind.find(as_served);
  if (it == of_kind.end() || it->second.proxy.lock().get() != &proxy) return;  // another upstream's
  of_kind.erase(it);
  unserve(*server_, proxy, kind, as_served, key);
}

void Aggregate::changed(Proxy&, ListKind kind) { server_->availability_changed(kind); }

void Aggregate::resource_updated(Proxy& proxy, const std::string& uri) {
  // A URI two upstreams list is served here by the first: the other's updates are not its.
  if (auto o = origin(ListKind::resources, uri)) {
    auto owner = o->proxy.lock();
    if (owner && owner.get() != &proxy) return;
  }
  server_->notify_resource_updated(uri);
}

void Aggregate::vouched(Proxy&) {
  std::lock_guard lock(mu_);
  vouch_locked();
}

void Aggregate::vouch_locked() {
  ServerSignature all;
  for (const auto& member : members_) {
    auto proxy = member.lock();
    auto signature = proxy ? proxy->server()->signature() : nullptr;
    if (!signature) continue;
    // What this upstream declares, unless another upstream holds that name or URI here (the first
    // to list it does): /mcp's signature speaks for what /mcp serves.
    const auto held_by_another = [&](ListKind kind, const std::string& served) {
      const auto& of_kind = origins_[kind];
      auto it = of_kind.find(served);
      if (it == of_kind.end()) return false;
      auto holder = it->second.proxy.lock();
      return holder && holder != proxy;
    };
    for (auto tool : signature->tools) {
      tool.tool.name = served_key(*proxy, ListKind::tools, tool.tool.name);
      if (!held_by_another(ListKind::tools, tool.tool.name)) all.tools.push_back(std::move(tool));
    }
    for (auto prompt : signature->prompts) {
      prompt.name = served_key(*proxy, ListKind::prompts, prompt.name);
      if (!held_by_another(ListKind::prompts, prompt.name)) all.prompts.push_back(std::move(prompt));
    }
    for (const auto& resource : signature->resources)
      if (!held_by_another(ListKind::resources, resource.uri)) all.resources.push_back(resource);
    for (const auto& t : signature->resource_templates)
      if (!held_by_another(ListKind::resource_templates, t.uri_template)) all.resource_templates.push_back(t);
  }
  // Not held to it (as an upstream's derived one is not): the upstreams' own stages hold theirs.
  SignatureServing serving;
  serving.in_server_card = true;
  serving.self_check = false;
  serve_vouched(*server_, std::move(all), serving, signature_json_, "/mcp");
}

}  // namespace mcp::gateway
