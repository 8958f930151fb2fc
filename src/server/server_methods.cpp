// The server side of the methods that use an item: call, read, get, complete (lists: server_lists.cpp).
// Handlers are copied out of the registry under its lock and run outside it, so a slow handler
// never blocks registration or other requests.
#include <algorithm>

#include "log/log.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

Result<std::string> required_string(const json::object& params, std::string_view key, std::string_view method) {
  const json::value* v = params.if_contains(key);
  if (!v || !v->is_string()) {
    return fail(Error::invalid_params(std::string(method) + ": " + std::string(key) + " must be a string"));
  }
  return std::string(v->get_string());
}

}  // namespace

Result<json::value> ServerSessionImpl::call_tool(const json::object& params, RequestContext& ctx) {
  auto name = required_string(params, "name", "tools/call");
  if (!name) return fail(name.error());
  json::object args;
  if (auto a = params.if_contains("arguments"); a && !a->is_null()) {
    if (!a->is_object()) return fail(Error::invalid_params("tools/call: arguments must be an object"));
    args = a->get_object();
  }
  ToolHandler handler;
  std::optional<Tool> tool;  // copied only when an availability hook needs to see it
  {
    std::lock_guard lock(server_->mu);
    auto it = std::find_if(server_->tools.begin(), server_->tools.end(), [&](const auto& e) { return e.tool.name == *name; });
    if (it != server_->tools.end()) {
      handler = it->handler;
      if (server_->hooks.tool) tool = it->tool;
    }
  }
  // An unknown tool is a protocol error (-32602), per the tools specification; so is one this
  // request may not see (undeclared, or unavailable to it), which must look no different.
  if (!handler || !usable(ListKind::tools, *name, tool ? &*tool : nullptr, ctx))
    return fail(Error::invalid_params("Unknown tool: " + peer_text(*name)));
  Result<CallToolResult> r = [&]() -> Result<CallToolResult> {
    try {
      return handler(args, ctx);
    } catch (const std::exception& e) {
      // A tool that throws reports a tool error the model can see, as the reference SDK does.
      MCP_LOG_ERROR("server: tool {} threw: {}", peer_text(*name), e.what());
      return CallToolResult::error(std::string("tool failed: ") + e.what());
    }
  }();
  if (!r) return fail(r.error());
  return to_json(*r);
}

Result<json::value> ServerSessionImpl::read_resource(const json::object& params, RequestContext& ctx) {
  auto uri = required_string(params, "uri", "resources/read");
  if (!uri) return fail(uri.error());
  if (uri->size() > server_->opts.max_uri_bytes) {
    return fail(Error::invalid_params("resources/read: uri is " + std::to_string(uri->size()) +
                                      " bytes, over the limit of " + std::to_string(server_->opts.max_uri_bytes) +
                                      " (max_uri_bytes)"));
  }
  ResourceReader reader;
  TemplateReader treader;
  UriTemplate::Variables vars;
  std::string matched_template;
  {
    std::lock_guard lock(server_->mu);
    auto it = std::find_if(server_->resources.begin(), server_->resources.end(),
                           [&](const auto& e) { return e.resource.uri == *uri; });
    if (it != server_->resources.end()) {
      reader = it->reader;
    } else {
      // Static resources win over templates; among templates, the first registered that matches.
      for (const auto& t : server_->templates) {
        if (auto m = t.matcher.match(*uri)) {
          treader = t.reader;
          vars = std::move(*m);
          matched_template = t.resource_template.uri_template;
          break;
        }
      }
    }
  }
  // Hidden from this request, or outside the signature: as if it did not exist.
  if ((reader && !usable(ListKind::resources, *uri, nullptr, ctx)) ||
      (treader && !usable(ListKind::resource_templates, matched_template, nullptr, ctx))) {
    reader = nullptr;
    treader = nullptr;
  }
  Result<ReadResourceResult> r = reader ? reader(*uri, ctx)
                                 : treader ? treader(*uri, vars, ctx)
                                           : Result<ReadResourceResult>(fail(Error{
                                                 error_code::kResourceNotFound, "Resource not found: " + peer_text(*uri),
                                                 json::object{{"uri", *uri}}}));
  if (!r) return fail(r.error());
  return to_json(*r);
}

Result<json::value> ServerSessionImpl::get_prompt(const json::object& params, RequestContext& ctx) {
  auto req = from_json<GetPromptRequestParams>(params);
  if (!req) return fail(req.error());
  PromptHandler handler;
  std::vector<PromptArgument> declared;
  {
    std::lock_guard lock(server_->mu);
    auto it = std::find_if(server_->prompts.begin(), server_->prompts.end(),
                           [&](const auto& e) { return e.prompt.name == req->name; });
    if (it != server_->prompts.end()) {
      handler = it->handler;
      declared = it->prompt.arguments;
    }
  }
  if (!handler || !usable(ListKind::prompts, req->name, nullptr, ctx))
    return fail(Error::invalid_params("Unknown prompt: " + peer_text(req->name)));
  for (const auto& a : declared) {
    if (a.required.value_or(false) && !req->arguments.contains(a.name)) {
      return fail(Error::invalid_params("prompts/get " + peer_text(req->name) + ": missing required argument '" + a.name + "'"));
    }
  }
  auto r = handler(req->arguments, ctx);
  if (!r) return fail(r.error());
  return to_json(*r);
}

Result<json::value> ServerSessionImpl::complete(const json::object& params, RequestContext& ctx) {
  Completer completer;
  {
    std::lock_guard lock(server_->mu);
    completer = server_->completer;
  }
  if (!completer) return fail(Error::method_not_found("completion/complete"));
  auto req = from_json<CompleteRequestParams>(params);
  if (!req) return fail(req.error());
  auto r = completer(*req, ctx);
  if (!r) return fail(r.error());
  // The specification caps a completion at 100 values.
  if (r->completion.values.size() > 100) {
    if (!r->completion.total) r->completion.total = static_cast<std::int64_t>(r->completion.values.size());
    r->completion.values.resize(100);
    r->completion.has_more = true;
  }
  return to_json(*r);
}

}  // namespace mcp
