// The server's capability signature: setting or deriving it, preparing it for a session, and the
// availability hooks that decide what each request sees within it.
#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/signature/reduction.hpp"
#include "server/server_impl.hpp"

namespace mcp {

Result<std::shared_ptr<const SessionSignature>> make_session_signature(ServerSignature signature,
                                                                       const SignatureServing& serving) {
  auto s = std::make_shared<SessionSignature>();
  s->json = to_json(signature);
  if (auto size = check_signature_limits(s->json, serving.limits); !size) return fail(size.error());
  if (signature.item_count() > serving.limits.max_items) {
    return fail(Error::invalid_params("the signature declares " + std::to_string(signature.item_count()) +
                                      " items, over the limit of " + std::to_string(serving.limits.max_items) +
                                      " items (SignatureLimits::max_items)"));
  }
  s->serving = serving;
  for (const auto& t : signature.tools) {
    s->keys[static_cast<std::size_t>(ListKind::tools)].insert(t.tool.name);
    auto listed = listed_annotations(t);
    s->listed_annotations.emplace(t.tool.name, listed ? to_json(*listed) : json::value(nullptr));
  }
  for (const auto& p : signature.prompts) s->keys[static_cast<std::size_t>(ListKind::prompts)].insert(p.name);
  for (const auto& r : signature.resources) s->keys[static_cast<std::size_t>(ListKind::resources)].insert(r.uri);
  for (const auto& t : signature.resource_templates)
    s->keys[static_cast<std::size_t>(ListKind::resource_templates)].insert(t.uri_template);
  s->signature = std::make_shared<const ServerSignature>(std::move(signature));
  s->checker = std::make_unique<SignatureChecker>(
      s->signature, CheckOptions{.hold_definitions = serving.hold_definitions,
                                 .relax_descriptions = serving.relax_descriptions});
  return std::shared_ptr<const SessionSignature>(std::move(s));
}

Result<std::shared_ptr<const SessionSignature>> Server::Impl::session_signature() const {
  ServerSignature derived;
  SignatureServing serving;
  {
    std::lock_guard lock(mu);
    if (explicit_signature) return explicit_signature;
    if (!derive_from) return std::shared_ptr<const SessionSignature>();
    std::vector<Tool> t;
    std::vector<Prompt> p;
    std::vector<Resource> r;
    std::vector<ResourceTemplate> rt;
    for (const auto& e : tools.items()) t.push_back(e->tool);
    for (const auto& e : prompts.items()) p.push_back(e.prompt);
    for (const auto& e : resources.items()) r.push_back(e.resource);
    for (const auto& e : templates.items()) rt.push_back(e.resource_template);
    derived = mcp::derive_signature(t, p, r, rt, *derive_from);
    serving = derive_serving;
  }
  return make_session_signature(std::move(derived), serving);
}

Result<std::shared_ptr<const SessionSignature>> Server::Impl::stateless_signature() {
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mu);
    if (explicit_signature) return explicit_signature;
    if (!derive_from) return std::shared_ptr<const SessionSignature>();
    if (stateless_signature_cache) return stateless_signature_cache;
    generation = stateless_signature_generation;
  }
  auto made = session_signature();
  if (!made) return made;
  std::lock_guard lock(mu);
  if (generation == stateless_signature_generation) stateless_signature_cache = *made;
  return made;
}

Result<void> Server::set_signature(ServerSignature signature, SignatureServing serving) {
  auto s = make_session_signature(std::move(signature), serving);
  if (!s) return fail(s.error());
  std::lock_guard lock(impl_->mu);
  impl_->explicit_signature = std::move(*s);
  impl_->derive_from.reset();
  impl_->forget_stateless_signature();
  return {};
}

Result<void> Server::derive_signature(SignatureDeclarations declarations, SignatureServing serving) {
  {
    std::lock_guard lock(impl_->mu);
    impl_->explicit_signature.reset();
    impl_->derive_from = std::move(declarations);
    impl_->derive_serving = serving;
    impl_->forget_stateless_signature();
  }
  // Derive once now so that a signature over the limits is reported to the one who configured it.
  auto now = impl_->session_signature();
  if (!now) {
    std::lock_guard lock(impl_->mu);
    impl_->derive_from.reset();
    return fail(now.error());
  }
  return {};
}

std::shared_ptr<const ServerSignature> Server::signature() const {
  auto s = impl_->session_signature();
  if (!s || !*s) return nullptr;
  return (*s)->signature;
}

void Server::set_availability(AvailabilityHooks hooks) {
  std::lock_guard lock(impl_->mu);
  impl_->hooks = std::make_shared<const AvailabilityHooks>(std::move(hooks));
  impl_->rebuild_stages();
}

void Server::availability_changed(ListKind kind) {
  switch (kind) {
    case ListKind::tools: impl_->broadcast(method::kToolsListChanged, {}); break;
    case ListKind::prompts: impl_->broadcast(method::kPromptsListChanged, {}); break;
    case ListKind::resources:
    case ListKind::resource_templates: impl_->broadcast(method::kResourcesListChanged, {}); break;
  }
}

}  // namespace mcp
