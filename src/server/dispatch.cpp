// The server's dispatch table and the path of one request: find the item it names, run the chain's
// stages inward, the method's handler, and the stages outward with the answer (docs/design.md,
// "The path of one tools/call").
#include <unordered_map>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

using Self = ServerSessionImpl;
using Request = std::shared_ptr<ServerRequest>;

// One method: where it runs, the step that finds the item it names (before the chain, so that the
// stages can judge it), and its handler, which answers through Self::finish.
struct Route {
  bool never_blocks = false;  // runs on the reader thread (tools/call: decided per tool)
  Result<void> (Self::*find)(ServerRequest&) = nullptr;
  void (*handle)(Self&, const Request&) = nullptr;
};

template <Result<json::value> (Self::*Method)(ServerRequest&)>
void answer_now(Self& self, const Request& r) {
  self.finish(*r, (self.*Method)(*r));
}

void call_tool(Self& self, const Request& r) { self.call_tool(r); }

const std::unordered_map<std::string_view, Route>& routes() {
  // Listing copies registry entries and never waits on anything; so does setting a level.
  static const std::unordered_map<std::string_view, Route> table = {
      {method::kToolsList, {true, nullptr, answer_now<&Self::list_tools>}},
      {method::kToolsCall, {false, &Self::find_tool, call_tool}},
      {method::kToolsManifest, {false, nullptr, answer_now<&Self::tools_manifest>}},
      {method::kResourcesList, {true, nullptr, answer_now<&Self::list_resources>}},
      {method::kResourcesTemplatesList, {true, nullptr, answer_now<&Self::list_resource_templates>}},
      {method::kResourcesRead, {false, &Self::find_resource, answer_now<&Self::read_resource>}},
      {method::kResourcesSubscribe, {false, nullptr, answer_now<&Self::subscribe>}},
      {method::kResourcesUnsubscribe, {false, nullptr, answer_now<&Self::unsubscribe>}},
      {method::kPromptsList, {true, nullptr, answer_now<&Self::list_prompts>}},
      {method::kPromptsGet, {false, &Self::find_prompt, answer_now<&Self::get_prompt>}},
      {method::kCompletionComplete, {false, nullptr, answer_now<&Self::complete>}},
      {method::kLoggingSetLevel, {true, nullptr, answer_now<&Self::set_level>}},
  };
  return table;
}

}  // namespace

bool ServerSessionImpl::runs_inline(const std::string& m, const json::object* params) const {
  // initialize may derive a signature from the whole registry: not on the reader thread.
  if (m == method::kInitialize) return false;
  auto it = routes().find(m);
  if (it == routes().end()) return true;  // answered at once: method not found
  if (it->second.never_blocks) return true;
  if (m != method::kToolsCall || !params) return false;
  const json::value* name = params->if_contains("name");
  if (!name || !name->is_string()) return true;  // refused at once
  std::lock_guard lock(server_->mu);
  for (const auto& e : server_->tools) {
    // An asynchronous tool only starts its work here; a non-blocking one is declared quick.
    if (e->tool.name == name->get_string()) return e->options.non_blocking || e->async_handler != nullptr;
  }
  return true;  // unknown: refused at once
}

void ServerSessionImpl::start_request(InboundRequest& in, Responder reply) {
  if (in.method == method::kInitialize) {
    reply(initialize(in.params));
    return;
  }
  std::shared_ptr<const ClientView> view;
  std::shared_ptr<const StageList> outer;
  {
    std::lock_guard lock(mu_);
    view = client_;
    outer = outer_stages_;
  }
  if (!view) {
    reply(fail(Error::invalid_request("the session is not initialized: send initialize first (got " +
                                      peer_text(in.method) + ")")));
    return;
  }
  std::shared_ptr<const StageList> inner;
  {
    std::lock_guard lock(server_->mu);
    inner = server_->inner_stages;
  }
  std::optional<json::object> meta;
  if (auto m = in.params.if_contains("_meta"); m && m->is_object()) meta = m->get_object();
  const bool on_reader = runs_inline(in.method, &in.params);
  RequestContext ctx(std::move(view), *this, in.id, std::move(meta), in.cancel);
  if (on_reader) ctx.forbid_nested_requests();
  auto r = std::make_shared<ServerRequest>(std::move(in), std::move(ctx), std::move(reply),
                                           ChainView(std::move(outer), std::move(inner)), shared_from_this());

  auto route = routes().find(r->in.method);
  try {
    if (route != routes().end() && route->second.find) {
      // Malformed params are refused before the chain: there is nothing for a stage to judge.
      if (auto found = (this->*route->second.find)(*r); !found) {
        r->depth = 0;
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
