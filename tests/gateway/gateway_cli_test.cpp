// `mcp-trust gateway --stdio` in front of a real, unmodified upstream (file-manager, whose
// --misbehave=description rewrites write_file's description after its first tools/list: the rug
// pull of the signed-manifest proposal). Through the gateway, a client sees the changed tool
// disappear and its calls refused saying how to approve it; `mcp-trust gateway pins` shows it
// quarantined; `mcp-trust gateway approve`, another process, restores it; the audit chain holds
// the whole story and verifies, and an edited record makes `mcp-trust audit verify` exit 4. The
// other rug pulls too: a tool added mid-session (held with --new-items quarantine) and a changed
// input schema (--misbehave=undeclared, =schema). Every wait is on an event (a list_changed, a
// process's exit, an answer of `pins`).
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <mutex>

#include "../examples/tmp_dir.hpp"
#include "mcp/client/client.hpp"
#include "mcp/stdio/child_process.hpp"
#include "gateway_test_util.hpp"
#include "state_folder.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::lists;

namespace {

// What every client of these tests speaks, and how long it waits for an answer.
ClientOptions client_options() {
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.session.request_timeout = std::chrono::seconds(20);
  return co;
}

// `mcp-trust gateway --stdio --state STATE --name fm GATEWAY_ARGS -- file-manager UPSTREAM_ARGS`.
Result<std::shared_ptr<ChildProcessTransport>> spawn_gateway(const std::string& state,
                                                             const std::vector<std::string>& gateway_args,
                                                             const std::vector<std::string>& upstream_args) {
  ChildProcessOptions po;
  po.program = bin("mcp-trust");
  po.args = {"gateway", "--stdio", "--state", state, "--name", "fm"};
  po.args.insert(po.args.end(), gateway_args.begin(), gateway_args.end());
  po.args.push_back("--");
  po.args.push_back(bin("file-manager"));
  po.args.insert(po.args.end(), upstream_args.begin(), upstream_args.end());
  return ChildProcessTransport::spawn(po);
}

// `mcp-trust gateway pins` once it shows `line` (each round waits for its answer), or as it was
// after 20 s.
std::string pins_once_they_show(const std::string& state, const std::filesystem::path& dir, const std::string& line) {
  std::string pins;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (pins.find(line) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pins = mcp::test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", state}, dir).out;
  }
  return pins;
}

TEST(GatewayCli, ARugPullIsQuarantinedShownAndRestoredByApproval) {
  mcp::test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  std::mutex mu;
  std::condition_variable cv;
  int changes = 0;
  ClientOptions co = client_options();
  co.on_list_changed = [&](const std::string& list) {
    if (list != "tools") return;
    std::lock_guard lock(mu);
    ++changes;
    cv.notify_all();
  };
  Client client(co);
  ChildProcessOptions po;
  po.program = bin("mcp-trust");
  po.args = {"gateway", "--stdio", "--state", state, "--name", "fm", "--", bin("file-manager"), "--misbehave=description"};
  auto child = ChildProcessTransport::spawn(po);
  ASSERT_TRUE(child) << child.error().message;
  auto init = client.connect(*child);
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_EQ(init->server_info.name, "mcp-trust-gateway/fm");

  // The upstream changes write_file shortly after the gateway first listed it; the gateway then
  // tells us its list changed. Until then, each list shows it.
  // The count is read before each list: a list_changed that arrives right after a list's answer is
  // then still waited for, not missed.
  for (int round = 0;; ++round) {
    int seen;
    {
      std::lock_guard lock(mu);
      seen = changes;
    }
    if (!lists(client, "write_file")) break;
    ASSERT_LT(round, 10) << "write_file was never quarantined";
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return changes > seen; }));
  }
  EXPECT_TRUE(lists(client, "read_file")) << "the unchanged tools stay";
  auto refused = client.call_tool("write_file", json::object{{"path", "a.txt"}, {"content", "x"}});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("quarantined"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("mcp-trust gateway approve --state " + state + " fm write_file"),
            std::string::npos)
      << refused.error().message;

  auto pins = mcp::test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", state}, dir.path);
  EXPECT_EQ(pins.code, 0) << pins.err;
  EXPECT_NE(pins.out.find("tool write_file  quarantined (changed since approved)"), std::string::npos) << pins.out;

  auto approve = mcp::test::run_program(bin("mcp-trust"), {"gateway", "approve", "--state", state, "fm", "write_file"},
                                        dir.path);
  EXPECT_EQ(approve.code, 0) << approve.err;
  auto ok = client.call_tool("write_file", json::object{{"path", "a.txt"}, {"content", "x"}});
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_FALSE(ok->is_error.value_or(false));
  EXPECT_TRUE(lists(client, "write_file"));

  // A person rejects a tool from another process: the running gateway hides and refuses it from
  // the next list or call on.
  auto reject = mcp::test::run_program(bin("mcp-trust"), {"gateway", "reject", "--state", state, "fm", "read_file"},
                                       dir.path);
  EXPECT_EQ(reject.code, 0) << reject.err;
  EXPECT_EQ(reject.out.rfind("rejected tool read_file", 0), 0u) << reject.out;
  auto rejected = client.call_tool("read_file", json::object{{"path", "a.txt"}});
  ASSERT_FALSE(rejected) << "a rejected tool was called";
  EXPECT_NE(rejected.error().message.find("was rejected at the gateway"), std::string::npos) << rejected.error().message;
  EXPECT_FALSE(lists(client, "read_file"));
  EXPECT_TRUE(lists(client, "write_file")) << "only the one rejected";
  client.close();

  // A person drops a pin: gone from `pins`, recorded; the command says what it needs when unsure.
  auto unsure = mcp::test::run_program(bin("mcp-trust"), {"gateway", "forget", "--state", state, "fm"}, dir.path);
  EXPECT_EQ(unsure.code, 2) << unsure.out;
  EXPECT_NE(unsure.err.find("say what to forget"), std::string::npos) << unsure.err;
  auto forget =
      mcp::test::run_program(bin("mcp-trust"), {"gateway", "forget", "--state", state, "fm", "read_file"}, dir.path);
  EXPECT_EQ(forget.code, 0) << forget.err;
  EXPECT_EQ(forget.out, "forgot tool read_file of fm (it was rejected)\n");
  auto none_new =
      mcp::test::run_program(bin("mcp-trust"), {"gateway", "forget", "--state", state, "--new-only", "fm"}, dir.path);
  EXPECT_EQ(none_new.code, 0) << none_new.err;
  EXPECT_EQ(none_new.out, "forgot 0 pins of items held as new of fm\n");
  auto after = mcp::test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", state}, dir.path);
  EXPECT_EQ(after.out.find("tool read_file "), std::string::npos) << after.out;
  EXPECT_NE(after.out.find("tool write_file  approved"), std::string::npos) << after.out;

  auto verify = mcp::test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", state}, dir.path);
  EXPECT_EQ(verify.code, 0) << verify.err;
  EXPECT_NE(verify.out.find("intact"), std::string::npos) << verify.out;
  auto exported = mcp::test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir.path);
  EXPECT_EQ(exported.code, 0) << exported.err;
  for (const char* kind : {"\"kind\":\"pin\"", "\"kind\":\"quarantine\"", "\"kind\":\"approve\"", "\"kind\":\"reject\"",
                           "\"kind\":\"call\"",
                           "\"kind\":\"forget\""})
    EXPECT_NE(exported.out.find(kind), std::string::npos) << kind << "\n" << exported.out;

  // The oldest records pruned: the newest three stay, with the prune record after them, and the
  // chain verifies from where the pruned ones end.
  auto unsure_prune = mcp::test::run_program(bin("mcp-trust"), {"audit", "prune", "--state", state}, dir.path);
  EXPECT_EQ(unsure_prune.code, 2) << unsure_prune.err;
  auto pruned = mcp::test::run_program(bin("mcp-trust"), {"audit", "prune", "--state", state, "--keep", "3"}, dir.path);
  EXPECT_EQ(pruned.code, 0) << pruned.err;
  EXPECT_EQ(pruned.out.rfind("pruned ", 0), 0u) << pruned.out;
  auto still = mcp::test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", state}, dir.path);
  EXPECT_EQ(still.code, 0) << still.err;
  EXPECT_EQ(still.out.rfind("intact: 4 records (records 1 to ", 0), 0u) << still.out;

  // A record changed behind the gateway's back (the database edited directly): verify exits 4
  // and names it. The four left are those after "records 1 to N pruned"; the third is edited.
  const auto edited = std::to_string(std::stoll(still.out.substr(still.out.find(" to ") + 4)) + 3);
  mcp::test::tamper(dir.path / "state", "UPDATE audit SET body = '{\"n\":42}' WHERE seq = " + edited);
  auto broken = mcp::test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", state}, dir.path);
  EXPECT_EQ(broken.code, 4) << broken.out << broken.err;
  EXPECT_NE((broken.out + broken.err).find("the chain is broken at record " + edited + ":"), std::string::npos)
      << broken.out << broken.err;
}

