// mcp/server/server.hpp — the server API: register tools, resources, templates and prompts; serve.
//
// A Server is the registry and the policy; each connection gets its own ServerSession (created by
// `connect`), so one Server serves any number of clients (stdio serves one, HTTP many). Changing the
// registry while serving is allowed: every initialised session is sent the matching
// notifications/*/list_changed.
//
// Capability signatures (SEP-2091): give the server one with set_signature (explicit) or
// derive_signature (from what is registered at each initialize, plus declared variants and items).
// It is advertised as capabilities.signature {inInitialize, inServerCard} and returned in
// InitializeResult.signature; each session keeps the one it was given for its whole life. tools/list
// then shows each tool with the worst-case reduction of its declared annotations (or the variant an
// availability hook picks), and the server polices itself: an item outside the signature, or with
// an annotation object it did not declare, is dropped from the list with an error log naming it,
// and calls to it are refused as unknown. Availability within the signature is dynamic: hooks
// decide per request (by identity, by session, by anything in the RequestContext) what is listed
// and callable, and availability_changed() tells clients to list again.
//
// Signed tool manifests: give the server a key with set_manifest_signing; it advertises
// capabilities["io.modelcontextprotocol/signed-manifests"] and answers tools/manifest.
//
// Every request after initialize passes through a chain of stages (mcp/server/stage.hpp) on its
// way to the method's handler, and its answer back through them. Blocking handlers run on the
// session's worker threads, concurrently; they may block (for instance on ctx.create_message()).
// Asynchronous handlers (add_async_tool, add_async_json_tool, add_async_resource,
// add_async_resource_template, add_async_prompt, set_async_completer) answer later through a Reply
// and hold no thread meanwhile.
// Errors as values: return a Result error for a protocol error (it reaches the client as a
// JSON-RPC error); report a tool's own failure as CallToolResult{is_error = true}. A handler that
// throws is answered for it: a tool with an isError result, anything else with -32603.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/protocol/completion.hpp"
#include "mcp/protocol/header_params.hpp"
#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/profiles.hpp"
#include "mcp/protocol/prompt.hpp"
#include "mcp/protocol/resource.hpp"
#include "mcp/protocol/stateless.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/protocol/tool_call.hpp"
#include "mcp/server/context.hpp"
#include "mcp/server/manifest_signing.hpp"
#include "mcp/server/reply.hpp"
#include "mcp/server/requirements.hpp"
#include "mcp/server/stage.hpp"
#include "mcp/protocol/uri_template.hpp"
#include "mcp/session/session.hpp"
#include "mcp/signature/checker.hpp"
#include "mcp/signature/derive.hpp"
#include "mcp/signature/signature.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp {

class ServerSession;

struct ServerOptions {
  Implementation info{.name = "mcp-trust-server", .version = "0.1.0"};
  std::optional<std::string> instructions{};
  // Items per page of every list result; a nextCursor is sent when more remain. 0 = no paging.
  std::size_t page_size = 100;
  // Declare resources.subscribe (clients may subscribe to resource updates).
  bool resource_subscriptions = true;
  // Declare the logging capability (clients may send logging/setLevel).
  bool logging = true;
  // Bounds on what one client can make a session keep: resource URIs it names (resources/read,
  // subscribe; longer ones are refused with -32602) and subscriptions it holds (past it,
  // resources/subscribe is refused with -32602). A session's subscriptions thus cost at most
  // max_subscriptions * max_uri_bytes.
  std::size_t max_uri_bytes = 8 * 1024;
  std::size_t max_subscriptions = 256;
  // Open subscriptions/listen requests one connection may hold (each holds its filter, with at most
  // max_subscriptions URIs of at most max_uri_bytes); past it, a listen is refused with -32602.
  std::size_t max_listens = 16;
  // Subscribes waiting at once, over every session, for their resources' watch hooks
  // (ResourceTree::watch / watch_async) to start watching: each waits as a callback, on no thread,
  // holding its request; past it a subscribe is refused at once (-32603), saying why.
  std::size_t max_watches_waiting = 4096;
  // Caching hints on the cacheable results of stateless (2026-07-28) requests: server/discover,
  // the four lists and resources/read. Defaults: not to be reused (0 ms), and private to the
  // authorization context that asked, the safe reading of a result that may vary by caller.
  std::chrono::milliseconds cache_ttl{0};
  CacheScope cache_scope = CacheScope::private_;
  // Multi round-trip (RequestContext::input_required). The key that signs the requestState of a
  // stateless request: default a random one per Server, so a state outlives neither the process
  // nor this server; give every replica behind one endpoint the same key (32 secret bytes) for a
  // retry to land on any of them. States expire after request_state_lifetime. A 2025-11-25 session
  // runs a handler at most max_input_rounds times for one request before failing it (-32603).
  std::optional<std::array<std::uint8_t, 32>> request_state_key{};
  std::chrono::seconds request_state_lifetime{600};
  int max_input_rounds = 8;
  Session::Options session{};
};

