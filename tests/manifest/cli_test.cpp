// `mcp-trust client --manifest-key / --trust-store` run as a user would, against file-manager and
// everything-server started with --sign-key: exit codes and what is printed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

class ManifestCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* env = std::getenv("MCP_BIN");
    bin_ = fs::path(env != nullptr && *env != '\0' ? env : MCP_MANIFEST_BIN_FALLBACK);
    for (const char* b : {"mcp-trust", "file-manager", "everything-server"})
      ASSERT_TRUE(fs::exists(bin_ / b)) << b << " is not built in " << bin_;
    dir_ = fs::temp_directory_path() / ("mcp-manifest-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    // The server's key, and its public half as a file, as an operator would distribute it.
    auto k = run("keygen --out " + path("server.key"));
    ASSERT_EQ(k.code, 0) << k.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(k.out, m, std::regex("publicKey: ([0-9a-f]{64})"))) << k.out;
    public_hex_ = m[1];
    std::ofstream(dir_ / "server.pub") << public_hex_ << "\n";
    auto other = run("keygen --out " + path("other.key"));
    ASSERT_TRUE(std::regex_search(other.out, m, std::regex("publicKey: ([0-9a-f]{64})"))) << other.out;
    std::ofstream(dir_ / "other.pub") << m[1] << "\n";
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  std::string server(const char* name) const { return (bin_ / name).string(); }

  // Runs `mcp-trust <args>` through the shell (every path is ours), killed after 30 s.
  Outcome run(const std::string& args) {
    const std::string cmd = "timeout 30 " + (bin_ / "mcp-trust").string() + " " + args + " > " + path("stdout") +
                            " 2> " + path("stderr");
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = slurp(dir_ / "stdout");
    o.err = slurp(dir_ / "stderr");
    return o;
  }

  fs::path bin_, dir_;
  std::string public_hex_;
};

TEST_F(ManifestCli, HonestServerVerifies) {
  auto o = run("client --manifest-key " + path("server.pub") + " -- " + server("file-manager") + " --sign-key " +
               path("server.key") + " tools");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("manifest: valid, 4 tools signed by file-manager"));
}

TEST_F(ManifestCli, AnotherKeyIsABadSignatureInStrictMode) {
  auto o = run("client --manifest-key " + path("other.pub") + " -- " + server("file-manager") + " --sign-key " +
               path("server.key") + " tools");
  EXPECT_EQ(o.code, 4);
  EXPECT_THAT(o.err, HasSubstr("bad_signature"));
  EXPECT_THAT(o.err, HasSubstr("[manifest-verification]"));
}

TEST_F(ManifestCli, AServerThatDoesNotSignFailsWhenAKeyIsGiven) {
  auto o = run("client --manifest-key " + path("server.pub") + " -- " + server("file-manager") + " tools");
  EXPECT_EQ(o.code, 4);
  EXPECT_THAT(o.err, HasSubstr("[manifest-required]"));
}

TEST_F(ManifestCli, PermissiveReportsAndGoesOn) {
  auto o = run("client --mode permissive --json --manifest-key " + path("other.pub") + " -- " +
               server("everything-server") + " --sign-key " + path("server.key") + " tools");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("\"rule\":\"manifest-verification\""));
  EXPECT_THAT(o.out, HasSubstr("\"verdict\": \"bad_signature\""));
}

TEST_F(ManifestCli, TrustStore) {
  std::ofstream(dir_ / "store.json") << R"({"keys": [{"publicKey": ")" << public_hex_
                                     << R"(", "issuer": "mcp-trust-everything-server"}]})";
  auto o = run("client --trust-store " + path("store.json") + " -- " + server("everything-server") + " --sign-key " +
               path("server.key") + " tools");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("manifest: valid"));
  // The key is trusted for another issuer only: unknown_key.
  std::ofstream(dir_ / "store.json", std::ios::trunc)
      << R"({"keys": [{"publicKey": ")" << public_hex_ << R"(", "issuer": "someone-else"}]})";
  o = run("client --trust-store " + path("store.json") + " -- " + server("everything-server") + " --sign-key " +
          path("server.key") + " tools");
  EXPECT_EQ(o.code, 4);
  EXPECT_THAT(o.err, HasSubstr("unknown_key"));
}

TEST_F(ManifestCli, KeyAndStoreTogetherIsAUsageError) {
  auto o = run("client --manifest-key " + path("server.pub") + " --trust-store " + path("server.pub") + " -- " +
               server("file-manager") + " tools");
  EXPECT_EQ(o.code, 2);
}

}  // namespace
