// The server side of the methods that use an item: call, read, get, complete (lists: server_lists.cpp).
// The find_* steps run before the chain: they decode the params and copy the item's entry out of
// the registry under its lock, so the stages can judge the item and the handler runs outside the
// lock (a slow handler never blocks registration or other requests).
#include <algorithm>
#include <type_traits>
#include <utility>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/resource.hpp"
#include "mcp/protocol/wire_codec.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// Typed params, or -32602 naming the method and the member.
template <class T>
Result<T> params_of(const ServerRequest& r) {
  auto p = from_json<T>(r.in.params);
  if (!p) return fail(Error::invalid_params(r.in.method + ": " + p.error().message));
  return p;
}

template <class T>
Result<json::value> json_of(Result<T> r) {
  if (!r) return fail(std::move(r.error()));
  if constexpr (std::is_same_v<T, json::object>) {
    return json::value(std::move(*r));  // a JSON tool's answer (add_async_json_tool), sent as it is
  } else {
    return to_json(*r);
  }
}

// The specification caps a completion at 100 values: the rest are counted in total, with hasMore.
void cap_completion(CompleteResult& result) {
  auto& c = result.completion;
  if (c.values.size() <= Completion::kMaxValues) return;
  if (!c.total) c.total = static_cast<std::int64_t>(c.values.size());
  c.values.resize(Completion::kMaxValues);
  c.has_more = true;
}

// Whether a handler's answer is its ctx.input_required(...).
template <class T>
bool asks_input(const Result<T>& answer) {
  return !answer && answer.error().code == error_code::kInputRequired;
}

// An answer on its way out, whichever way the handler gave it: made what every answer of its kind
// must be (a completion capped), then back through the chain's stages to the client. A request
// for the client's input that reaches here is a stateless request's: it becomes the
// InputRequiredResult (a session's was served by the rounds of run_handler and start_async).
template <class T>
bool send_answer(ServerSessionImpl& self, ServerRequest& r, Result<T> answer) {
  if (asks_input(answer)) {
    auto asked = r.ctx.take_input_asked();
    if (!asked) return self.finish(r, fail(Error::internal("the handler returned kInputRequired without ctx.input_required")));
    if (!r.ctx.stateless()) return self.finish(r, fail(Error::internal("the client's input was asked for outside a round")));
    return self.finish(r, self.input_required_result(r, *asked));
  }
  if constexpr (std::is_same_v<T, CompleteResult>) {
    if (answer) cap_completion(*answer);
  }
  if constexpr (std::is_same_v<T, ReadResourceResult>) {
    if (answer) answer = self.checked_contents(r, std::move(*answer));
  }
  return self.finish(r, json_of(std::move(answer)));
}

// What a handler that threw answers, so that a bug in it never leaves the client without one.
template <class T>
Result<T> thrown(const ServerRequest& r, const std::exception& e) {
  const std::string item = r.target ? " " + peer_text(r.target->key) : "";
  MCP_LOG_ERROR("server: the handler of {}{} threw: {}", peer_text(r.in.method), item, e.what());
  if constexpr (std::is_same_v<T, CallToolResult> || std::is_same_v<T, json::object>) {
    // A tool reports a tool error the model can see, as the reference SDK does (a JSON tool, as JSON).
    auto failed = CallToolResult::error(std::string("tool failed: ") + e.what());
    if constexpr (std::is_same_v<T, json::object>) return std::move(to_json(failed).as_object());
    else return failed;
  } else {
    return fail(Error::internal("internal error while handling " + peer_text(r.in.method) + ": " + e.what()));
  }
}

// Something the request itself holds (a tool's arguments, in its params; the tool's handler, in
// its entry), passed to start_async and run_handler by reference: every capture of start_async
// keeps the request, so the reference outlives them, and the arguments (megabytes, some) and the
// handler are not copied into each call's Reply. Stands for a `const T&` and calls like a T.
template <class T>
struct HeldByRequest {
  const T* held;
  operator const T&() const { return *held; }  // NOLINT: stands for the reference
  template <class... A>
  decltype(auto) operator()(A&&... a) const {
    return (*held)(std::forward<A>(a)...);
  }
};