// The other rug pull: a tool the upstream adds mid-session, to a gateway that holds new items
// (--new-items quarantine). The tools seen in an earlier run stay served; the new one is hidden,
// refused saying how to approve it, shown in `pins`, and served once approved.
TEST(GatewayCli, AToolAddedMidSessionIsHeldUntilApproved) {
  mcp::test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  ClientOptions co = client_options();
  {
    // First sight, new items allowed: what the upstream lists now is approved.
    Client first(co);
    auto child = spawn_gateway(state, {}, {});
    ASSERT_TRUE(child) << child.error().message;
    ASSERT_TRUE(first.connect(*child));
    ASSERT_TRUE(lists(first, "write_file"));
    first.close();
  }
  Client client(co);
  auto child = spawn_gateway(state, {"--new-items", "quarantine"}, {"--misbehave=undeclared"});
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_TRUE(client.connect(*child));
  ASSERT_TRUE(lists(client, "write_file")) << "approved in the earlier run";
  // The upstream adds `exfiltrate` 200 ms after its first list; the gateway re-lists it and pins it
  // as new.
  const auto pins = pins_once_they_show(state, dir.path, "tool exfiltrate");
  EXPECT_NE(pins.find("tool exfiltrate  quarantined (new, never approved)"), std::string::npos) << pins;
  EXPECT_FALSE(lists(client, "exfiltrate")) << "a new tool was served before anyone approved it";
  auto refused = client.call_tool("exfiltrate", json::object{});
  ASSERT_FALSE(refused) << "a held tool was called";
  EXPECT_NE(refused.error().message.find("mcp-trust gateway approve --state " + state + " fm exfiltrate"),
            std::string::npos)
      << refused.error().message;

  auto approve =
      mcp::test::run_program(bin("mcp-trust"), {"gateway", "approve", "--state", state, "fm", "exfiltrate"}, dir.path);
  EXPECT_EQ(approve.code, 0) << approve.err;
  EXPECT_TRUE(lists(client, "exfiltrate"));
  auto called = client.call_tool("exfiltrate", json::object{});
  EXPECT_TRUE(called) << called.error().message;
  client.close();
}

