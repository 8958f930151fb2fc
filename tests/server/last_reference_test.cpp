// A client or a server's session whose last reference goes inside one of its own callbacks.
//
// Their teardown waits until no callback of theirs runs: from inside one, it would wait for
// itself, forever. Ordinary code gets there: a gateway's upstream Client released by the answer it
// delivers, a proxied request's context released by a cancel read on its session's reader thread
// after its Server went. Each test releases the last reference there and fails (its event never
// comes) if the teardown waits on itself.
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <optional>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/session/thread_pool.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Event;
using mcp::test::make_tool;

namespace {

// The client lives only in `holder`; `done` is the call's callback, given the holder to empty.
struct HeldClient {
  std::shared_ptr<Server> server = std::make_shared<Server>();
  std::shared_ptr<std::shared_ptr<Client>> holder = std::make_shared<std::shared_ptr<Client>>(std::make_shared<Client>());

  void connect() {
    auto [a, b] = make_memory_transport_pair();
    ASSERT_TRUE(server->connect(a));
    auto init = (*holder)->connect(b);
    ASSERT_TRUE(init) << init.error().message;
  }
};

TEST(LastReference, AClientReleasedByTheAnswerItDeliversClosesWithoutWaitingOnItself) {
  HeldClient h;
  h.server->add_tool(make_tool("echo"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("hi");
  });
  h.connect();
  auto released = std::make_shared<Event>();
  Client* client = h.holder->get();
  // The answer arrives on the client's reader thread; the callback drops the last reference there.
  client->call_tool_async("echo", {}, {}, [holder = h.holder, released](Result<CallToolResult> r) {
    EXPECT_TRUE(r) << r.error().message;
    holder->reset();
    released->set();
  });
  ASSERT_TRUE(released->wait()) << "~Client waited for the callback it ran in";
  // What it handed to the pool (the wait for its callbacks, then the Impl's release) finishes.
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(10s));
}

TEST(LastReference, AClientReleasedByItsCallsTimeoutClosesWithoutWaitingOnItself) {
  HeldClient h;
  std::mutex mu;
  std::optional<Reply<CallToolResult>> unanswered;  // the call never gets its answer
  h.server->add_async_tool(make_tool("never"), [&](const json::object&, std::shared_ptr<RequestContext>, Reply<CallToolResult> reply) {
    std::lock_guard lock(mu);
    unanswered = std::move(reply);
  });
  h.connect();
  auto released = std::make_shared<Event>();
  CallOptions o;
  o.timeout = 50ms;
  // The timeout ends the call on the timer's thread, which then holds the last reference.
  h.holder->get()->call_tool_async("never", {}, o, [holder = h.holder, released](Result<CallToolResult> r) {
    EXPECT_FALSE(r);
    holder->reset();
    released->set();
  });
  ASSERT_TRUE(released->wait()) << "~Client waited for the callback it ran in";
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(10s));
  h.server.reset();
  std::lock_guard lock(mu);
  unanswered.reset();
}

// Sets its event when destroyed: tells that what held it went, after what was captured before it.
struct SetWhenGone {
  std::shared_ptr<Event> gone = std::make_shared<Event>();
  ~SetWhenGone() { gone->set(); }
};

TEST(LastReference, AClientHeldByItsCallsCallbackIsReleasedWhenTheCallbackGoesAfterATimeout) {
  HeldClient h;
  std::mutex mu;
  std::optional<Reply<CallToolResult>> unanswered;
  h.server->add_async_tool(make_tool("never"), [&](const json::object&, std::shared_ptr<RequestContext>, Reply<CallToolResult> reply) {
    std::lock_guard lock(mu);
    unanswered = std::move(reply);
  });
  h.connect();
  auto probe = std::make_shared<SetWhenGone>();
  auto gone = probe->gone;
  std::shared_ptr<Client> client = std::move(*h.holder);
  CallOptions o;
  o.timeout = 50ms;
  // The callback only holds the client: its last reference goes with the callback itself, on the
  // timer's thread, after the callback has run. Captures go in reverse: the client, then the probe.
  client->call_tool_async("never", {}, o, [probe = std::move(probe), client](Result<CallToolResult> r) { EXPECT_FALSE(r); });
  client.reset();
  ASSERT_TRUE(gone->wait()) << "~Client, run as the callback went, waited for that callback's call";
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(10s));
  h.server.reset();
  std::lock_guard lock(mu);
  unanswered.reset();
}

