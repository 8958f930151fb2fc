// Hostile peers over stdio pipes: a peer that stops reading, a transport closed from inside its own
// callback, and a server that answers with more than the client accepts. Real pipes, bounded waits.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "mcp/client/client.hpp"
#include "mcp/stdio/stdio.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;

namespace {

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() { EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0); }
  ~Pipe() {
    for (int fd : fds) if (fd >= 0) ::close(fd);
  }
  int take_read() { return std::exchange(fds[0], -1); }
  int take_write() { return std::exchange(fds[1], -1); }
};

}  // namespace

// A send blocked on a peer that never reads must not hold close() (the write used to block under
// the write mutex that close() takes).
TEST(StdioHostile, APeerThatStopsReadingCannotBlockClose) {
  Pipe to_us, to_peer;  // the peer never reads to_peer
  auto t = make_fd_transport(to_us.take_read(), to_peer.take_write());
  ASSERT_TRUE(t->start({[](std::string) {}, [](std::optional<Error>) {}}));
  auto sender = std::async(std::launch::async, [&] { return t->send(std::string(4 << 20, 'x'), SendInfo{}); });
  // The 4 MiB cannot fit the pipe: the send is stuck until close().
  EXPECT_EQ(sender.wait_for(200ms), std::future_status::timeout);
  t->close();
  ASSERT_EQ(sender.wait_for(10s), std::future_status::ready) << "close() did not wake the blocked send";
  auto r = sender.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kConnectionClosed);
}

// A peer that does not read for write_timeout ends the transport, with a reason that says so.
TEST(StdioHostile, APeerThatStopsReadingTimesOut) {
  Pipe to_us, to_peer;
  auto t = make_fd_transport(to_us.take_read(), to_peer.take_write(), FdTransportOptions{.write_timeout = 200ms});
  auto closed = std::make_shared<std::promise<std::optional<Error>>>();
  ASSERT_TRUE(t->start({[](std::string) {}, [closed](std::optional<Error> e) { closed->set_value(std::move(e)); }}));
  auto r = t->send(std::string(4 << 20, 'x'), SendInfo{});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("write_timeout"), std::string::npos) << r.error().message;
  auto f = closed->get_future();
  ASSERT_EQ(f.wait_for(10s), std::future_status::ready);
  auto reason = f.get();
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->message.find("stopped reading"), std::string::npos) << reason->message;
}

// Closing a transport from inside its own on_message callback must not deadlock.
TEST(StdioHostile, CloseFromInsideItsOwnCallback) {
  Pipe to_us, to_peer;
  int peer_write = to_us.take_write();
  auto t = make_fd_transport(to_us.take_read(), to_peer.take_write());
  std::shared_ptr<Transport> self = t;
  test::Event closed;
  ASSERT_TRUE(t->start({[&](std::string) { self->close(); }, [&](std::optional<Error>) { closed.set(); }}));
  ASSERT_EQ(::write(peer_write, "{}\n", 3), 3);
  EXPECT_TRUE(closed.wait()) << "on_close never came: close() from the callback deadlocked";
  ::close(peer_write);
}

// A server that answers with more than max_message_bytes ends the client at once, naming the limit
// (it used to be dropped, leaving the request to wait out its whole timeout).
TEST(StdioHostile, OversizedServerMessageEndsTheClientNamingTheLimit) {
  Pipe to_client, to_server;
  const int server_reads = to_server.take_read(), server_writes = to_client.take_write();
  auto t = make_fd_transport(to_client.take_read(), to_server.take_write());
  std::thread server([&] {
    std::string line;
    char c;
    while (::read(server_reads, &c, 1) == 1 && c != '\n') line.push_back(c);  // the initialize request
    std::string huge = R"({"jsonrpc":"2.0","id":0,"result":{"pad":")" + std::string(5 << 20, 'a') + "\"}}\n";
    for (std::string_view rest = huge; !rest.empty();) {
      auto n = ::write(server_writes, rest.data(), rest.size());
      if (n <= 0) break;
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    ::close(server_writes);
    ::close(server_reads);
  });
  ClientOptions co;
  co.session.request_timeout = 120s;  // a wait for the timeout would fail the ctest timeout, not pass
  Client client(co);
  auto init = client.connect(t);
  server.join();
  ASSERT_FALSE(init);
  EXPECT_NE(init.error().code, error_code::kRequestTimeout);
  EXPECT_NE(init.error().message.find("max_message_bytes"), std::string::npos) << init.error().message;
}
