// Client::Impl::call_async: a request through the client's chain without a thread waiting for it.
#include "client/client_impl.hpp"
#include "mcp/session/thread_pool.hpp"

namespace mcp {

void Client::Impl::call_async(std::string_view capability, std::string_view method, json::object params, CallOptions o,
                              std::function<void(Result<json::value>)> done) {
  if (auto ok = prepare(capability, method, params, o); !ok) return done(fail(ok.error()));
  auto options = request_options(method, params, o);
  std::string m(method);
  auto sent = std::make_shared<json::object>(params);
  session->request_async(method, std::move(params), std::move(options),
                         [this, m = std::move(m), sent, o = std::move(o), done = std::move(done)](Result<json::value> r) mutable {
    if (!needs_more_rounds(m, r)) return done(finish(m, std::move(r)));
    // More rounds block (each may ask this client's handlers, then the server again): on the pool,
    // never on the reader thread this runs on. ~Client waits for such a job.
    {
      std::lock_guard lock(async_mu);
      ++async_jobs;
    }
    auto job = [this, m, sent, o, r = std::move(r), done]() mutable {
      done(finish(m, continue_exchange(m, *sent, o, std::move(r))));
      std::lock_guard lock(async_mu);
      --async_jobs;
      async_cv.notify_all();
    };
    if (!ThreadPool::shared()->post(job)) {
      {
        std::lock_guard lock(async_mu);
        --async_jobs;
        async_cv.notify_all();
      }
      done(fail(Error::internal("no thread to continue " + m + " on")));
    }
  });
}

}  // namespace mcp