// How a server serves and polices its capability signature. Defaults in each comment.
struct SignatureServing {
  bool in_initialize = true;    // capabilities.signature.inInitialize and InitializeResult.signature
  bool in_server_card = false;  // capabilities.signature.inServerCard: set it where the card is served
  // Check every list item against the signature before sending it, drop (and log) what breaks a
  // rule, and refuse calls to undeclared tools and prompts. Default true. Turning it off is only
  // for demonstrating a client's enforcement (examples/file-manager --misbehave).
  bool self_check = true;
  // The self-check holds definitions (description, schemas, title) as a strict client would, unless
  // descriptions are relaxed for a server that generates them. Defaults true and false.
  bool hold_definitions = true;
  bool relax_descriptions = false;
  SignatureLimits limits{};  // an explicit or derived signature over these is refused
};

// Whether one tool is available to one request, and with which declared annotations.
struct ToolAvailability {
  bool available = true;
  // Listed instead of the worst case: one of the tool's declared annotation objects.
  std::optional<ToolAnnotations> annotations{};
};

// Per-request availability within the signature. Each hook runs on the thread serving the request,
// outside the registry lock, once per item per list and once per call: it must be thread-safe and
// quick (no I/O). Unset: everything registered is available.
struct AvailabilityHooks {
  std::function<ToolAvailability(const Tool& tool, const RequestContext& ctx)> tool;
  // Prompts (by name), resources (by URI) and resource templates (by uriTemplate).
  std::function<bool(ListKind kind, const std::string& key, const RequestContext& ctx)> item;
};

using ToolHandler = std::function<Result<CallToolResult>(const json::object& arguments, RequestContext& ctx)>;
// A tool that answers later (mcp/server/reply.hpp): it starts its work and returns at once, on the
// thread that read the request, so it must not block; it holds no thread while the work runs.
// `ctx` stays valid while the handler keeps it; nested requests go through its *_async forms.
using AsyncToolHandler = std::function<void(const json::object& arguments, std::shared_ptr<RequestContext> ctx,
                                            Reply<CallToolResult> reply)>;
// An asynchronous tool whose answer is a CallToolResult's JSON already, sent as it is: for a proxy
// passing on what its upstream answered (Client::call_tool_json_async), where decoding it and
// writing it again would be the only work done on it. The handler answers for its shape (the
// server adds only what every answer of its revision carries); everything else is as for
// AsyncToolHandler, a throwing handler included (an isError result).
using AsyncJsonToolHandler = std::function<void(const json::object& arguments, std::shared_ptr<RequestContext> ctx,
                                                Reply<json::object> reply)>;
using ResourceReader = std::function<Result<ReadResourceResult>(const std::string& uri, RequestContext& ctx)>;
using TemplateReader = std::function<Result<ReadResourceResult>(
    const std::string& uri, const UriTemplate::Variables& variables, RequestContext& ctx)>;