// Starts an asynchronous handler. Its context and its Reply both keep the request (and so the
// session) alive until it answers; once every copy of both is gone the request goes too, and its
// Responder answers -32603 if nothing did. In a 2025-11-25 session, a Reply given
// ctx.input_required(...) sends what was asked for and starts the handler again with the answers
// (with a copy of `args`, unless they are HeldByRequest).
template <class T, class Async, class... Args>
void start_async(ServerSessionImpl& self, const std::shared_ptr<ServerRequest>& r, const Async& handler,
                 const Args&... args) {
  std::shared_ptr<RequestContext> ctx(r, &r->ctx);
  Reply<T> reply([self = self.shared_from_this(), r, handler, args...](Result<T> answer) {
    if (!asks_input(answer) || r->ctx.stateless()) return send_answer(*self, *r, std::move(answer));
    auto asked = r->ctx.take_input_asked();
    if (!asked) return send_answer(*self, *r, std::move(answer));
    self->gather_input_async(r, std::move(*asked), [self, r, handler, args...](Result<void> got) {
      if (!got) send_answer(*self, *r, Result<T>(fail(std::move(got.error()))));
      else start_async<T>(*self, r, handler, args...);
    });
    return true;
  });
  r->call.handled = true;  // before the handler: its answer may come from another thread at once
  try {
    handler(args..., std::move(ctx), std::move(reply));
  } catch (const std::exception& e) {
    send_answer(self, *r, thrown<T>(*r, e));  // ignored if it had answered before throwing
  }
}

// Runs an item's handler and answers `r` with what it gives: a blocking one here and now, an
// asynchronous one started here and answered later through its Reply. Either way the answer goes
// through send_answer, so both kinds get the same checks and the same stages. `args` are what the
// handler takes before its context. A blocking handler that asks for the client's input in a
// 2025-11-25 session runs again here once the session's requests have the answers.
template <class T, class Blocking, class Async, class... Args>
void run_handler(ServerSessionImpl& self, const std::shared_ptr<ServerRequest>& r,
                 const ItemHandler<Blocking, Async>& handler, const Args&... args) {
  if (handler.is_async()) {
    start_async<T>(self, r, handler.async, args...);
    return;
  }
  r->call.handled = true;
  for (;;) {
    Result<T> answer = [&]() -> Result<T> {
      try {
        return handler.blocking(args..., r->ctx);
      } catch (const std::exception& e) {
        return thrown<T>(*r, e);
      }
    }();
    if (asks_input(answer) && !r->ctx.stateless()) {
      if (auto asked = r->ctx.take_input_asked()) {
        auto got = self.gather_input(*r, std::move(*asked));
        if (got) continue;
        answer = fail(std::move(got.error()));
      }
    }
    send_answer(self, *r, std::move(answer));
    return;
  }
}

// prompts/get's params, once the prompt is known and has every argument it requires: checked
// before its handler runs, whichever kind it is. Decoded again after the chain: a stage may have
// rewritten the arguments (not the prompt, fixed before the chain).
Result<GetPromptRequestParams> checked_prompt_request(const ServerRequest& r) {
  if (!r.prompt || !r.prompt->handler) return fail(unknown_item_error(*r.target));
  auto request = params_of<GetPromptRequestParams>(r);
  if (!request) return fail(request.error());
  for (const auto& a : r.prompt->prompt.arguments) {
    if (a.required.value_or(false) && !request->arguments.contains(a.name)) {
      return fail(Error::invalid_params("prompts/get " + peer_text(request->name) + ": missing required argument '" +
                                        a.name + "'"));
    }
  }
  return request;
}

}  // namespace

