// Private: the Server's registry, shared by Server (writes) and its sessions (reads and dispatch).
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "mcp/protocol/header_params.hpp"
#include "mcp/server/server.hpp"
#include "server/chain.hpp"
#include "server/registry.hpp"
#include "server/request_state.hpp"
#include "server/requirement_table.hpp"
#include "session/async_holds.hpp"

namespace mcp {

class ServerSessionImpl;
class ManifestSigner;

// One holder's interest in a watched URI (a session's resources/subscribe, a listen's
// resourceSubscriptions): while any lease on a URI lives, the URI's ResourceTree::watch is on.
// Empty when the URI's item has no watch hook. Move-only; release it outside any session lock.
class WatchLease {
 public:
  WatchLease() = default;
  WatchLease(std::weak_ptr<Server::Impl> server, std::string uri) : server_(std::move(server)), uri_(std::move(uri)) {}
  WatchLease(WatchLease&& o) noexcept : server_(std::move(o.server_)), uri_(std::move(o.uri_)) { o.server_.reset(); }
  WatchLease& operator=(WatchLease&& o) noexcept {
    if (this != &o) {
      release();
      server_ = std::move(o.server_);
      uri_ = std::move(o.uri_);
      o.server_.reset();
    }
    return *this;
  }
  WatchLease(const WatchLease&) = delete;
  WatchLease& operator=(const WatchLease&) = delete;
  ~WatchLease() { release(); }

 private:
  void release();
  std::weak_ptr<Server::Impl> server_;
  std::string uri_;
};

// A signature as one session holds it, fixed at its initialize (server_signature.cpp).
struct SessionSignature {
  std::shared_ptr<const ServerSignature> signature;
  json::value json;  // to_json(*signature): InitializeResult.signature
  SignatureServing serving;
  std::unique_ptr<SignatureChecker> checker;  // only check_item is used: stateless
  std::array<std::unordered_set<std::string>, 4> keys;          // declared keys, by ListKind
  std::unordered_map<std::string, json::value> listed_annotations;  // tool -> worst case; null: none

  // A resource expanding a declared template is declared by it (SEP-2091), even when it is also
  // registered on its own (a resource read by its URI).
  bool declares(ListKind kind, const std::string& key) const {
    if (keys[static_cast<std::size_t>(kind)].contains(key)) return true;
    return kind == ListKind::resources && checker && checker->expands_declared_template(key);
  }
};
// Checks the limits and prepares the signature for serving.
Result<std::shared_ptr<const SessionSignature>> make_session_signature(ServerSignature signature,
                                                                       const SignatureServing& serving);

// An item's handler as registered: blocking or asynchronous. At most one is set (none: the item
// answers as unknown). One type for every kind of item, so one function runs them all
// (run_handler, server_methods.cpp).
template <class Blocking, class Async>
struct ItemHandler {
  Blocking blocking{};
  Async async{};
  bool is_async() const { return async != nullptr; }
  explicit operator bool() const { return blocking || async; }
};
// A tool's: the two above, or one that answers with a result's JSON as it is (json_async).
struct ToolHandlers : ItemHandler<ToolHandler, AsyncToolHandler> {
  AsyncJsonToolHandler json_async{};
  bool is_async() const { return async != nullptr || json_async != nullptr; }
  explicit operator bool() const { return blocking || async || json_async; }
};
using ResourceHandlers = ItemHandler<ResourceReader, AsyncResourceReader>;
using TemplateHandlers = ItemHandler<TemplateReader, AsyncTemplateReader>;
using PromptHandlers = ItemHandler<PromptHandler, AsyncPromptHandler>;
using CompleterHandlers = ItemHandler<Completer, AsyncCompleter>;

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
  explicit Impl(ServerOptions o)
      : opts(std::move(o)),
        request_states(opts.request_state_key.value_or(RequestStateCodec::random_key()), opts.request_state_lifetime) {}

  struct ToolEntry {
    Tool tool;
    ToolHandlers handler;
    ToolOptions options;
    // Its x-mcp-header parameters, read once at registration (add_tool); empty if they are invalid.
    std::shared_ptr<const std::vector<HeaderParam>> header_params{};
  };
  // `tree`: the SEP-2093 hooks it was registered with; null if none.
  struct ResourceEntry { Resource resource; ResourceHandlers reader; std::shared_ptr<const ResourceTree> tree; };
  struct TemplateEntry {
    ResourceTemplate resource_template;
    UriTemplate matcher;
    TemplateHandlers reader;
    std::shared_ptr<const ResourceTree> tree;
  };
  struct PromptEntry { Prompt prompt; PromptHandlers handler; };

  // What a resources/read of one URI reaches: the static resource with that URI, else the first
  // registered template that matches it (static resources win). Both null: nothing.
  struct ResourceMatch {
    const ResourceEntry* resource = nullptr;
    const TemplateEntry* template_entry = nullptr;
    UriTemplate::Variables variables{};
  };
  // The one lookup of resources/read, for both its find step and the choice of thread (which must
  // agree). Requires mu; the pointers are valid while it is held.
  ResourceMatch match_resource(std::string_view uri) const;