using PromptHandler =
    std::function<Result<GetPromptResult>(const std::map<std::string, std::string>& arguments, RequestContext& ctx)>;
// completion/complete for one prompt argument or template variable: the values to suggest.
using Completer = std::function<Result<CompleteResult>(const CompleteRequestParams& request, RequestContext& ctx)>;

// The asynchronous forms of the four above, under the contract of AsyncToolHandler: each starts
// its work and returns at once, on the thread that read the request, so it must not block; it
// holds no thread while the work runs and answers once through `reply`, from any thread. `ctx`
// stays valid while the handler keeps it; nested requests go through its *_async forms. The
// arguments before `ctx` are valid only during the call: copy what the work needs. What the
// blocking forms get still holds: a prompt's required arguments are checked before the handler
// runs, and a completion is capped at 100 values (with hasMore) before it is sent.
using AsyncResourceReader =
    std::function<void(const std::string& uri, std::shared_ptr<RequestContext> ctx, Reply<ReadResourceResult> reply)>;
using AsyncTemplateReader =
    std::function<void(const std::string& uri, const UriTemplate::Variables& variables,
                       std::shared_ptr<RequestContext> ctx, Reply<ReadResourceResult> reply)>;
using AsyncPromptHandler = std::function<void(const std::map<std::string, std::string>& arguments,
                                              std::shared_ptr<RequestContext> ctx, Reply<GetPromptResult> reply)>;
using AsyncCompleter = std::function<void(const CompleteRequestParams& request, std::shared_ptr<RequestContext> ctx,
                                          Reply<CompleteResult> reply)>;

// SEP-2093 (docs/wire/resource-metadata.md): what a resource or template adds when its URIs form a
// hierarchy the registry cannot hold (a directory tree, a database). Every hook is optional and,
// but for watch_async, blocking: it runs on a worker, with the URI asked about (already matched to
// this item and passed through the chain's stages, like a read).
//   metadata  resources/metadata of one URI (unset: the registered definition, a template's under
//             the URI); also what a read's contents are completed from.
//   children  resources/list {uri}: one page of the direct children, `cursor` as the client sent it.
//             Unset: the item is not listable and such a list is refused with -32602. The server
//             passes each child through the chain (signature, availability) before sending it.
//   watch     called with true when the first session subscribes to a URI of this item and with
//             false when the last one goes (unsubscribes or disconnects), so the application can
//             watch the source (inotify, a database trigger) and call notify_resource_updated. An
//             error refuses that subscription with it. The calls for one URI never overlap and
//             alternate true, false, true...; sessions subscribing meanwhile wait for the call under
//             way (and share a refusal). A blocking hook holds a pool thread while it runs, and at
//             most 32 run at once in the process: past that a subscribe is refused at once.
//   watch_async  the same, for a hook that waits on something else (a gateway asking its upstream):
//             it must not block, and calls `done` once, from any thread, when the source is watched
//             (or not), or with why it cannot be. Nothing waits on a thread meanwhile. Used instead
//             of `watch` when both are set.
using ResourceMetadataReader = std::function<Result<Resource>(const std::string& uri, RequestContext& ctx)>;
using ResourceChildrenLister = std::function<Result<ListResourcesResult>(
    const std::string& uri, const std::optional<std::string>& cursor, RequestContext& ctx)>;
using ResourceWatch = std::function<Result<void>(const std::string& uri, bool watch)>;
using AsyncResourceWatch =
    std::function<void(const std::string& uri, bool watch, std::function<void(Result<void>)> done)>;
struct ResourceTree {
  ResourceMetadataReader metadata{};
  ResourceChildrenLister children{};
  ResourceWatch watch{};
  AsyncResourceWatch watch_async{};
  bool watches() const { return watch || watch_async; }
  bool empty() const { return !metadata && !children && !watches(); }
};

