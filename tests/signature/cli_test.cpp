// `mcp-trust client` and `mcp-trust scan` run as a user would, against build/bin/file-manager:
// exit codes, what is printed, and a misbehaving server stopped in strict mode.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mcp/signature/signature.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

class SignatureCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* env = std::getenv("MCP_BIN");
    bin_ = fs::path(env != nullptr && *env != '\0' ? env : MCP_SIGNATURE_BIN_FALLBACK);
    ASSERT_TRUE(fs::exists(bin_ / "mcp-trust") && fs::exists(bin_ / "file-manager")) << "not built in " << bin_;
    dir_ = fs::temp_directory_path() / ("mcp-sig-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string fm() const { return (bin_ / "file-manager").string(); }

  // Runs mcp-trust with `args`; stdout and stderr through files. Waits for its exit; killed only
  // if it is still running after 60 s (support/process.hpp).
  Outcome run(const std::vector<std::string>& args) {
    const auto p = mcp::test::run_program((bin_ / "mcp-trust").string(), args, dir_);
    Outcome r;
    if (!p.spawned) {
      ADD_FAILURE() << "cannot spawn " << (bin_ / "mcp-trust");
      return r;
    }
    if (p.timed_out) ADD_FAILURE() << "mcp-trust did not finish in 60 s";
    r.code = p.code;
    r.out = p.out;
    r.err = p.err;
    return r;
  }

  fs::path bin_, dir_;
};

