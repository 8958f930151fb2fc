// mcp/server/server.hpp — the server API: register tools, resources, templates and prompts; serve.
//
// A Server is the registry and the policy; each connection gets its own ServerSession (created by
// `connect`), so one Server serves any number of clients (stdio serves one, HTTP many). Changing the
// registry while serving is allowed: every initialised session is sent the matching
// notifications/*/list_changed.
//
// Handlers run on the session's worker threads, concurrently; they may block (for instance on
// ctx.create_message()). Errors as values: return a Result error for a protocol error (it reaches the
// client as a JSON-RPC error); report a tool's own failure as CallToolResult{is_error = true}.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/protocol/completion.hpp"
#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/prompt.hpp"
#include "mcp/protocol/resource.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/protocol/tool_call.hpp"
#include "mcp/server/context.hpp"
#include "mcp/server/uri_template.hpp"
#include "mcp/session/session.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp {

class ServerSession;

struct ServerOptions {
  Implementation info{.name = "mcp-trust-server", .version = "0.1.0"};
  std::optional<std::string> instructions;
  // Items per page of every list result; a nextCursor is sent when more remain. 0 = no paging.
  std::size_t page_size = 100;
  // Declare resources.subscribe (clients may subscribe to resource updates).
  bool resource_subscriptions = true;
  // Declare the logging capability (clients may send logging/setLevel).
  bool logging = true;
  Session::Options session;
};

using ToolHandler = std::function<Result<CallToolResult>(const json::object& arguments, RequestContext& ctx)>;
using ResourceReader = std::function<Result<ReadResourceResult>(const std::string& uri, RequestContext& ctx)>;
using TemplateReader = std::function<Result<ReadResourceResult>(
    const std::string& uri, const UriTemplate::Variables& variables, RequestContext& ctx)>;
using PromptHandler =
    std::function<Result<GetPromptResult>(const std::map<std::string, std::string>& arguments, RequestContext& ctx)>;
// completion/complete for one prompt argument or template variable: the values to suggest.
using Completer = std::function<Result<CompleteResult>(const CompleteRequestParams& request, RequestContext& ctx)>;

class Server : public std::enable_shared_from_this<Server> {
 public:
  explicit Server(ServerOptions options = {});
  ~Server();

  // Registration. Adding a name that exists replaces it. Input: the definition as it will be listed.
  void add_tool(Tool tool, ToolHandler handler);
  bool remove_tool(const std::string& name);
  void add_resource(Resource resource, ResourceReader reader);
  bool remove_resource(const std::string& uri);
  // Fails with -32602 if the template does not parse as RFC 6570.
  Result<void> add_resource_template(ResourceTemplate resource_template, TemplateReader reader);
  void add_prompt(Prompt prompt, PromptHandler handler);
  bool remove_prompt(const std::string& name);
  // Completion for a prompt's arguments (ref/prompt) or a template's variables (ref/resource).
  void set_completer(Completer completer);

  // Sends notifications/resources/updated to every session subscribed to `uri`.
  void notify_resource_updated(const std::string& uri);

  // Starts serving one connection and returns its session (the caller keeps it alive).
  Result<std::shared_ptr<ServerSession>> connect(std::shared_ptr<Transport> transport);
  // Serves stdin/stdout until the client closes it. Returns the reason if it ended on an error.
  std::optional<Error> serve_stdio();

  const ServerOptions& options() const;
  // The capabilities sent in InitializeResult.
  json::object capabilities() const;

  struct Impl;  // shared with ServerSession
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
  virtual Result<void> notify(std::string_view method, json::object params) = 0;
};

}  // namespace mcp
