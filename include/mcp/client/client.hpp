// mcp/client/client.hpp — the client API: connect, list, call, read, get, complete, subscribe.
//
// One Client talks to one server over one transport. Every spec method has one shape: typed
// params in, Result<typed result> out, blocking the calling thread until the answer, the timeout
// or cancellation. Calls from several threads run concurrently on the one connection.
//
// Requests from the server (sampling, elicitation, roots) go to the handlers in ClientOptions; a
// handler being set is what declares the capability (in `initialize`, or in every 2026-07-28
// request's _meta). They run on worker threads and may block (e.g. while a user answers); over
// 2026-07-28 the same handlers answer a multi round-trip result's input requests, on the calling
// thread, before the call is sent again. Notifications go to the callbacks, on the reader thread,
// in arrival order: keep them short. The handlers take and return JSON; mcp/client/typed_handlers.hpp
// makes them from functions of the protocol types (CreateMessageRequestParams, ElicitRequestParams).
//
// MCP 2026-07-28 (ClientOptions::protocol_version, the default): after the probe, `server()` is
// built from server/discover; results are cached for the ttlMs they give (per client, keyed by
// the capabilities declared; a list_changed forgets its list); change notifications travel on one
// subscriptions/listen the client keeps open while it has callbacks or subscriptions for them;
// tools whose x-mcp-header annotations are invalid are dropped from tools/list, and the arguments
// they name go in Mcp-Param-* headers over HTTP. Items listing capability requirements this client
// cannot meet (dev.mcp-trust/requiredCapabilities) are dropped from lists in both revisions.
//
// The client never sends a request for a capability the server did not declare: such a call fails
// with -32601 without touching the wire.
//
// With ClientOptions::signature_policy set, the client holds the server to its capability
// signature (SEP-2091), or to its first lists when it has none, checking every list result in the
// policy's enforcement mode (mcp/client/signature_policy.hpp).
//
// With ClientOptions::manifest set, the client verifies the server's signed tool manifest
// (tools/manifest) at connect and holds every tools/list to it (mcp/client/manifest_policy.hpp).
//
// Thread-safety: all members are thread-safe after connect() returns.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/client/manifest_policy.hpp"
#include "mcp/client/signature_policy.hpp"
#include "mcp/client/stage.hpp"
#include "mcp/protocol/completion.hpp"
#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/logging.hpp"
#include "mcp/protocol/prompt.hpp"
#include "mcp/protocol/resource.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/protocol/tool_call.hpp"
#include "mcp/session/session.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp {

// A handler for a server->client request: its params in, its result out (as JSON, so that the
// handler can return fields newer than this SDK). `cancel` fires if the server cancels.
using ClientRequestHandler = std::function<Result<json::value>(const json::object& params, const CancellationToken& cancel)>;

