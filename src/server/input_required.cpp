// Multi round-trip on the server (RequestContext::input_required; mcp/protocol/input_required.hpp).
//
// One handler serves both revisions. For a stateless (2026-07-28) request, what it asks for is
// answered as an InputRequiredResult whose requestState is signed (request_state.hpp), and the
// client's retry, a new request, reaches the handler with the answers and the state. In a
// 2025-11-25 session the server asks the client itself, with the session's own requests, and runs
// the handler again with the answers (server_methods.cpp drives the rounds).
#include <mutex>

#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/elicitation.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/roots.hpp"
#include "mcp/protocol/sampling.hpp"
#include "server/server_session.hpp"

namespace mcp {

namespace {

// What a signed state is bound to: the request it came from (method and item) and the caller, so
// that it is refused on any other request or for anyone else. The arguments are not bound: a
// retry carries the original ones, and a handler that depends on them reads them again.
std::string binding_of(const ServerRequest& r) {
  std::string binding(r.in.method);
  const json::object& p = r.in.params;
  const json::value* item = p.if_contains(method::item_param(r.in.method));
  binding += '\n';
  if (item && item->is_string()) binding += item->get_string();
  binding += '\n';
  if (r.ctx.identity()) binding += *r.ctx.identity();
  return binding;
}

// {"a": {"b": {}}} for "a.b".
json::object capability_object(std::string_view path) {
  const auto dot = path.find('.');
  if (dot == std::string_view::npos) return json::object{{path, json::object{}}};
  return json::object{{path.substr(0, dot), json::object{{path.substr(dot + 1), json::object{}}}}};
}

// The answer to one input request must be the result its method returns.
Result<void> check_response(std::string_view key, std::string_view m, const json::value& answer) {
  Result<void> ok;
  if (m == method::kElicitationCreate) {
    if (auto r = from_json<ElicitResult>(answer); !r) ok = fail(r.error());
  } else if (m == method::kSamplingCreateMessage) {
    if (auto r = from_json<CreateMessageResult>(answer); !r) ok = fail(r.error());
  } else if (m == method::kRootsList) {
    if (auto r = from_json<ListRootsResult>(answer); !r) ok = fail(r.error());
  }
  if (ok) return ok;
  return fail(Error::invalid_params("inputResponses[\"" + peer_text(key) + "\"] does not answer " + std::string(m) +
                                    ": " + ok.error().message));
}

// Each request needs a capability the client declared on this request (mrtr.mdx, Server
// Requirements 6): -32021 naming what is missing, as an object.
Result<void> check_input_requests(const RequestContext& ctx, const InputRequests& requests) {
  json::object required;
  for (const auto& [key, request] : requests) {
    const std::string_view capability = input_request_capability(request);
    if (capability.empty()) {
      return fail(Error::internal("the handler asked the client for " + peer_text(request.method) + " (input request '" +
                                  peer_text(key) + "'), which no client serves"));
    }
    required = merge_capabilities(std::move(required), capability_object(capability));
  }
  json::object missing = missing_capabilities(required, ctx.client_capabilities());
  if (missing.empty()) return {};
  return fail(Error{error_code::kMissingRequiredClientCapability,
                    "the request needs the client's input through capabilities it did not declare: " +
                        json::serialize(missing),
                    json::object{{"requiredCapabilities", std::move(missing)}}});
}

}  // namespace

Result<void> ServerSessionImpl::accept_input(ServerRequest& r) {
  const json::object& p = r.in.params;
  json::object responses;
  if (const json::value* v = p.if_contains("inputResponses"); v && !v->is_null()) {
    const json::object* answers = v->if_object();
    if (!answers) return fail(Error::invalid_params("inputResponses: expected an object of answers by key"));
    for (const auto& [key, answer] : *answers) {
      if (!answer.is_object()) {
        return fail(Error::invalid_params("inputResponses[\"" + peer_text(key) +
                                          "\"]: expected an object (an ElicitResult, CreateMessageResult or "
                                          "ListRootsResult)"));
      }
    }
    responses = *answers;
  }
  std::optional<json::value> state;
  if (const json::value* v = p.if_contains("requestState"); v && !v->is_null()) {
    if (!v->is_string()) return fail(Error::invalid_params("requestState: expected the string the server sent"));
    auto payload = server_->request_states.open(v->get_string(), binding_of(r));
    if (!payload) return fail(payload.error());
    const json::object* opened = payload->if_object();
    // What the server asked for last time: the answers to it must be what each method returns.
    // (Extra answers are ignored, as the specification asks.)
    if (const json::value* asked = opened ? opened->if_contains("asked") : nullptr; asked && asked->is_object()) {
      for (const auto& [key, m] : asked->get_object()) {
        const json::value* answer = responses.if_contains(key);
        if (!answer || !m.is_string()) continue;
        if (auto ok = check_response(key, m.get_string(), *answer); !ok) return ok;
      }
    }
    if (const json::value* s = opened ? opened->if_contains("state") : nullptr) state = *s;
  }
  r.ctx.set_input(std::move(responses), std::move(state));
  return {};
}

Result<json::value> ServerSessionImpl::input_required_result(ServerRequest& r, const InputAsked& asked) {
  if (auto ok = check_input_requests(r.ctx, asked.requests); !ok) return fail(ok.error());
  json::object methods;
  for (const auto& [key, request] : asked.requests) methods[key] = request.method;
  json::object payload{{"asked", std::move(methods)}};
  if (asked.state) payload["state"] = *asked.state;
  auto sealed = server_->request_states.seal(payload, binding_of(r));
  if (!sealed) return fail(sealed.error());
  return json::value(to_json(InputRequiredResult{.input_requests = asked.requests, .request_state = std::move(*sealed)}));
}

namespace {

// One input request sent as the session's own request, blocking or not.
Result<json::value> ask(RequestContext& ctx, const InputRequest& request) {
  json::object params = request.params.value_or(json::object{});
  if (request.method == method::kElicitationCreate) return ctx.elicit(std::move(params));
  if (request.method == method::kSamplingCreateMessage) return ctx.create_message(std::move(params));
  return ctx.list_roots();
}

void ask_async(RequestContext& ctx, const InputRequest& request, RequestContext::Done done) {
  json::object params = request.params.value_or(json::object{});
  if (request.method == method::kElicitationCreate) ctx.elicit_async(std::move(params), std::move(done));
  else if (request.method == method::kSamplingCreateMessage) ctx.create_message_async(std::move(params), std::move(done));
  else ctx.list_roots_async(std::move(done));
}

}  // namespace

Result<void> ServerSessionImpl::next_input_round(ServerRequest& r, const InputAsked& asked) {
  if (++r.input_rounds > server_->opts.max_input_rounds) {
    return fail(Error::internal("the handler of " + peer_text(r.in.method) + " asked for the client's input " +
                                std::to_string(r.input_rounds) + " times, over the limit of " +
                                std::to_string(server_->opts.max_input_rounds) + " (max_input_rounds)"));
  }
  return check_input_requests(r.ctx, asked.requests);
}

Result<void> ServerSessionImpl::gather_input(ServerRequest& r, InputAsked asked) {
  if (auto ok = next_input_round(r, asked); !ok) return ok;
  json::object responses;
  for (const auto& [key, request] : asked.requests) {
    auto answer = ask(r.ctx, request);
    if (!answer) return fail(answer.error());
    responses[key] = std::move(*answer);
  }
  r.ctx.set_input(std::move(responses), std::move(asked.state));
  return {};
}

void ServerSessionImpl::gather_input_async(const std::shared_ptr<ServerRequest>& r, InputAsked asked,
                                           std::function<void(Result<void>)> done) {
  if (auto ok = next_input_round(*r, asked); !ok) {
    done(ok);
    return;
  }
  if (asked.requests.empty()) {
    r->ctx.set_input({}, std::move(asked.state));
    done({});
    return;
  }
  // The answers arrive on whichever thread reads them; the last one (or the first failure) ends
  // the round.
  struct Round {
    std::mutex mu;
    json::object responses;
    std::size_t left;
    bool over = false;
    std::optional<json::value> state;
    std::function<void(Result<void>)> done;
  };
  auto round = std::make_shared<Round>();
  round->left = asked.requests.size();
  round->state = std::move(asked.state);
  round->done = std::move(done);
  for (const auto& [key, request] : asked.requests) {
    ask_async(r->ctx, request, [r, round, key](Result<json::value> answer) {
      std::unique_lock lock(round->mu);
      if (round->over) return;
      if (!answer) {
        round->over = true;
        lock.unlock();
        round->done(fail(answer.error()));
        return;
      }
      round->responses[key] = std::move(*answer);
      if (--round->left > 0) return;
      round->over = true;
      r->ctx.set_input(std::move(round->responses), std::move(round->state));
      lock.unlock();
      round->done({});
    });
  }
}

}  // namespace mcp