// A rug pull of a tool's arguments: write_file's input schema gains a required member after the
// gateway pinned it. The changed tool is quarantined, whatever --new-items says, until approved.
TEST(GatewayCli, AChangedInputSchemaIsQuarantinedUntilApproved) {
  mcp::test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  Client client(client_options());
  auto child = spawn_gateway(state, {}, {"--misbehave=schema"});
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_TRUE(client.connect(*child));
  const auto pins = pins_once_they_show(state, dir.path, "tool write_file  quarantined");
  EXPECT_NE(pins.find("tool write_file  quarantined (changed since approved)"), std::string::npos) << pins;
  EXPECT_FALSE(lists(client, "write_file")) << "the changed schema was served";
  EXPECT_TRUE(lists(client, "read_file"));
  auto refused = client.call_tool("write_file", json::object{{"path", "a"}, {"content", "x"}, {"copy_to", "b"}});
  ASSERT_FALSE(refused) << "a quarantined tool was called";
  EXPECT_NE(refused.error().message.find("quarantined"), std::string::npos) << refused.error().message;

  auto approve =
      mcp::test::run_program(bin("mcp-trust"), {"gateway", "approve", "--state", state, "fm", "write_file"}, dir.path);
  EXPECT_EQ(approve.code, 0) << approve.err;
  auto listed = client.list_all_tools();
  ASSERT_TRUE(listed) << listed.error().message;
  auto it = std::find_if(listed->begin(), listed->end(), [](const Tool& t) { return t.name == "write_file"; });
  ASSERT_NE(it, listed->end()) << "not served once approved";
  EXPECT_TRUE(it->input_schema.at("properties").as_object().contains("copy_to")) << "the approved schema is the new one";
  client.close();
}

// With --config, --new-items is the default of every server whose entry does not say: items
// never seen before are held for approval there, and a server whose entry allows them shows them.
TEST(GatewayCli, NewItemsOnTheCommandLineHoldsTheServersOfAConfigThatDoNotSay) {
  mcp::test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  std::filesystem::create_directories(dir.path / "root");
  const std::string fm = mcp::gateway_test::json_string(bin("file-manager"));
  const std::string root = mcp::gateway_test::json_string((dir.path / "root").string());
  std::ofstream(dir.path / "servers.json")
      << R"({"mcpServers": {"held": {"command": )" << fm << R"(, "args": ["--root", )" << root
      << R"(]}, "open": {"command": )" << fm << R"(, "args": ["--root", )" << root
      << R"(]}}, "gateway": {"servers": {"open": {"newItems": "allow"}}}})";
  std::map<std::string, std::string> urls;
  std::string error;
  auto gateway = mcp::gateway_test::start_gateway(dir.path / "servers.json", state, dir.path / "gw", urls, error,
                                                  {"--new-items", "quarantine"});
  ASSERT_TRUE(gateway) << error;
  ClientOptions co = client_options();
  auto held = mcp::gateway_test::connected_client(urls.at("held"), co);
  auto open = mcp::gateway_test::connected_client(urls.at("open"), co);
  EXPECT_FALSE(lists(*held, "read_file")) << "new, so held until approved";
  EXPECT_TRUE(lists(*open, "read_file")) << "its entry allows new items";
  held->close();
  open->close();
  auto pins = mcp::test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", state}, dir.path);
  EXPECT_EQ(pins.code, 0) << pins.err;
  EXPECT_NE(pins.out.find("tool read_file  quarantined (new, never approved)"), std::string::npos) << pins.out;
}