struct ClientOptions {
  Implementation info{.name = "mcp-trust-client", .version = "0.1.0"};
  // The revision to speak. "2026-07-28" (the default) probes the server with server/discover and,
  // if it speaks that revision, talks to it statelessly: no handshake, every request carrying its
  // version, capabilities and client info in _meta. Otherwise it falls back to initialize with
  // 2025-11-25, unless `fallback` is off (connect then fails). A handshake revision
  // ("2025-11-25", ...) skips the probe and runs initialize asking for it.
  std::string protocol_version = "2026-07-28";
  bool fallback = true;
  // How long the probe waits for server/discover before taking silence as "not 2026-07-28".
  std::chrono::milliseconds probe_timeout{10'000};
  // Multi round-trip (2026-07-28): the most times one call answers a server's InputRequiredResult
  // with the handlers below before it fails.
  int max_input_rounds = 10;
  // Server profiles (mcp/protocol/profiles.hpp): the profile URLs this client could use, in order
  // of preference, sent as requestedProfiles (initialize, or every 2026-07-28 request's _meta).
  // connect() fails unless the server answers with one of them. A granted profile mcp-trust
  // publishes (signed/1.x, read-only/1.x) is then verified: connect() fails if the server does not
  // meet it (docs/profiles/).
  std::vector<std::string> profiles{};
  // For signed/1.x: the digest of the signature in the server card whose proof the application
  // verified (mcp/signature/card.hpp verify_server_card; `mcp-trust client --card-key` does it).
  std::optional<std::string> verified_card_signature{};

  ClientRequestHandler on_sampling{};     // sampling/createMessage; declares "sampling"
  bool sampling_tools = false;          // also declare sampling.tools
  ClientRequestHandler on_elicitation{};  // elicitation/create; declares "elicitation" (form)
  bool elicitation_url = false;         // also declare elicitation.url
  ClientRequestHandler on_roots{};        // roots/list; declares "roots"
  bool roots_list_changed = false;

  // Every notification from the server, after the typed callbacks below.
  std::function<void(const jsonrpc::Notification&)> on_notification;
  std::function<void(const LoggingMessageNotificationParams&)> on_log;
  std::function<void(const std::string& uri)> on_resource_updated;
  // "tools", "resources" or "prompts" when the server says that list changed.
  std::function<void(const std::string& list)> on_list_changed;
  // The connection ended; the reason is empty for an orderly close.
  std::function<void(const std::optional<Error>& reason)> on_closed;

  // Paging guard for the list_all_* helpers: more pages than this is an error, not a hang.
  std::size_t max_pages = 1000;
  // And a bound in bytes: once the pages read hold more than this (their JSON, as written again),
  // list_all_* stops with an error. A page is at most a message (Session::Options), but a server
  // choosing the pages could otherwise make us keep max_pages of them.
  std::size_t max_list_bytes = 64 << 20;
  // Your stages (mcp/client/stage.hpp), outermost first; the policies below run inside them.
  std::vector<std::shared_ptr<ClientStage>> stages{};
  // Capability signatures: unset (the default), lists are not checked.
  std::optional<SignaturePolicy> signature_policy{};
  // Signed tool manifests: unset (the default), tools/manifest is not fetched.
  std::optional<ManifestPolicy> manifest{};
  // SEP-2093's multi-content rules, held to every resources/read answer (no contents; contents for
  // other URIs from a resource that says it is not listable). strict: the read fails naming the
  // rule; permissive: a warning is logged and the answer returned; advisory: returned as is.
  EnforcementMode resource_contents = EnforcementMode::strict;
  Session::Options session{};
};

// Bounds of a walk of the resource graph (Client::walk_resources). The graph may be cyclic (a
// symlink) or unbounded (generated resources): a walk always ends, at the first bound it meets.
struct ResourceWalkOptions {
  std::size_t max_depth = 8;        // the root is depth 0, its children 1
  std::size_t max_items = 10'000;   // resources kept in all (reported, or met and not yet reported)
  std::size_t max_pages = 1'000;    // resources/list requests in all
  std::size_t max_bytes = 32 << 20; // of the resources kept (their strings), whatever their number
};
struct WalkedResource {
  Resource resource{};
  std::size_t depth = 0;
};
struct ResourceWalk {
  std::vector<WalkedResource> resources{};  // depth first, each parent before its children
  // Set when a bound stopped the walk early, saying which; the resources found so far are kept.
  std::optional<std::string> truncated{};
  std::size_t repeats = 0;  // URIs met again (a cycle or a shared child), reported once
  // Listable resources whose children could not be listed, with why; the walk goes on without them.
  std::vector<std::pair<std::string, Error>> failed{};
};

struct CallOptions {
  std::optional<std::chrono::milliseconds> timeout{};
  std::function<void(const ProgressInfo&)> on_progress;
  CancellationToken cancel{};
  std::optional<json::object> meta{};  // extra _meta for the request
};

class Client {
 public:
  explicit Client(ClientOptions options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Starts the transport, runs initialize and sends notifications/initialized.
  [[nodiscard]] Result<InitializeResult> connect(std::shared_ptr<Transport> transport);
  // What the server said in initialize, or in server/discover for 2026-07-28 (valid after connect
  // succeeded); server().protocol_version is the revision spoken.
  const InitializeResult& server() const;
  // Whether the session speaks 2026-07-28 (no handshake, per-request _meta).
  bool stateless() const;
  // The server profile the server honours for this client (empty: none).
  std::optional<std::string> profile() const;
  bool server_supports(std::string_view capability) const;  // "tools", "resources.subscribe", ...

  [[nodiscard]] Result<ListToolsResult> list_tools(std::optional<std::string> cursor = {});
  [[nodiscard]] Result<std::vector<Tool>> list_all_tools();
  [[nodiscard]] Result<CallToolResult> call_tool(const std::string& name, json::object arguments = {}, CallOptions options = {});
  // call_tool without blocking: returns at once, and `done` is called once with what call_tool
  // would have returned, on the reader thread (keep it short: it must not wait on this server),
  // or on a pool thread when the answer needed more rounds (multi round-trip input). For a caller
  // that forwards calls (a gateway) and must not hold a thread per call in flight.
  void call_tool_async(const std::string& name, json::object arguments, CallOptions options,
                       std::function<void(Result<CallToolResult>)> done);
  // call_tool_async's answer as the server sent it, not decoded: for a caller that passes it on
  // whole (a gateway, to Server::add_async_json_tool's Reply), where decoding it and writing it
  // again would be the only work done on it. This client's own checks run as for call_tool; of
  // the result itself only what says what happened is checked (an object whose content is an
  // array of objects with a string type; isError a boolean, structuredContent and _meta objects,
  // where present): -32603 otherwise. The content blocks are for whoever reads them to check.
  void call_tool_json_async(const std::string& name, json::object arguments, CallOptions options,
                            std::function<void(Result<json::object>)> done);
  // The same for get_prompt and read_resource (whose answer is held to the multi-content rules).
  void get_prompt_async(const std::string& name, std::map<std::string, std::string> arguments, CallOptions options,
                        std::function<void(Result<GetPromptResult>)> done);
  void read_resource_async(const std::string& uri, CallOptions options, std::function<void(Result<ReadResourceResult>)> done);
  // And for complete.
  void complete_async(const CompleteRequestParams& params, CallOptions options, std::function<void(Result<CompleteResult>)> done);

  [[nodiscard]] Result<ListResourcesResult> list_resources(std::optional<std::string> cursor = {});
  [[nodiscard]] Result<std::vector<Resource>> list_all_resources();
  [[nodiscard]] Result<ListResourceTemplatesResult> list_resource_templates(std::optional<std::string> cursor = {});
  [[nodiscard]] Result<std::vector<ResourceTemplate>> list_all_resource_templates();
  [[nodiscard]] Result<ReadResourceResult> read_resource(const std::string& uri, CallOptions options = {});
  // SEP-2093 resources/metadata: the resource's metadata without its content. A server that
  // predates it (-32601) is not a failure: the resource is looked up in resources/list instead,
  // and -32602 says so when it is not listed there either.
  [[nodiscard]] Result<Resource> resource_metadata(const std::string& uri, CallOptions options = {});
  // SEP-2093: one page of the direct children of the listable resource `uri` (resources/list with
  // its uri). Each child is held to the capability signature as a listed resource would be (a
  // resource expanding a declared template is declared), but not frozen: children come and go.
  [[nodiscard]] Result<ListResourcesResult> list_children(const std::string& uri, std::optional<std::string> cursor = {});
  // A depth-first walk from `root` (its metadata, then its children's, recursively, through
  // list_children), or from the server's own list when `root` is empty; within `options`, each URI
  // reported once. No recursion: an explicit stack, bounded by the options.
  [[nodiscard]] Result<ResourceWalk> walk_resources(const std::string& root, ResourceWalkOptions options = {});
  [[nodiscard]] Result<void> subscribe(const std::string& uri);
  [[nodiscard]] Result<void> unsubscribe(const std::string& uri);
  // The same, answered later through `done`, from any thread; nothing waits on a thread for the
  // answer. With a 2026-07-28 server a change is a new subscriptions/listen, answered once it is
  // acknowledged (or after probe_timeout without a word): changes made while one listen is out go
  // together in the next (at most 1,024 wait; past that one is refused at once).
  void subscribe_async(const std::string& uri, std::function<void(Result<void>)> done);
  void unsubscribe_async(const std::string& uri, std::function<void(Result<void>)> done);

  [[nodiscard]] Result<ListPromptsResult> list_prompts(std::optional<std::string> cursor = {});
  [[nodiscard]] Result<std::vector<Prompt>> list_all_prompts();
  [[nodiscard]] Result<GetPromptResult> get_prompt(const std::string& name, std::map<std::string, std::string> arguments = {},
                                     CallOptions options = {});

  [[nodiscard]] Result<CompleteResult> complete(const CompleteRequestParams& params);
  [[nodiscard]] Result<void> set_log_level(LoggingLevel level);
  [[nodiscard]] Result<void> ping();

  // Capability signatures (with ClientOptions::signature_policy; otherwise null and empty).
  // The signature in force: from initialize, or the policy's expected one.
  std::shared_ptr<const ServerSignature> signature() const;
  // Every violation found so far, in every mode.
  std::vector<SignatureViolation> signature_violations() const;
  // Declared, but absent from the last complete list of its kind: "available if enabled".
  std::vector<DeclaredItem> available_if_enabled() const;

  // Signed tool manifests (with ClientOptions::manifest; otherwise null and empty).
  // The manifest in force: the last one verified valid.
  std::shared_ptr<const trust::ToolManifest> manifest() const;
  // The last verification, whatever its verdict (manifest hash, key id, detail).
  std::shared_ptr<const trust::VerifyResult> manifest_verification() const;
  // Every manifest violation found so far, in every mode.
  std::vector<SignatureViolation> manifest_violations() const;

  // Any request, for methods this SDK has no typed call for (extensions).
  [[nodiscard]] Result<json::value> request(std::string_view method, json::object params, CallOptions options = {});
  [[nodiscard]] Result<void> notify(std::string_view method, json::object params = {});

  void close();
  // Closes the session and waits until no callback of this client runs or ever will (the answers
  // of asynchronous calls included): after it, the client may be released on this thread. Never
  // from one of the client's own callbacks. The destructor does it; inside one of the client's
  // own callbacks (its last reference released by an answer, say) the destructor closes the
  // session and leaves that wait to the thread pool.
  void shutdown();
  bool closed() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace mcp
