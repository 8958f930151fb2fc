// The connection cap's admission (ServerState::admit_connection), without sockets: which connection
// is shed at the cap, when a new one is refused, and that connections chosen to be shed keep
// counting until their sockets are closed, so a flood accepted faster than they close cannot take
// the process past its descriptor reserve (the CI failure of HttpFdLimit under ASan at -j2 is the
// situation this bounds: the accept loop running ahead of the connections' threads).
#include <gtest/gtest.h>

#include "http/server_impl.hpp"

namespace mcp::http {
namespace {

class Admission : public ::testing::Test {
 protected:
  Admission() : state(nullptr, HttpServerOptions{}) { state.connection_cap = 4; }

  // A connection as its coroutine would register it: waiting for a request, with a `shed` that
  // records the call instead of closing anything.
  std::shared_ptr<ConnectionControl> admit_reading() {
    auto a = state.admit_connection();
    if (!a.control) return nullptr;
    std::lock_guard lock(state.conn_mu);
    a.control->since = Clock::now() + std::chrono::microseconds(++tick);
    a.control->shed = [this, c = a.control.get()] { shed.push_back(c); };
    return a.control;
  }

  ServerState state;
  std::vector<ConnectionControl*> shed;
  int tick = 0;
};

TEST_F(Admission, AtTheCapTheLongestWaitingConnectionIsShed) {
  std::vector<std::shared_ptr<ConnectionControl>> held;
  for (int i = 0; i < 4; ++i) held.push_back(admit_reading());
  ASSERT_TRUE(shed.empty());
  auto fifth = admit_reading();
  ASSERT_TRUE(fifth);
  ASSERT_EQ(shed.size(), 1u);
  EXPECT_EQ(shed[0], held[0].get());
  EXPECT_EQ(state.connection_count(), 4u);
  EXPECT_EQ(state.shedding, 1u);
}

TEST_F(Admission, BusyConnectionsAreNeverShedAndAFullServerRefuses) {
  std::vector<std::shared_ptr<ConnectionControl>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(admit_reading());
    state.set_phase(*held.back(), ConnectionControl::Phase::busy);
  }
  auto a = state.admit_connection();
  EXPECT_FALSE(a.control);
  EXPECT_FALSE(a.later);  // nothing is closing: refused now, not retried
  EXPECT_TRUE(shed.empty());
}

TEST_F(Admission, ShedConnectionsCountUntilTheirSocketsCloseAndAdmissionWaitsForThem) {
  std::vector<std::shared_ptr<ConnectionControl>> held;
  for (int i = 0; i < 4; ++i) held.push_back(admit_reading());
  // A flood the connections' threads have not caught up with: every admission sheds one more.
  std::size_t admitted = 0;
  for (std::size_t i = 0; i < 100; ++i) {
    auto c = admit_reading();
    if (!c) break;
    held.push_back(std::move(c));
    ++admitted;
  }
  EXPECT_EQ(admitted, ServerState::kMaxShedding);
  auto a = state.admit_connection();
  EXPECT_FALSE(a.control);
  EXPECT_TRUE(a.later);  // to be retried once a shed socket has closed
  // One shed connection's coroutine ends (its socket closed): room for exactly one more.
  state.forget_connection(held[0]);
  EXPECT_EQ(state.shedding, ServerState::kMaxShedding - 1);
  EXPECT_TRUE(admit_reading());
  EXPECT_TRUE(state.admit_connection().later);
  EXPECT_EQ(state.connection_count(), 4u);
}

TEST_F(Admission, WhenOnlyClosingConnectionsCouldMakeRoomTheNewOneWaits) {
  std::vector<std::shared_ptr<ConnectionControl>> held;
  for (int i = 0; i < 4; ++i) held.push_back(admit_reading());
  held.push_back(admit_reading());  // sheds held[0]
  for (std::size_t i = 1; i < held.size(); ++i) state.set_phase(*held[i], ConnectionControl::Phase::busy);
  auto a = state.admit_connection();
  EXPECT_FALSE(a.control);
  EXPECT_TRUE(a.later);
  state.forget_connection(held[0]);
  EXPECT_EQ(state.shedding, 0u);
  a = state.admit_connection();
  EXPECT_FALSE(a.control);
  EXPECT_FALSE(a.later);
}

}  // namespace
}  // namespace mcp::http
