// The server side of the methods that use an item: call, read, get, complete (lists: server_lists.cpp).
// The find_* steps run before the chain: they decode the params and copy the item's entry out of
// the registry under its lock, so the stages can judge the item and the handler runs outside the
// lock (a slow handler never blocks registration or other requests).
#include <algorithm>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
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
  return to_json(*r);
}

}  // namespace

Result<void> ServerSessionImpl::find_tool(ServerRequest& r) {
  auto call = params_of<CallToolRequestParams>(r);
  if (!call) return fail(call.error());
  r.tool_call = std::move(*call);
  r.target = Target{.kind = ListKind::tools, .key = r.tool_call->name};
  std::lock_guard lock(server_->mu);
  auto it = std::find_if(server_->tools.begin(), server_->tools.end(),
                         [&](const auto& e) { return e->tool.name == r.tool_call->name; });
  if (it != server_->tools.end()) {
    r.tool = *it;
    r.target->tool = &r.tool->tool;
    r.found = true;
  }
  return {};
}

void ServerSessionImpl::call_tool(const std::shared_ptr<ServerRequest>& r) {
  const auto& name = r->tool_call->name;
  // An unknown tool is a protocol error (-32602), per the tools specification.
  if (!r->tool || (!r->tool->handler && !r->tool->async_handler)) {
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
  const json::object& args = a && a->is_object() ? a->get_object() : kNoArguments;
  if (r->tool->async_handler) {
    // The context and the reply keep the request (and so this session) alive until answered.
    std::shared_ptr<RequestContext> ctx(r, &r->ctx);
    Reply<CallToolResult> reply([self = shared_from_this(), r](Result<json::value> answer) { return self->finish(*r, std::move(answer)); });
    try {
      r->tool->async_handler(args, std::move(ctx), std::move(reply));
    } catch (const std::exception& e) {
      MCP_LOG_ERROR("server: tool {} threw: {}", peer_text(name), e.what());
      finish(*r, to_json(CallToolResult::error(std::string("tool failed: ") + e.what())));
    }
    return;
  }
  Result<CallToolResult> result = [&]() -> Result<CallToolResult> {
    try {
      return r->tool->handler(args, r->ctx);
    } catch (const std::exception& e) {
      // A tool that throws reports a tool error the model can see, as the reference SDK does.
      MCP_LOG_ERROR("server: tool {} threw: {}", peer_text(name), e.what());
      return CallToolResult::error(std::string("tool failed: ") + e.what());
    }
  }();
  finish(*r, json_of(std::move(result)));
}

Result<void> ServerSessionImpl::find_resource(ServerRequest& r) {
  auto request = params_of<ResourceRequestParams>(r);
  if (!request) return fail(request.error());
  std::string& uri = request->uri;
  if (uri.size() > server_->opts.max_uri_bytes) {
    return fail(Error::invalid_params("resources/read: uri is " + std::to_string(uri.size()) +
                                      " bytes, over the limit of " + std::to_string(server_->opts.max_uri_bytes) +
                                      " (max_uri_bytes)"));
  }
  r.target = Target{.kind = ListKind::resources, .key = uri, .uri = uri};
  std::lock_guard lock(server_->mu);
  auto it = std::find_if(server_->resources.begin(), server_->resources.end(),
                         [&](const auto& e) { return e.resource.uri == uri; });
  if (it != server_->resources.end()) {
    r.resource_reader = it->reader;
    r.found = true;
    return {};
  }
  // Static resources win over templates; among templates, the first registered that matches.
  for (const auto& t : server_->templates) {
    if (auto m = t.matcher.match(uri)) {
      r.template_reader = t.reader;
      r.variables = std::move(*m);
      r.target->kind = ListKind::resource_templates;
      r.target->key = t.resource_template.uri_template;
      r.found = true;
      break;
    }
  }
  return {};
}

Result<json::value> ServerSessionImpl::read_resource(ServerRequest& r) {
  const std::string& uri = r.target->uri;
  if (r.resource_reader) return json_of(r.resource_reader(uri, r.ctx));
  if (r.template_reader) return json_of(r.template_reader(uri, r.variables, r.ctx));
  return fail(unknown_item_error(*r.target));
}

Result<void> ServerSessionImpl::find_prompt(ServerRequest& r) {
  auto request = params_of<GetPromptRequestParams>(r);
  if (!request) return fail(request.error());
  r.target = Target{.kind = ListKind::prompts, .key = request->name};
  std::lock_guard lock(server_->mu);
  auto it = std::find_if(server_->prompts.begin(), server_->prompts.end(),
                         [&](const auto& e) { return e.prompt.name == request->name; });
  if (it != server_->prompts.end()) {
    r.prompt = *it;
    r.found = true;
  }
  return {};
}

Result<json::value> ServerSessionImpl::get_prompt(ServerRequest& r) {
  if (!r.prompt.handler) return fail(unknown_item_error(*r.target));
  // Decoded again: a stage may have rewritten the arguments (not the prompt, fixed before the chain).
  auto request = params_of<GetPromptRequestParams>(r);
  if (!request) return fail(request.error());
  for (const auto& a : r.prompt.prompt.arguments) {
    if (a.required.value_or(false) && !request->arguments.contains(a.name)) {
      return fail(Error::invalid_params("prompts/get " + peer_text(request->name) + ": missing required argument '" +
                                        a.name + "'"));
    }
  }
  return json_of(r.prompt.handler(request->arguments, r.ctx));
}

Result<json::value> ServerSessionImpl::complete(ServerRequest& r) {
  Completer completer;
  {
    std::lock_guard lock(server_->mu);
    completer = server_->completer;
  }
  if (!completer) return fail(Error::method_not_found(method::kCompletionComplete));
  auto request = params_of<CompleteRequestParams>(r);
  if (!request) return fail(request.error());
  auto result = completer(*request, r.ctx);
  if (!result) return fail(result.error());
  // The specification caps a completion at 100 values.
  if (result->completion.values.size() > 100) {
    if (!result->completion.total) result->completion.total = static_cast<std::int64_t>(result->completion.values.size());
    result->completion.values.resize(100);
    result->completion.has_more = true;
  }
  return to_json(*result);
}

}  // namespace mcp
