// kill -9 of the real `mcp-trust gateway`, while calls are in flight: every call whose answer a
// client had (forwarded or refused), every pin and every approval the CLI acknowledged is in the
// state folder afterwards, and the audit chain verifies. The library's own kill -9 tests
// (state_test, call_journal_test) fork a child that uses the library; this one kills the program
// people run, between decisions it makes on its own threads.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "../examples/tmp_dir.hpp"
#include "gateway/call_record.hpp"
#include "gateway_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/stdio/child_process.hpp"
#include "mcp/trust/jcs.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;

namespace {

// The digest a call record keeps of `arguments` (what the test recognises each call by).
std::string digest_of(const json::object& arguments) { return gateway::arguments_digest(trust::canonicalize(arguments)); }

TEST(GatewayKillNine, NothingAcknowledgedIsLostWhenTheGatewayIsKilledMidFlight) {
  mcp::test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  ChildProcessOptions po;
  po.program = bin("mcp-trust");
  // Every tool is held as new until a person approves it: an approval is one of the decisions
  // that must survive.
  po.args = {"gateway", "--stdio", "--state", state, "--name", "fm", "--new-items", "quarantine", "--", bin("file-manager")};
  auto child = ChildProcessTransport::spawn(po);
  ASSERT_TRUE(child) << child.error().message;
  const int pid = (*child)->pid();
  ASSERT_GT(pid, 0);
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.session.request_timeout = std::chrono::seconds(20);
  Client client(co);
  auto init = client.connect(*child);
  ASSERT_TRUE(init) << init.error().message;

  // Pinned at the first list (held as new), then approved from another process: acknowledged
  // when `approve` exits 0.
  auto held = client.call_tool("read_file", json::object{{"path", "before-approval"}});
  ASSERT_FALSE(held) << "a new tool was served before it was approved";
  auto approve =
      mcp::test::run_program(bin("mcp-trust"), {"gateway", "approve", "--state", state, "fm", "read_file"}, dir.path);
  ASSERT_EQ(approve.code, 0) << approve.err;

  // Four callers, each call's arguments its own; a call counts once its answer arrived. One in
  // four names write_file, still held, so refusals are in flight too.
  std::mutex mu;
  std::set<std::string> answered;  // digests of the calls answered
  std::atomic<int> count{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; !stop.load(); ++i) {
        const bool refused = i % 4 == 3;
        json::object args{{"path", "missing-" + std::to_string(t) + "-" + std::to_string(i)}};
        if (refused) args["content"] = "x";
        auto r = client.call_tool(refused ? "write_file" : "read_file", args);
        if (!r && r.error().message.find("is quarantined at the gateway") == std::string::npos) return;  // it is gone
        std::lock_guard lock(mu);
        answered.insert(digest_of(args));
        ++count;
      }
    });
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count.load() < 1500 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  stop = true;
  for (auto& c : callers) c.join();
  client.close();
  std::set<std::string> acknowledged;
  {
    std::lock_guard lock(mu);
    acknowledged = answered;
  }
  ASSERT_GE(acknowledged.size(), 1500u) << "the callers stopped before the kill";

  // What the next opener sees (the CLI recovers the dead gateway's journal as the gateway would).
  auto verify = mcp::test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", state}, dir.path);
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  auto exported = mcp::test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir.path);
  ASSERT_EQ(exported.code, 0) << exported.err;
  std::set<std::string> recorded;
  int refusals = 0;
  for (std::size_t at = 0, end; at < exported.out.size(); at = end + 1) {
    end = exported.out.find('\n', at);
    if (end == std::string::npos) end = exported.out.size();
    auto line = json::parse(std::string_view(exported.out).substr(at, end - at));
    if (!line.is_object()) continue;
    const auto& o = line.as_object();
    if (o.at("kind") != "call") continue;
    const auto& body = o.at("body").as_object();
    if (auto recorded_twice = !recorded.insert(json::value_to<std::string>(body.at("arguments"))).second) {
      ADD_FAILURE() << "recorded twice: " << json::serialize(body);
      (void)recorded_twice;
    }
    refusals += body.at("outcome") == "refused";
  }
  std::size_t lost = 0;
  for (const auto& d : acknowledged) lost += !recorded.contains(d);
  EXPECT_EQ(lost, 0u) << "of " << acknowledged.size() << " calls answered before the kill, " << lost
                      << " have no record";
  EXPECT_GT(refusals, 0) << "refused calls are recorded too";
  // Held as new when first pinned ("quarantine"), then approved.
  for (const char* kind : {"\"kind\":\"quarantine\"", "\"kind\":\"approve\""})
    EXPECT_NE(exported.out.find(kind), std::string::npos) << kind;
  auto pins = mcp::test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", state}, dir.path);
  EXPECT_EQ(pins.code, 0) << pins.err;
  EXPECT_NE(pins.out.find("tool read_file  approved"), std::string::npos) << pins.out;
  EXPECT_NE(pins.out.find("tool write_file  quarantined (new, never approved)"), std::string::npos) << pins.out;
}

}  // namespace