Result<void> ServerSessionImpl::find_tool(ServerRequest& r) {
  // Well-formed params (the common case) are checked in place, with the decoder's own _meta check:
  // decoding them into CallToolRequestParams would copy the arguments and _meta only to read the
  // name. Anything else is decoded, for its error.
  const json::object& params = r.in.params;
  const json::value* name = params.if_contains("name");
  const json::value* arguments = params.if_contains("arguments");
  const json::value* meta = params.if_contains("_meta");
  std::string tool_name;
  if (name && name->is_string() && (!arguments || arguments->is_object()) &&
      (!meta || (meta->is_object() && !wire::check_request_meta(r.in.method, &meta->get_object())))) {
    tool_name = std::string(name->get_string());
  } else {
    auto call = params_of<CallToolRequestParams>(r);
    if (!call) return fail(call.error());
    tool_name = std::move(call->name);
  }
  r.target = Target{.kind = ListKind::tools, .key = std::move(tool_name)};
  std::lock_guard lock(server_->mu);
  if (const auto* entry = server_->tools.find(r.target->key)) {
    r.tool = *entry;
    r.target->tool = &r.tool->tool;
    r.found = true;
  }
  return {};
}

void ServerSessionImpl::call_tool(const std::shared_ptr<ServerRequest>& r) {
  // An unknown tool is a protocol error (-32602), per the tools specification.
  if (!r->tool || !r->tool->handler) {
    finish(*r, fail(unknown_item_error(*r->target)));
    return;
  }
  // Read after the chain, which may have rewritten them (the tool itself was fixed before it).
  static const json::object kNoArguments;
  const json::value* a = r->in.params.if_contains("arguments");
  if (a && !a->is_null() && !a->is_object()) {
    finish(*r, fail(Error::invalid_params("tools/call: arguments must be an object")));
    return;
  }
  const HeldByRequest<json::object> arguments{a && a->is_object() ? &a->get_object() : &kNoArguments};
  const ToolHandlers& handler = r->tool->handler;
  if (handler.json_async) {
    return start_async<json::object>(*this, r, HeldByRequest<AsyncJsonToolHandler>{&handler.json_async}, arguments);
  }
  if (handler.async) return start_async<CallToolResult>(*this, r, HeldByRequest<AsyncToolHandler>{&handler.async}, arguments);
  run_handler<CallToolResult>(*this, r, handler, arguments);  // the blocking handler: both asynchronous forms are above
}

Result<void> ServerSessionImpl::find_resource(ServerRequest& r) {
  auto request = params_of<ResourceRequestParams>(r);
  if (!request) return fail(request.error());
  return find_uri(r, std::move(request->uri));
}

void ServerSessionImpl::read_resource(const std::shared_ptr<ServerRequest>& r) {
  const std::string& uri = r->target->uri;
  const ServerRequest::ResourceMatch* m = r->resource.get();
  if (m && m->reader) run_handler<ReadResourceResult>(*this, r, m->reader, uri);
  else if (m && m->template_reader) run_handler<ReadResourceResult>(*this, r, m->template_reader, uri, m->variables);
  else finish(*r, fail(unknown_item_error(*r->target)));
}

Result<void> ServerSessionImpl::find_prompt(ServerRequest& r) {
  auto request = params_of<GetPromptRequestParams>(r);
  if (!request) return fail(request.error());
  r.target = Target{.kind = ListKind::prompts, .key = request->name};
  std::lock_guard lock(server_->mu);
  if (const auto* entry = server_->prompts.find(request->name)) {
    r.prompt = std::make_unique<const Server::Impl::PromptEntry>(*entry);
    r.found = true;
  }
  return {};
}

void ServerSessionImpl::get_prompt(const std::shared_ptr<ServerRequest>& r) {
  auto request = checked_prompt_request(*r);
  if (!request) {
    finish(*r, fail(std::move(request.error())));
    return;
  }
  run_handler<GetPromptResult>(*this, r, r->prompt->handler, request->arguments);
}

void ServerSessionImpl::complete(const std::shared_ptr<ServerRequest>& r) {
  CompleterHandlers completer;
  {
    std::lock_guard lock(server_->mu);
    completer = server_->completer;
  }
  if (!completer) {
    finish(*r, fail(Error::method_not_found(method::kCompletionComplete)));
    return;
  }
  auto request = params_of<CompleteRequestParams>(*r);
  if (!request) {
    finish(*r, fail(std::move(request.error())));
    return;
  }
  run_handler<CompleteResult>(*this, r, completer, *request);
}

}  // namespace mcp
