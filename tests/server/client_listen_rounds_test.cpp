// The client's subscriptions/listen over MCP 2026-07-28 goes out in rounds (src/client/listen.cpp):
// subscription changes made while a listen waits for its acknowledgement wait for the next round,
// which carries them all in one listen; nothing waits on a thread meanwhile; a listen the server
// never acknowledges is taken as in force after probe_timeout. Before, every change was a listen
// of its own, sent and waited for on a pool thread, one after another.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"
#include "mcp/session/thread_pool.hpp"
#include "server/tools.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Connected;

namespace {

constexpr auto kBound = 10s;

// Files under mem:///: the watch of mem:///slow waits for the test (answer_slow_watch()), every
// other one comes at once.
struct Files {
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::function<void(Result<void>)>> slow_watches;  // guarded by mu
  };
  std::shared_ptr<State> state = std::make_shared<State>();
  std::shared_ptr<Server> server = std::make_shared<Server>();

  Files() {
    ResourceTemplate files;
    files.uri_template = "mem:///{name}";
    files.name = "file";
    auto added = server->add_resource_template(
        files,
        [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) -> Result<ReadResourceResult> {
          ReadResourceResult r;
          r.contents.push_back(TextResourceContents{.uri = uri, .text = "x"});
          return r;
        },
        ResourceTree{.watch_async = [st = state](const std::string& uri, bool on, std::function<void(Result<void>)> done) {
          if (uri != "mem:///slow" || !on) return done({});
          std::lock_guard lock(st->mu);
          st->slow_watches.push_back(std::move(done));
          st->cv.notify_all();
        }});
    EXPECT_TRUE(added);
  }
  bool wait_slow_watch() {
    std::unique_lock lock(state->mu);
    return state->cv.wait_for(lock, kBound, [&] { return !state->slow_watches.empty(); });
  }
  void answer_slow_watch() {
    std::function<void(Result<void>)> done;
    {
      std::lock_guard lock(state->mu);
      done = state->slow_watches.at(0);
    }
    done({});
  }
};

// The client's end of the connection, counting the subscriptions/listen requests it sends.
class CountingListens final : public Transport {
 public:
  explicit CountingListens(std::shared_ptr<Transport> inner) : inner_(std::move(inner)) {}
  Result<void> start(Callbacks cb) override { return inner_->start(std::move(cb)); }
  Result<void> send(std::string frame, const SendInfo& info) override {
    if (frame.find("\"subscriptions/listen\"") != std::string::npos) ++listens;
    return inner_->send(std::move(frame), info);
  }
  void close() override { inner_->close(); }
  std::atomic<int> listens{0};

 private:
  std::shared_ptr<Transport> inner_;
};

// Our client on `server` over a memory link whose client end counts listens.
struct Counted {
  std::shared_ptr<ServerSession> session;
  std::shared_ptr<CountingListens> link;
  std::unique_ptr<Client> client;
  Counted(const std::shared_ptr<Server>& server, ClientOptions co) {
    auto [a, b] = make_memory_transport_pair();
    auto connected = server->connect(a);
    EXPECT_TRUE(connected);
    if (connected) session = *connected;
    link = std::make_shared<CountingListens>(b);
    client = std::make_unique<Client>(std::move(co));
    auto init = client->connect(link);
    EXPECT_TRUE(init) << init.error().message;
  }
  ~Counted() {
    client.reset();
    if (session) session->close();
  }
};

ClientOptions stateless(std::chrono::milliseconds probe_timeout = 10s) {
  ClientOptions co;
  co.protocol_version = "2026-07-28";
  co.probe_timeout = probe_timeout;
  return co;
}

using Answer = std::shared_ptr<std::promise<Result<void>>>;

Answer subscribe(Client& c, const std::string& uri) {
  auto a = std::make_shared<std::promise<Result<void>>>();
  c.subscribe_async(uri, [a](Result<void> r) { a->set_value(std::move(r)); });
  return a;
}

TEST(ClientListenRounds, ChangesMadeWhileAListenWaitsGoTogetherInTheNextOne) {
  Files files;
  Counted c(files.server, stateless());
  const int before = c.link->listens.load();
  auto r = subscribe(*c.client, "mem:///slow")->get_future();
  ASSERT_TRUE(files.wait_slow_watch());  // the first round's listen waits for this watch
  std::vector<Answer> more;
  for (int i = 0; i < 10; ++i) more.push_back(subscribe(*c.client, "mem:///f" + std::to_string(i)));
  // Nothing waits on a thread for the listen meanwhile.
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(std::chrono::milliseconds(5000))) << "a thread waits for the listen";
  EXPECT_EQ(r.wait_for(0s), std::future_status::timeout) << "answered before its listen was in force";
  files.answer_slow_watch();
  ASSERT_EQ(r.wait_for(kBound), std::future_status::ready);
  EXPECT_TRUE(r.get());
  for (auto& m : more) {
    auto f = m->get_future();
    ASSERT_EQ(f.wait_for(kBound), std::future_status::ready);
    auto got = f.get();
    EXPECT_TRUE(got) << got.error().message;
  }
  // One listen for the first change, one for the ten made while it waited.
  EXPECT_EQ(c.link->listens.load() - before, 2);
}

TEST(ClientListenRounds, AListenNeverAcknowledgedIsTakenAsInForceAfterTheProbeTimeout) {
  Files files;
  Connected c(files.server, stateless(200ms));
  auto first = subscribe(*c.client, "mem:///slow");
  ASSERT_TRUE(files.wait_slow_watch());  // never answered: the server never acknowledges the listen
  auto r = first->get_future();
  ASSERT_EQ(r.wait_for(kBound), std::future_status::ready);
  EXPECT_TRUE(r.get());
  // The next change is a round of its own, in force as usual.
  auto second = subscribe(*c.client, "mem:///other")->get_future();
  ASSERT_EQ(second.wait_for(kBound), std::future_status::ready);
  EXPECT_TRUE(second.get());
}

TEST(ClientListenRounds, WhatStillWaitsWhenTheClientClosesIsToldSo) {
  Files files;
  Connected c(files.server, stateless());
  auto first = subscribe(*c.client, "mem:///slow");
  ASSERT_TRUE(files.wait_slow_watch());
  auto second = subscribe(*c.client, "mem:///other");
  c.client->close();
  int i = 0;
  for (auto* a : {&first, &second}) {
    auto f = (*a)->get_future();
    ASSERT_EQ(f.wait_for(kBound), std::future_status::ready);
    EXPECT_FALSE(f.get()) << "subscribe " << i;
    ++i;
  }
}

}  // namespace
