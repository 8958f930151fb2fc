// The server's dispatch table and the path of one request: find the item it names, run the chain's
// stages inward, the method's handler, and the stages outward with the answer (docs/design.md,
// "The path of one tools/call").
#include <unordered_map>

#include "log/log.hpp"
#include "mcp/protocol/input_required.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

using Self = ServerSessionImpl;
using Request = std::shared_ptr<ServerRequest>;

// One method: where it runs, the step that finds the item it names (before the chain, so that the
// stages can judge it), and its handler, which answers through Self::finish.
struct Route {
  bool never_blocks = false;  // runs on the reader thread
  // Decides per request instead, by the item it names (an asynchronous handler only starts there).
  bool (Self::*inline_for)(const json::object& params) const = nullptr;
  Result<void> (Self::*find)(ServerRequest&) = nullptr;
  void (*handle)(Self&, const Request&) = nullptr;
};

template <Result<json::value> (Self::*Method)(ServerRequest&)>
void answer_now(Self& self, const Request& r) {
  self.finish(*r, (self.*Method)(*r));
}

// A method that runs an item's handler, blocking or asynchronous; it answers when that does.
template <void (Self::*Method)(const Request&)>
void run_item(Self& self, const Request& r) {
  (self.*Method)(r);
}

const std::unordered_map<std::string_view, Route>& routes() {
  // Listing copies registry entries and never waits on anything; so does setting a level.
  static const std::unordered_map<std::string_view, Route> table = {
      {method::kToolsList, {true, nullptr, nullptr, answer_now<&Self::list_tools>}},
      {method::kToolsCall, {false, &Self::tool_runs_inline, &Self::find_tool, run_item<&Self::call_tool>}},
      {method::kToolsManifest, {false, nullptr, nullptr, answer_now<&Self::tools_manifest>}},
      // Scoped by a `uri` (SEP-2093), it names an item and may run its tree's blocking lister.
      {method::kResourcesList,
       {false, &Self::list_runs_inline, &Self::find_list_scope, run_item<&Self::list_resources_route>}},
      {method::kResourcesTemplatesList, {true, nullptr, nullptr, answer_now<&Self::list_resource_templates>}},
      {method::kResourcesRead,
       {false, &Self::resource_runs_inline, &Self::find_resource, run_item<&Self::read_resource>}},
      // SEP-2093: metadata without content; the registry holds it (nothing waits) unless the item's
      // tree has a metadata hook, which may block.
      {method::kResourcesMetadata,
       {false, &Self::metadata_runs_inline, &Self::find_resource, run_item<&Self::resource_metadata>}},
      // A subscribe only starts on its worker: it waits for its URI's watch as a callback
      // (subscriptions.cpp). On a worker still, as the chain's stages before it may take time.
      {method::kResourcesSubscribe, {false, nullptr, nullptr, run_item<&Self::subscribe>}},
      {method::kResourcesUnsubscribe, {false, nullptr, nullptr, answer_now<&Self::unsubscribe>}},
      {method::kPromptsList, {true, nullptr, nullptr, answer_now<&Self::list_prompts>}},
      {method::kPromptsGet, {false, &Self::prompt_runs_inline, &Self::find_prompt, run_item<&Self::get_prompt>}},
      {method::kCompletionComplete, {false, &Self::completion_runs_inline, nullptr, run_item<&Self::complete>}},
      {method::kLoggingSetLevel, {true, nullptr, nullptr, answer_now<&Self::set_level>}},
  };
  return table;
}

// The string member `key` of a request's params; null if absent or not a string.
const json::string* string_member(const json::object& params, std::string_view key) {
  const json::value* v = params.if_contains(key);
  return v ? v->if_string() : nullptr;
}

}  // namespace

bool ServerSessionImpl::runs_inline(const std::string& m, const json::object* params) const {
  // initialize may derive a signature from the whole registry: not on the reader thread.
  if (m == method::kInitialize) return false;
  auto it = routes().find(m);
  if (it == routes().end()) return true;  // answered at once: method not found
  if (it->second.never_blocks) return true;
  if (!it->second.inline_for || !params) return false;
  return (this->*it->second.inline_for)(*params);
}

bool ServerSessionImpl::tool_runs_inline(const json::object& params) const {
  const json::string* name = string_member(params, "name");
  if (!name) return true;  // refused at once
  std::lock_guard lock(server_->mu);
  const auto* entry = server_->tools.find(*name);
  if (!entry) return true;  // unknown: refused at once
  // An asynchronous tool only starts its work here; a non-blocking one is declared quick.
  return (*entry)->options.non_blocking || (*entry)->handler.is_async();
}