TEST_F(SignatureCli, ToolsShowsTheWorstCaseAndWhatIsAvailableIfEnabled) {
  auto r = run({"client", "--", fm(), "tools"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("manage_files  [destructive"));
  EXPECT_THAT(r.out, HasSubstr("available if enabled:\n  admin_delete"));
}

TEST_F(SignatureCli, ToolsAsJson) {
  auto r = run({"client", "--json", "--mode", "advisory", "--", fm(), "tools"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto v = mcp::json::parse(r.out);
  EXPECT_EQ(v.at("mode"), "advisory");
  EXPECT_EQ(v.at("tools").as_array().size(), 4u);
  EXPECT_EQ(v.at("availableIfEnabled").as_array().at(0).at("key"), "admin_delete");
  EXPECT_TRUE(v.at("violations").as_array().empty());
}

// The same server either way: 2026-07-28 unless --protocol asks for the handshake revision.
TEST_F(SignatureCli, SpeaksEitherRevision) {
  for (const char* protocol : {"", "2026-07-28", "2025-11-25"}) {
    std::vector<std::string> args{"client", "--json", "--mode", "strict"};
    if (*protocol) args.insert(args.end(), {"--protocol", protocol});
    args.insert(args.end(), {"--", fm(), "tools"});
    auto r = run(args);
    ASSERT_EQ(r.code, 0) << protocol << ": " << r.err;
    auto v = mcp::json::parse(r.out);
    EXPECT_EQ(v.at("protocol"), *protocol ? protocol : "2026-07-28");
    EXPECT_EQ(v.at("tools").as_array().size(), 4u);
    EXPECT_TRUE(v.at("violations").as_array().empty());
  }
  auto bad = run({"client", "--protocol", "1999-01-01", "--", fm(), "tools"});
  EXPECT_EQ(bad.code, 2);
}

TEST_F(SignatureCli, CallListsThenCalls) {
  auto r = run({"client", "--", fm(), "call", "read_file", R"({"path":"README.md"})"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# File Manager"));
  auto missing = run({"client", "--", fm(), "call", "read_file", R"({"path":"nope"})"});
  EXPECT_EQ(missing.code, 1);  // the tool reported an error
  auto hidden = run({"client", "--", fm(), "call", "admin_delete", R"({"path":"notes.txt"})"});
  EXPECT_EQ(hidden.code, 1);
  EXPECT_THAT(hidden.err, HasSubstr("Unknown tool: admin_delete"));
}

// The proposal's flow, end to end: admin granted mid-session, list_changed, still compliant.
TEST_F(SignatureCli, WatchFollowsTheMidSessionGrantInEveryMode) {
  for (const char* mode : {"strict", "permissive", "advisory"}) {
    auto r = run({"client", "--mode", mode, "--", fm(), "--grant-admin-after", "300ms", "watch", "--for", "1500ms"});
    ASSERT_EQ(r.code, 0) << mode << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("list_changed: tools/list"));
    EXPECT_THAT(r.out, HasSubstr("+ admin_delete"));
    EXPECT_THAT(r.out, HasSubstr("done: 0 violation(s)"));
  }
}

struct Misbehaviour {
  const char* kind;
  const char* named;  // what the violation must name
};

TEST_F(SignatureCli, StrictModeStopsAMisbehavingServerNamingWhatItDid) {
  for (auto m : {Misbehaviour{"rename", "tool 'read_file_v2', field 'name'"},
                 Misbehaviour{"annotation", "tool 'manage_files', field 'annotations'"},
                 Misbehaviour{"description", "tool 'write_file', field 'description'"},
                 Misbehaviour{"undeclared", "tool 'exfiltrate', field 'name'"}}) {
    auto r = run({"client", "--mode", "strict", "--", fm(), std::string("--misbehave=") + m.kind, "watch", "--for", "5s"});
    EXPECT_EQ(r.code, 4) << m.kind << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(m.named)) << m.kind;
    EXPECT_THAT(r.out, Not(HasSubstr("done:"))) << "strict mode must end the watch early";
  }
}

TEST_F(SignatureCli, PermissiveAndAdvisoryPrintTheViolationAndGoOn) {
  for (const char* mode : {"permissive", "advisory"}) {
    auto r = run({"client", "--mode", mode, "--", fm(), "--misbehave", "watch", "--for", "1s"});
    ASSERT_EQ(r.code, 0) << mode << "\n" << r.err;
    EXPECT_THAT(r.out, HasSubstr(std::string("violation (") + mode + "): tools/list: tool 'read_file_v2', field 'name'"));
    // The rename is a removal and an addition, so the client may list (and report) it twice.
    EXPECT_THAT(r.out, ::testing::ContainsRegex("done: [1-9][0-9]* violation"));
  }
}

TEST_F(SignatureCli, WatchAsJsonLines) {
  auto r = run({"client", "--json", "--mode", "permissive", "--", fm(), "--misbehave=undeclared", "watch", "--for", "1s"});
  ASSERT_EQ(r.code, 0) << r.err;
  bool saw_violation = false;
  std::size_t start = 0;
  while (start < r.out.size()) {
    const auto end = r.out.find('\n', start);
    auto v = mcp::json::parse(r.out.substr(start, end - start));
    if (v.at("event") == "violation") {
      saw_violation = true;
      EXPECT_EQ(v.at("violation").at("item"), "exfiltrate");
    }
    start = end + 1;
  }
  EXPECT_TRUE(saw_violation);
}

TEST_F(SignatureCli, ScanWritesASignatureAClientCanHoldAServerTo) {
  const fs::path everything = bin_ / "everything-server";
  ASSERT_TRUE(fs::exists(everything)) << "everything-server is not built";
  const std::string sig = (dir_ / "signature.json").string();
  auto scan = run({"scan", "--", everything.string(), "--out", sig});
  ASSERT_EQ(scan.code, 0) << scan.err;
  auto parsed = mcp::parse_server_signature_text(slurp(sig));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_FALSE(parsed->tools.empty());
  // everything-server has no signature of its own: the scanned one is what it is held to.
  auto held = run({"client", "--signature", sig, "--", everything.string(), "tools"});
  EXPECT_EQ(held.code, 0) << held.err;
  EXPECT_THAT(held.out, Not(HasSubstr("schema freezing")));
  // file-manager declares its own, and the scanned one (without admin_delete) differs from it.
  auto fm_sig = (dir_ / "fm.json").string();
  ASSERT_EQ(run({"scan", "--out", fm_sig, "--", fm()}).code, 0);
  auto differs = run({"client", "--signature", fm_sig, "--", fm(), "tools"});
  EXPECT_EQ(differs.code, 4);
  EXPECT_THAT(differs.err, HasSubstr("[stability]"));
}

TEST_F(SignatureCli, WithoutASignatureItFreezesTheFirstLists) {
  const fs::path everything = bin_ / "everything-server";
  ASSERT_TRUE(fs::exists(everything)) << "everything-server is not built";
  auto r = run({"client", "--", everything.string(), "tools"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("signature: none (schema freezing)"));
}

TEST_F(SignatureCli, UsageErrors) {
  EXPECT_EQ(run({"client", "--", fm()}).code, 2);                       // no action
  EXPECT_EQ(run({"client", "--mode", "lenient", "--", fm(), "tools"}).code, 2);
  EXPECT_EQ(run({"client", "--", fm(), "watch"}).code, 2);              // no --for
  EXPECT_EQ(run({"client", "--", fm(), "watch", "--for", "soon"}).code, 2);
  EXPECT_EQ(run({"client", "--", fm(), "call", "x", "{not json"}).code, 2);
  EXPECT_EQ(run({"client", "tools"}).code, 2);                          // no server
  EXPECT_EQ(run({"scan", "--", fm()}).code, 2);                         // no --out
  EXPECT_EQ(run({"client", "--url", "http://localhost:1/mcp", "--", fm(), "tools"}).code, 2);  // both
  // Nothing listens on port 1: a clear connection error, exit 1.
  auto url = run({"client", "--url", "http://localhost:1/mcp", "tools"});
  EXPECT_EQ(url.code, 1);
  EXPECT_THAT(url.err, HasSubstr("cannot connect to http://localhost:1/mcp"));
}

TEST_F(SignatureCli, OtherErrorsExitOne) {
  EXPECT_EQ(run({"client", "--", (dir_ / "no-such-server").string(), "tools"}).code, 1);
  EXPECT_EQ(run({"client", "--signature", (dir_ / "missing.json").string(), "--", fm(), "tools"}).code, 1);
}

}  // namespace