// --audit-keep-records: the gateway prunes its own audit log as calls come (audit_retention.hpp),
// with a prune record by "gateway:retention (keepRecords 20)", and what it leaves verifies. The wait is on the
// gateway's log line saying it pruned.
TEST(GatewayCli, TheGatewayPrunesItsAuditLogAsTheCommandLineSays) {
  mcp::test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  std::filesystem::create_directories(dir.path / "root");
  std::mutex mu;
  std::condition_variable cv;
  bool pruned = false;
  ChildProcessOptions po;
  po.program = bin("mcp-trust");
  po.args = {"gateway",
             "--stdio",
             "--state",
             state,
             "--name",
             "fm",
             "--audit-keep-records",
             "20",
             "--",
             bin("file-manager"),
             "--root",
             (dir.path / "root").string()};
  po.env = {{"MCP_LOG", "info"}};
  po.on_stderr = [&](const std::string& line) {
    if (line.find("audit retention: pruned") == std::string::npos) return;
    std::lock_guard lock(mu);
    pruned = true;
    cv.notify_all();
  };
  auto child = ChildProcessTransport::spawn(po);
  ASSERT_TRUE(child) << child.error().message;
  Client client(client_options());
  ASSERT_TRUE(client.connect(*child));
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(client.call_tool("read_file", json::object{{"path", "none.txt"}}));
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return pruned; }))
        << "60 calls over a policy of 20 were never pruned";
  }
  client.close();

  auto verify = mcp::test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", state}, dir.path);
  EXPECT_EQ(verify.code, 0) << verify.err;
  EXPECT_NE(verify.out.find(" pruned)"), std::string::npos) << verify.out;
  auto exported = mcp::test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir.path);
  EXPECT_NE(exported.out.find("\"by\":\"gateway:retention (keepRecords 20)\""), std::string::npos) << exported.out;
  const auto records = std::count(exported.out.begin(), exported.out.end(), '\n');
  EXPECT_LE(records, 60) << "pruned, then at most the calls made since";
}

}  // namespace

namespace {

// Without --state, the gateway keeps its state under $XDG_STATE_HOME/mcp-trust, or
// ~/.local/state/mcp-trust when that is unset or empty: what `pins` then reads there.
TEST(GatewayCli, WithoutStateTheFolderIsTheUsersStateHome) {
  mcp::test::TmpDir dir;
  for (const bool xdg : {false, true}) {
    SCOPED_TRACE(xdg ? "XDG_STATE_HOME set" : "HOME only");
    const auto home = dir.path / (xdg ? "home-xdg" : "home");
    const auto expected = xdg ? dir.path / "xdg" / "mcp-trust" : home / ".local" / "state" / "mcp-trust";
    std::filesystem::create_directories(home);
    ChildProcessOptions po;
    po.program = bin("mcp-trust");
    po.args = {"gateway", "--stdio", "--name", "fm", "--", bin("file-manager")};
    po.env = {{"HOME", home.string()}, {"XDG_STATE_HOME", xdg ? (dir.path / "xdg").string() : std::string()}};
    auto child = ChildProcessTransport::spawn(po);
    ASSERT_TRUE(child) << child.error().message;
    Client client(client_options());
    auto init = client.connect(*child);
    ASSERT_TRUE(init) << init.error().message;
    EXPECT_TRUE(lists(client, "read_file"));  // pinned on first use, in the default folder
    client.close();
    EXPECT_TRUE(std::filesystem::exists(expected / "gateway.db")) << expected;
    auto pins = mcp::test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", expected.string()}, dir.path);
    EXPECT_EQ(pins.code, 0) << pins.err;
    EXPECT_NE(pins.out.find("tool read_file  approved"), std::string::npos) << pins.out;
  }
}

}  // namespace