struct ToolOptions {
  // The handler never blocks: no I/O, no long computation, no ctx.create_message / elicit /
  // list_roots (those fail at once with -32603 for such a tool). It then runs on the transport's
  // reader thread instead of a worker, which roughly halves the latency of a short call.
  bool non_blocking = false;
};

class Server : public std::enable_shared_from_this<Server> {
 public:
  explicit Server(ServerOptions options = {});
  // Closes the sessions it serves. Not copyable: a copy would share the registry and sessions, and
  // the copy's end would close them under the original.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Registration. Adding a name that exists replaces it. Input: the definition as it will be listed.
  void add_tool(Tool tool, ToolHandler handler, ToolOptions options = {});
  void add_async_tool(Tool tool, AsyncToolHandler handler);
  void add_async_json_tool(Tool tool, AsyncJsonToolHandler handler);
  // The x-mcp-header parameters of tool `name` (mcp/protocol/header_params.hpp), for the HTTP
  // transport to check a call's Mcp-Param-* headers against its arguments; null if there is no
  // such tool. A tool whose annotations are invalid is registered with none (and an error logged).
  std::shared_ptr<const std::vector<HeaderParam>> tool_header_params(std::string_view name) const;
  bool remove_tool(const std::string& name);
  // `tree`: its SEP-2093 hooks (above); the template form serves every URI it matches with them.
  void add_resource(Resource resource, ResourceReader reader, ResourceTree tree = {});
  void add_async_resource(Resource resource, AsyncResourceReader reader, ResourceTree tree = {});
  bool remove_resource(const std::string& uri);
  // Fails with -32602 if the template does not parse as RFC 6570.
  [[nodiscard]] Result<void> add_resource_template(ResourceTemplate resource_template, TemplateReader reader,
                                                   ResourceTree tree = {});
  [[nodiscard]] Result<void> add_async_resource_template(ResourceTemplate resource_template,
                                                         AsyncTemplateReader reader, ResourceTree tree = {});
  bool remove_resource_template(const std::string& uri_template);
  void add_prompt(Prompt prompt, PromptHandler handler);
  void add_async_prompt(Prompt prompt, AsyncPromptHandler handler);
  bool remove_prompt(const std::string& name);
  // Completion for a prompt's arguments (ref/prompt) or a template's variables (ref/resource).
  // The server has one completer: setting either form replaces the other.
  void set_completer(Completer completer);
  void set_async_completer(AsyncCompleter completer);

  // Sends notifications/resources/updated to every session subscribed to `uri`.
  void notify_resource_updated(const std::string& uri);

  // An explicit capability signature, given to every session initialized from now on. Fails with
  // -32602 naming the limit if it is over serving.limits.
  [[nodiscard]] Result<void> set_signature(ServerSignature signature, SignatureServing serving = {});
  // A signature derived at each initialize from what is registered then, plus `declarations`
  // (mcp/signature/derive.hpp). Register before clients connect everything a session may ever
  // list: a tool added later is outside the signatures already given. Fails if the signature
  // derived now is over serving.limits (an initialize that would derive one over them fails too).
  [[nodiscard]] Result<void> derive_signature(SignatureDeclarations declarations = {}, SignatureServing serving = {});
  // The signature a session initialized now would get (explicit, or derived now); null if none.
  // This is what a server card carries (mcp/signature/card.hpp).
  std::shared_ptr<const ServerSignature> signature() const;

  // Signed tool manifests (mcp/server/manifest_signing.hpp): advertise the signed-manifests
  // capability to sessions initialized from now on and answer tools/manifest with the tools this
  // session's tools/list shows, signed by `signing.key`. Replaces an earlier signing. Fails with
  // -32602 on an empty issuer or a lifetime out of range.
  [[nodiscard]] Result<void> set_manifest_signing(ManifestSigning signing);

  void set_availability(AvailabilityHooks hooks);