  ServerOptions opts;
  const RequestStateCodec request_states;  // signs multi round-trip states (input_required.cpp)
  mutable std::mutex mu;
  // In registration order, which is the order lists are served in, each found by its name, URI
  // or URI template (registry.hpp). Tools are shared, never changed once registered: a tools/call
  // takes its entry with one reference count, not a copy of the tool's schemas.
  detail::Registry<std::shared_ptr<const ToolEntry>> tools;
  detail::Registry<ResourceEntry> resources;
  detail::Registry<TemplateEntry> templates;
  detail::Registry<PromptEntry> prompts;
  CompleterHandlers completer;
  // How many resources and templates read asynchronously. If none does, a resources/read goes to a
  // worker without matching its URI on the reader thread (the common case costs nothing there).
  // Counted as they come and go, not found by looking at them all on each change.
  std::size_t async_readers = 0;
  // The server owns its sessions: a caller that forgets the handle connect() returned does not
  // close the connection. Closed ones are pruned (amortised) when sessions are added; ~Server
  // closes the rest, which also breaks the session -> Impl -> session cycle.
  std::vector<std::shared_ptr<ServerSessionImpl>> sessions;
  std::size_t prune_at = 64;
  // Capability signature: explicit (set_signature) or derived at each initialize (derive_signature).
  std::shared_ptr<const SessionSignature> explicit_signature;
  std::optional<SignatureDeclarations> derive_from;
  SignatureServing derive_serving;
  std::shared_ptr<const AvailabilityHooks> hooks = std::make_shared<AvailabilityHooks>();
  // Replaced whole on each change (require_capabilities), like the hooks.
  std::shared_ptr<const RequirementTable> requirements;
  // Some item has a capability requirement: lists then vary with each request's capabilities,
  // so they are not cacheable across requests (the stateless stage reads it).
  std::atomic<bool> lists_vary_by_capabilities{false};
  // The chain's server part: the stages added with use(), then availability. Replaced whole on
  // each change, so a request holds one list for its whole life.
  std::vector<std::shared_ptr<Stage>> user_stages;
  std::shared_ptr<const StageList> inner_stages;
  // The stages added with StagePlace::outermost, outside every session's own; null: none.
  std::shared_ptr<const StageList> outermost_stages;
  void rebuild_stages();  // requires mu
  // Registration (server.cpp), one per kind for both forms of handler: replace or append, then
  // send the list's list_changed. The completer is one, replaced whole.
  void add_tool(ToolEntry entry);
  void add_resource(ResourceEntry entry);
  Result<void> add_template(ResourceTemplate resource_template, TemplateHandlers reader, ResourceTree tree);
  // Subscriptions to URIs whose item has a watch hook, counted over every session: the hook hears of
  // the first and the last (resource_tree.cpp), one call of a URI at a time, and sessions
  // subscribing while it runs wait for it as callbacks (detail::AsyncHolds), not on threads. At
  // most opts.max_watches_waiting such subscribes wait at once per server; past that one is refused.
  std::shared_ptr<detail::AsyncHolds> watches = detail::AsyncHolds::make(
      opts.max_watches_waiting, std::to_string(opts.max_watches_waiting) +
                                    " subscriptions already wait for their resources' watch hooks: subscribe again later");
  // A blocking ResourceTree::watch runs on the shared pool: at most this many at once across every
  // server of the process (the pool is the process's); a start past it is refused at once, saying
  // why, so that hooks slow for many URIs cannot take the pool's threads. Stops always run.
  static constexpr int kMaxBlockingWatches = 32;
  // A lease on `uri`'s watch, to `done` (from any thread) once the URI is watched: at once when it
  // is, else once its hook has said so; the hook's error if it refuses. An empty lease when the
  // URI's item has no watch hook.
  void watch_uri(const std::string& uri, std::function<void(Result<WatchLease>)> done);
  void unwatch_uri(const std::string& uri);
  void add_prompt(PromptEntry entry);
  void set_completer(CompleterHandlers completer);
  // Takes the sessions out for closing (~Server) or the closed ones for pruning; the caller
  // destroys them outside the lock.
  std::vector<std::shared_ptr<ServerSessionImpl>> take_sessions(bool only_closed);
  // Creates a session on `transport` and records it for broadcasts.
  Result<std::shared_ptr<ServerSessionImpl>> open_session(std::shared_ptr<Transport> transport);
  std::shared_ptr<ManifestSigner> manifest_signer;  // null: no tools/manifest (server_manifest.cpp)
  std::shared_ptr<const std::vector<ProfileSpec>> profiles = std::make_shared<std::vector<ProfileSpec>>();  // guarded by mu
  std::shared_ptr<const std::vector<ProfileSpec>> profiles_now() const {
    std::lock_guard lock(mu);
    return profiles;
  }
  // negotiate_profile over the current profiles (server_profiles.cpp).
  Result<std::optional<std::string>> negotiate_profile(const std::vector<std::string>& requested,
                                                       std::string_view revision) const;

  // The signature for a session initializing now; null when the server has none.
  Result<std::shared_ptr<const SessionSignature>> session_signature() const;
  // The signature a stateless (2026-07-28) request is served under: the same, made once and kept
  // until the registry or the signature changes (deriving one per request would cost a walk of
  // the whole registry). Null when the server has none.
  Result<std::shared_ptr<const SessionSignature>> stateless_signature();
  std::shared_ptr<const SessionSignature> stateless_signature_cache;  // guarded by mu
  std::uint64_t stateless_signature_generation = 0;  // bumped by each reset: a derivation racing one is not kept
  void forget_stateless_signature() {  // requires mu
    stateless_signature_cache.reset();
    ++stateless_signature_generation;
  }

  json::object capabilities() const;
  // Sends a notification to every initialised session (list_changed, resources/updated, ...).
  void broadcast(std::string_view method, const json::object& params, const std::string& only_subscribers_of = {});
  // Server::ChangeBatch: how many live, and the list_changed methods held meanwhile (under mu).
  std::size_t change_batches = 0;
  std::vector<std::string> held_list_changes;
};

}  // namespace mcp