TEST(LastReference, AClientReleasedByItsOwnSamplingHandlerOutlivesTheHandler) {
  HeldClient h;
  h.server->add_async_tool(make_tool("ask"), [](const json::object&, std::shared_ptr<RequestContext> ctx, Reply<CallToolResult> reply) {
    ctx->create_message_async(json::object{{"messages", json::array{}}, {"maxTokens", 5}},
                              [reply](Result<json::value> answer) {
                                reply(answer ? CallToolResult::text("sampled") : CallToolResult::error(answer.error().message));
                              });
  });
  auto released = std::make_shared<Event>();
  // A session's own requests to its client: 2025-11-25. The handler, run on a pool thread, drops
  // the last reference to the client it belongs to, then goes on using what it captured (freed
  // memory, which AddressSanitizer reports, if ~Client freed the handler under it).
  ClientOptions co = mcp::test::handshake();
  auto holder = h.holder;
  co.on_sampling = [holder, released](const json::object&, const CancellationToken&) -> Result<json::value> {
    holder->reset();
    released->set();
    return json::object{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "s"}}}, {"model", std::string(64, 'm')}};
  };
  *h.holder = std::make_shared<Client>(co);
  h.connect();
  auto done = std::make_shared<Event>();
  (*h.holder)->call_tool_async("ask", {}, {}, [done](Result<CallToolResult>) { done->set(); });
  ASSERT_TRUE(released->wait());
  // The client's teardown ends the call (the connection closes under it) and then frees it.
  ASSERT_TRUE(done->wait());
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(10s));
}

TEST(LastReference, ASessionReleasedOnItsReaderThreadAfterItsServerWentIsFreed) {
  auto server = std::make_unique<Server>();
  // An asynchronous handler keeps its request until the request is cancelled, and lets it go
  // inside the cancel: on the session's reader thread, delivering the close.
  struct Held {
    std::mutex mu;
    std::shared_ptr<RequestContext> ctx;
    std::optional<Reply<CallToolResult>> reply;
  };
  auto held = std::make_shared<Held>();
  auto started = std::make_shared<Event>();
  auto let_go = std::make_shared<Event>();
  auto server_gone = std::make_shared<Event>();
  server->add_async_tool(make_tool("hold"), [held, started, let_go, server_gone](const json::object&, std::shared_ptr<RequestContext> ctx,
                                                                                 Reply<CallToolResult> reply) {
    {
      std::lock_guard lock(held->mu);
      held->ctx = ctx;
      held->reply = std::move(reply);
    }
    ctx->cancellation().on_cancel([held, let_go, server_gone] {
      // ~Server has returned, its references to the session dropped: the held request's is the last.
      EXPECT_TRUE(server_gone->wait());
      {
        std::lock_guard lock(held->mu);
        held->reply.reset();
        held->ctx.reset();  // the session's last reference, once its Server is gone
      }
      let_go->set();
    });
    started->set();
  });
  auto [a, b] = make_memory_transport_pair();
  std::weak_ptr<ServerSession> session;
  {
    auto connected = server->connect(a);
    ASSERT_TRUE(connected);
    session = *connected;
  }
  Client client;
  ASSERT_TRUE(client.connect(b));
  client.call_tool_async("hold", {}, {}, [](Result<CallToolResult>) {});
  ASSERT_TRUE(started->wait());
  // The Server goes first: it closes its session, whose last holder is now the held request.
  server.reset();
  server_gone->set();
  ASSERT_TRUE(let_go->wait()) << "the session's teardown waited for the reader thread it ran on";
  ASSERT_TRUE(ThreadPool::shared()->wait_idle(10s));
  EXPECT_TRUE(session.expired()) << "the session was never freed";
}

}  // namespace