  // Server profiles (mcp/protocol/profiles.hpp; docs/wire/profiles.md): the profiles this server
  // implements, default first if it has one. Each initialize, and each 2026-07-28 request, is then
  // served under the one negotiated from what the client requests, or refused (-32602 listing
  // these). Served at /.well-known/mcp-profiles by the HTTP server and in server/discover. Fails
  // with -32602 naming the entry that breaks a rule of the proposal. An empty list: no profiles.
  [[nodiscard]] Result<void> set_profiles(std::vector<ProfileSpec> profiles);
  std::vector<ProfileSpec> profiles() const;

  // What the item `key` of `kind` needs of the client that uses it (mcp/server/requirements.hpp).
  // Replaces an earlier requirement of the same item; an empty `capabilities` removes it. Clients
  // are told to list again.
  void require_capabilities(ListKind kind, std::string key, CapabilityRequirement requirement);

  // Adds a stage to every session's chain (mcp/server/stage.hpp). StagePlace::inside: inside the
  // ones added before (and the signature self-check), outside availability. StagePlace::outermost:
  // outside the built-in log and signature stages, so it sees every answer the chain gives, theirs
  // included. Requests already running keep the chain they started with.
  void use(std::shared_ptr<Stage> stage, StagePlace place = StagePlace::inside);
  // Availability changed (a permission granted, a feature switched on): sends the list's
  // notifications/*/list_changed to every session, so clients list again.
  void availability_changed(ListKind kind);

  struct Impl;  // shared with ServerSession

  // Many items changing at once (a list mirrored from elsewhere): while a batch lives, registering
  // or removing an item, availability_changed and require_capabilities do not tell the sessions
  // one by one; when the last live batch ends, one notifications/*/list_changed goes out per list
  // that changed. A client that lists again on each notification otherwise lists the whole set once
  // per item added. Batches may overlap and come from any thread; requests see each change at once.
  class ChangeBatch {
   public:
    ChangeBatch(ChangeBatch&& other) noexcept : impl_(std::move(other.impl_)) {}
    ChangeBatch& operator=(ChangeBatch&&) = delete;
    ~ChangeBatch();

   private:
    friend class Server;
    explicit ChangeBatch(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<Impl> impl_;
  };
  [[nodiscard]] ChangeBatch batch_changes();

  // Starts serving one connection and returns its session. The server keeps the session until the
  // connection closes (the handle is only for closing it, or reading who is connected); destroying
  // the Server closes every connection it still serves.
  [[nodiscard]] Result<std::shared_ptr<ServerSession>> connect(std::shared_ptr<Transport> transport);
  // Serves stdin/stdout until the client closes it. Returns the reason if it ended on an error.
  [[nodiscard]] std::optional<Error> serve_stdio();

  const ServerOptions& options() const;
  // The capabilities sent in InitializeResult.
  json::object capabilities() const;

 private:
  std::shared_ptr<Impl> impl_;
};

// One client connection of a Server. Lives until closed; thread-safe.
class ServerSession {
 public:
  virtual ~ServerSession() = default;
  // The client as initialize described it (null until initialize).
  virtual std::shared_ptr<const ClientView> client() const = 0;
  virtual void close() = 0;
  virtual void wait_closed() = 0;
  // Sends a notification to this client (e.g. a custom one). Fails if the session has closed.
  [[nodiscard]] virtual Result<void> notify(std::string_view method, json::object params) = 0;
  // Unique within the process ("s1", ...); what RequestContext::session_id() returns.
  virtual const std::string& id() const = 0;
  // Records who the transport authenticated; handlers see it as RequestContext::identity() from the
  // next request on. Callable before or after initialize.
  virtual void set_identity(std::optional<std::string> identity) = 0;
  // The signature this session was given at initialize (null before, or if the server has none).
  virtual std::shared_ptr<const ServerSignature> signature() const = 0;
};

}  // namespace mcp
