// Client::Impl::call_async: a request through the client's chain without a thread waiting for it.
#include <optional>
#include <string>

#include "client/async_call.hpp"
#include "client/client_impl.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/session/thread_pool.hpp"
#include "session/inside.hpp"

namespace mcp {

namespace {

// Why a tools/call result cannot be passed on as it is (call_tool_json_async), if it cannot: the
// members that say what happened have their types. Not the content blocks' members: those are for
// whoever reads the blocks to check (a gateway's own client, decoding them as from any server).
std::optional<std::string> tool_result_shape_error(const json::value& v) {
  const json::object* o = v.if_object();
  if (!o) return "not an object";
  const json::value* content = o->if_contains("content");
  if (!content) return "content: required field is missing";
  if (!content->is_array()) return "content: not an array";
  for (const json::value& block : content->get_array()) {
    const json::object* b = block.if_object();
    const json::value* type = b ? b->if_contains("type") : nullptr;
    if (!type || !type->is_string()) return "content: a block without a string type";
  }
  if (const json::value* e = o->if_contains("isError"); e && !e->is_bool()) return "isError: not a boolean";
  if (const json::value* s = o->if_contains("structuredContent"); s && !s->is_object()) return "structuredContent: not an object";
  if (const json::value* m = o->if_contains("_meta"); m && !m->is_object()) return "_meta: not an object";
  return std::nullopt;
}

}  // namespace

void Client::Impl::call_async(std::string_view capability, std::string_view method, json::object params, CallOptions o,
                              std::function<void(Result<json::value>)> done) {
  if (auto ok = prepare(capability, method, params, o); !ok) return done(fail(ok.error()));
  auto call = std::make_shared<AsyncCall<Impl>>(this);
  auto options = request_options(method, params, o);
  std::string m(method);
  // Kept for the rounds a multi round-trip answer may need; the request is written from it.
  auto sent = std::make_shared<const json::object>(std::move(params));
  // `done` runs on whichever thread ends the call (the reader, the timer, a canceller, the pool),
  // marked as inside this client: if it releases the client, ~Client must not wait for it. The
  // caller's `done` and options (either may hold the client) are moved out of the captures and go
  // while the mark is up: a capture is destroyed after the body, when the mark is gone.
  session->request_async(method, *sent, std::move(options),
                         [this, call, m = std::move(m), sent, o = std::move(o), done = std::move(done)](Result<json::value> r) mutable {
    detail::Inside mark(this);
    auto user_done = std::move(done);
    auto user_o = std::move(o);
    if (!needs_more_rounds(m, r)) return user_done(finish(m, std::move(r)));
    // More rounds block (each may ask this client's handlers, then the server again): on the pool,
    // never on the reader thread this runs on. The call stays counted until the job is done.
    auto job = [this, call, m, sent, o = std::move(user_o), r = std::move(r), done = user_done]() mutable {
      detail::Inside job_mark(this);
      auto job_done = std::move(done);
      auto job_o = std::move(o);
      job_done(finish(m, continue_exchange(m, *sent, job_o, std::move(r))));
    };
    if (!ThreadPool::shared()->post(std::move(job))) user_done(fail(Error::internal("no thread to continue " + m + " on")));
  });
}

template <class T>
void Client::Impl::typed_async(std::string_view capability, std::string_view method, json::object params, CallOptions o,
                               std::function<void(Result<T>)> done) {
  call_async(capability, method, std::move(params), std::move(o),
             [m = std::string(method), done = std::move(done)](Result<json::value> r) {
               if (!r) return done(fail(r.error()));
               auto t = from_json<T>(*r);
               if (!t) return done(fail(Error::internal("invalid " + m + " result from server: " + t.error().message)));
               done(std::move(*t));
             });
}

void Client::call_tool_async(const std::string& name, json::object arguments, CallOptions options,
                             std::function<void(Result<CallToolResult>)> done) {
  impl_->typed_async<CallToolResult>("tools", method::kToolsCall,
                                     json::object{{"name", name}, {"arguments", std::move(arguments)}}, std::move(options),
                                     std::move(done));
}

void Client::call_tool_json_async(const std::string& name, json::object arguments, CallOptions options,
                                  std::function<void(Result<json::object>)> done) {
  impl_->call_async("tools", method::kToolsCall, json::object{{"name", name}, {"arguments", std::move(arguments)}},
                    std::move(options), [done = std::move(done)](Result<json::value> r) {
                      if (!r) return done(fail(r.error()));
                      if (auto bad = tool_result_shape_error(*r)) {
                        return done(fail(Error::internal("invalid tools/call result from server: " + *bad)));
                      }
                      done(std::move(r->get_object()));
                    });
}

void Client::get_prompt_async(const std::string& name, std::map<std::string, std::string> arguments, CallOptions options,
                              std::function<void(Result<GetPromptResult>)> done) {
  json::object args;
  for (auto& [k, v] : arguments) args[k] = v;
  impl_->typed_async<GetPromptResult>("prompts", method::kPromptsGet,
                                      json::object{{"name", name}, {"arguments", std::move(args)}}, std::move(options),
                                      std::move(done));
}

void Client::complete_async(const CompleteRequestParams& params, CallOptions options,
                            std::function<void(Result<CompleteResult>)> done) {
  auto p = to_json(params);
  impl_->typed_async<CompleteResult>("completions", method::kCompletionComplete, std::move(p.as_object()), std::move(options),
                                     std::move(done));
}

void Client::read_resource_async(const std::string& uri, CallOptions options,
                                 std::function<void(Result<ReadResourceResult>)> done) {
  impl_->typed_async<ReadResourceResult>("resources", method::kResourcesRead, json::object{{"uri", uri}},
                                         std::move(options),
                                         // The Impl, not this Client: the answer may come after ~Client
                                         // handed the teardown to the pool (~Client); the call keeps
                                         // the Impl until `done` returns.
                                         [impl = impl_.get(), uri, done = std::move(done)](Result<ReadResourceResult> r) {
                                           done(impl->checked_read(uri, std::move(r)));
                                         });
}

void Client::shutdown() { impl_->shutdown(); }

void Client::Impl::shutdown() {
  stop_listening();
  if (session) session->shutdown();
  std::unique_lock lock(async_mu);
  async_cv.wait(lock, [&] { return async_jobs == 0; });
}

bool Client::Impl::inside_callback() const { return detail::Inside::here(this) || (session && session->inside_callback()); }

void Client::Impl::subscription_async(const std::string& uri, bool on, std::function<void(Result<void>)> done) {
  if (!stateless) {
    call_async("resources.subscribe", on ? method::kResourcesSubscribe : method::kResourcesUnsubscribe,
               json::object{{"uri", uri}}, {}, [done = std::move(done)](Result<json::value> r) {
                 done(r ? Result<void>{} : Result<void>(fail(std::move(r.error()))));
               });
    return;
  }
  change_subscription_async(uri, on, std::move(done));
}

void Client::subscribe_async(const std::string& uri, std::function<void(Result<void>)> done) {
  impl_->subscription_async(uri, true, std::move(done));
}

void Client::unsubscribe_async(const std::string& uri, std::function<void(Result<void>)> done) {
  impl_->subscription_async(uri, false, std::move(done));
}

}  // namespace mcp