// For resources and prompts, a name that matches nothing goes where a blocking handler would, as
// it always did: the decision stays one lookup, and none at all on a server that reads nothing
// asynchronously.
bool ServerSessionImpl::resource_runs_inline(const json::object& params) const {
  const json::string* uri = string_member(params, "uri");
  if (!uri || uri->size() > server_->opts.max_uri_bytes) return true;  // refused at once (find_resource)
  std::lock_guard lock(server_->mu);
  if (!server_->async_readers) return false;
  auto match = server_->match_resource(*uri);
  if (match.resource) return match.resource->reader.is_async();
  return match.template_entry && match.template_entry->reader.is_async();
}

bool ServerSessionImpl::prompt_runs_inline(const json::object& params) const {
  const json::string* name = string_member(params, "name");
  if (!name) return true;  // refused at once (find_prompt)
  std::lock_guard lock(server_->mu);
  const auto* entry = server_->prompts.find(*name);
  return entry && entry->handler.is_async();
}

bool ServerSessionImpl::completion_runs_inline(const json::object&) const {
  std::lock_guard lock(server_->mu);
  return server_->completer.is_async();
}

void ServerSessionImpl::start_request(InboundRequest& in, Responder reply) {
  // A request whose _meta names its protocol version is stateless (2026-07-28) and carries its own
  // client view; any other belongs to this session's initialize (2025-11-25).
  if (is_stateless_request(in.params)) {
    start_stateless(in, std::move(reply));
    return;
  }
  if (in.method == method::kInitialize) {
    reply(initialize(in.params));  // handed to the transport, in order, before anything sent after
    initialized();
    return;
  }
  std::shared_ptr<const ClientView> view;
  std::shared_ptr<const StageList> outer;
  std::shared_ptr<const SessionSignature> signature;
  {
    std::lock_guard lock(mu_);
    view = client_;
    outer = outer_stages_;
    signature = signature_;
  }
  if (!view) {
    reply(fail(Error::invalid_request("the session is not initialized: send initialize first (got " +
                                      peer_text(in.method) + ")")));
    return;
  }
  dispatch(in, std::move(reply), std::move(view), std::move(outer), std::move(signature));
}

void ServerSessionImpl::dispatch(InboundRequest& in, Responder reply, std::shared_ptr<const ClientView> view,
                                 std::shared_ptr<const StageList> outer,
                                 std::shared_ptr<const SessionSignature> signature) {
  std::shared_ptr<const StageList> first;
  std::shared_ptr<const StageList> inner;
  {
    std::lock_guard lock(server_->mu);
    first = server_->outermost_stages;
    inner = server_->inner_stages;
  }
  // Where it runs was decided once, by the session engine (runs_inline): asking again could answer
  // differently after a registry change and let a blocking handler wait on the reader thread.
  const bool on_reader = in.on_reader;
  const bool stateless = view->stateless;
  auto r = std::make_shared<ServerRequest>(std::move(in), std::move(view), *this, std::move(reply),
                                           ChainView(std::move(first), std::move(outer), std::move(inner)), shared_from_this());
  if (on_reader) r->ctx.forbid_nested_requests();
  // 2026-07-28 servers send no requests: what a handler needs from the client comes back through a
  // multi round-trip result (RequestContext::input_required).
  if (stateless) {
    r->ctx.forbid_all_nested_requests(
        "a 2026-07-28 request cannot send requests to the client; return ctx.input_required(...) instead");
  }
  r->signature = std::move(signature);
  // A stateless retry brings the answers to what the handler asked for last time.
  if (stateless && accepts_input_responses(r->in.method)) {
    if (auto ok = accept_input(*r); !ok) {
      r->depth = r->chain.first_size();  // the outermost stages see every answer (an audit's)
      finish(*r, fail(std::move(ok.error())));
      return;
    }
  }

  auto route = routes().find(r->in.method);
  try {
    if (route != routes().end() && route->second.find) {
      // Malformed params are refused before the chain: there is nothing for a stage to judge.
      if (auto found = (this->*route->second.find)(*r); !found) {
        r->depth = r->chain.first_size();  // only the outermost stages, which see every answer
        finish(*r, fail(found.error()));
        return;
      }
      if (r->found) r->call.target = &*r->target;
    }
    auto entered = r->chain.enter(r->call);
    r->depth = entered.depth;
    if (entered.answer) {
      finish(*r, std::move(*entered.answer));
      return;
    }
    if (route == routes().end()) {
      finish(*r, fail(Error::method_not_found(r->in.method)));
      return;
    }
    route->second.handle(*this, r);
  } catch (const std::exception& e) {
    // A handler or stage bug must not take the connection down; the client gets a clear error.
    MCP_LOG_ERROR("server: handler for {} threw: {}", peer_text(r->in.method), e.what());
    finish(*r, fail(Error::internal("internal error while handling " + peer_text(r->in.method) + ": " + e.what())));
  }
}

bool ServerSessionImpl::finish(ServerRequest& r, Result<json::value> answer) {
  if (r.answered.exchange(true)) return false;
  r.chain.leave(r.call, r.depth, answer);
  return r.reply(std::move(answer));
}

}  // namespace mcp
