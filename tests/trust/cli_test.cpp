// The mcp-trust command line, run as a user would: exit codes, output, and hostile input.
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "mcp/trust/sha256.hpp"
#include "mcp/trust/verify.hpp"
#include "test_util.hpp"

extern char** environ;

namespace mcp::trust {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code = -1;
  std::string out, err;
};

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    exe_ = test::bin_dir() / "mcp-trust";
    ASSERT_TRUE(fs::exists(exe_)) << exe_ << " is not built";
    dir_ = fs::temp_directory_path() / ("mcp-trust-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  fs::path file(const std::string& name, const std::string& content) {
    test::write_file(dir_ / name, content);
    return dir_ / name;
  }

  // Runs mcp-trust with `args`, `input` on stdin; stdout and stderr go through files so a large
  // output cannot deadlock a pipe.
  Outcome run(const std::vector<std::string>& args, const std::string& input = "") {
    const fs::path in = file("stdin", input), out = dir_ / "stdout", err = dir_ / "stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> argv_s = {exe_.string()};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    Outcome r;
    if (posix_spawn(&pid, exe_.c_str(), &fa, nullptr, argv.data(), environ) != 0) {
      posix_spawn_file_actions_destroy(&fa);
      ADD_FAILURE() << "cannot spawn " << exe_;
      return r;
    }
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    waitpid(pid, &status, 0);
    // A crash (signal) must never happen: report it as -signal so assertions on codes fail loudly.
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    r.out = test::read_file(out);
    r.err = test::read_file(err);
    return r;
  }

  static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

  fs::path exe_, dir_;
};

constexpr const char* kTools =
    R"({"tools":[{"name":"send_email","description":"Sends an email.","inputSchema":{"type":"object"},)"
    R"("annotations":{"destructiveHint":false}},{"name":"search","inputSchema":{"type":"object"}}]})";

TEST_F(CliTest, HelpOnEveryCommand) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--help"}, {"keygen", "--help"}, {"canonicalize", "--help"},
                                        {"hash", "--help"}, {"sign", "--help"}, {"verify", "--help"}}) {
    auto r = run(args);
    EXPECT_EQ(r.code, 0) << args[0];
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << args[0];
  }
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(run({}).code, 2);
  EXPECT_EQ(run({"nonsense"}).code, 2);
  EXPECT_EQ(run({"canonicalize"}).code, 2);
  EXPECT_EQ(run({"sign", "--issuer", "x", "t.json"}).code, 2);           // no --key
  EXPECT_EQ(run({"verify", "x.json"}).code, 2);                           // no key source
  EXPECT_EQ(run({"verify", "--public-key", "ab", "--trust-store", "s", "x"}).code, 2);
  EXPECT_EQ(run({"verify", "--public-key", "nothex", "x.json"}).code, 2);
  EXPECT_EQ(run({"keygen", "--format", "der"}).code, 2);
  const auto key = file("k.hex", std::string(test::kSeedHex));
  const auto tools = file("t.json", kTools);
  EXPECT_EQ(run({"sign", "--key", key, "--issuer", "x", "--expires-in", "soon", tools}).code, 2);
  EXPECT_EQ(run({"sign", "--key", key, "--issuer", "x", "--expires-in", "0d", tools}).code, 2);
  EXPECT_EQ(run({"sign", "--key", "-", "--issuer", "x", "-"}).code, 2);
}

TEST_F(CliTest, KeygenSignVerifyRoundTrip) {
  const auto key = dir_ / "key.pem";
  auto kg = run({"keygen", "--out", key, "--public-out", (dir_ / "pub.pem").string()});
  ASSERT_EQ(kg.code, 0) << kg.err;
  struct stat st {};
  ASSERT_EQ(::stat(key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_TRUE(test::read_file(key).starts_with("-----BEGIN PRIVATE KEY-----"));
  EXPECT_TRUE(test::read_file(dir_ / "pub.pem").starts_with("-----BEGIN PUBLIC KEY-----"));
  ASSERT_TRUE(kg.out.starts_with("publicKey: ")) << kg.out;
  const std::string pub = kg.out.substr(11, 64);
  EXPECT_NE(kg.out.find("keyId: sha256:"), std::string::npos);
  EXPECT_EQ(run({"keygen", "--out", key}).code, 1);  // refuses to overwrite
  EXPECT_EQ(run({"keygen", "--out", key, "--force"}).code, 0);
  kg = run({"keygen", "--out", key, "--force"});
  const std::string pub2 = kg.out.substr(11, 64);

  auto signed_run = run({"sign", "--key", key, "--issuer", "example", "--now", "1750000000000", "--expires-in", "1h",
                         file("tools.json", kTools)});
  ASSERT_EQ(signed_run.code, 0) << signed_run.err;
  const auto sm = file("signed.json", signed_run.out);
  auto v = run({"verify", "--public-key", pub2, "--now", "1750000001000", sm});
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_EQ(first_line(v.out), "valid");
  EXPECT_NE(v.out.find("tools: 2"), std::string::npos);
  // The public key file works as --public-key too.
  EXPECT_EQ(run({"verify", "--public-key", (dir_ / "pub.pem").string(), "--now", "1750000001000", sm}).code, 4)
      << "pub.pem belongs to the first, replaced key";
  EXPECT_EQ(first_line(run({"verify", "--public-key", pub, "--now", "1750000001000", sm}).out), "bad_signature");
  // After an hour and the skew: expired, exit 4.
  auto exp = run({"verify", "--public-key", pub2, "--now", std::to_string(1750000000000 + 3600000 + 300001), sm});
  EXPECT_EQ(exp.code, 4);
  EXPECT_EQ(first_line(exp.out), "expired");
  // Standard input, and JSON output.
  auto js = run({"verify", "--json", "--public-key", pub2, "--now", "1750000001000", "-"}, signed_run.out);
  EXPECT_EQ(js.code, 0);
  EXPECT_EQ(json::parse(js.out).at("verdict").as_string(), "valid");
}

TEST_F(CliTest, SignAcceptsHexKeysArraysAndJsonRpcResponses) {
  const auto key = file("k.hex", std::string(test::kSeedHex) + "\n");
  const std::string pub = test::fixed_key().public_key().hex();
  const std::string array = json::serialize(json::parse(kTools).at("tools"));
  const std::string rpc = std::string(R"({"jsonrpc":"2.0","id":1,"result":)") + kTools + "}";
  std::string first;
  for (const std::string& input : {std::string(kTools), array, rpc}) {
    auto s = run({"sign", "--key", key, "--issuer", "x", "--key-id", "my-key", "--now", "1750000000000", "-"}, input);
    ASSERT_EQ(s.code, 0) << s.err;
    if (first.empty()) first = s.out;
    EXPECT_EQ(s.out, first);  // same tools, same key, same time: same bytes (Ed25519 is deterministic)
    EXPECT_NE(s.out.find(R"("keyId":"my-key")"), std::string::npos);
  }
  auto v = run({"verify", "--public-key", pub, "--now", "1750000000000", "-"}, first);
  EXPECT_EQ(v.code, 0) << v.out;
}

TEST_F(CliTest, VerifyWithTrustStore) {
  const auto key = test::fixed_key();
  const std::string sm = test::signed_sample(key);
  const auto store = file("store.json", R"({"keys":[{"publicKey":")" + key.public_key().hex() +
                                            R"(","issuer":"example-mcp-server","notAfter":1760000000000}]})");
  auto v = run({"verify", "--trust-store", store, "--now", "1750000001000", "-"}, sm);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  const auto empty = file("empty.json", R"({"keys":[]})");
  auto u = run({"verify", "--trust-store", empty, "--now", "1750000001000", "-"}, sm);
  EXPECT_EQ(u.code, 4);
  EXPECT_EQ(first_line(u.out), "unknown_key");
  const auto broken = file("broken.json", R"({"keys":[{"publicKey":"00"}]})");
  auto b = run({"verify", "--trust-store", broken, "-"}, sm);
  EXPECT_EQ(b.code, 1);
  EXPECT_NE(b.err.find("publicKey"), std::string::npos) << b.err;
}

TEST_F(CliTest, EveryVerdictExitsFourExceptValid) {
  const auto key = test::fixed_key();
  const std::string pub = key.public_key().hex();
  const std::string good = test::signed_sample(key);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bad_signature", test::replace_once(good, "Sends an email", "Sends spam")},
      {"malformed", "{\"manifest\":"},
      {"malformed", test::replace_once(good, "{\"expiresAt\"", "{\"issuer\":\"dup\",\"expiresAt\"")},
      {"unsupported_algorithm", test::replace_once(good, "\"ed25519:", "\"es256:")},
      {"not_yet_valid", good},  // judged at 2020
  };
  for (const auto& [verdict, text] : cases) {
    const std::string now = verdict == "not_yet_valid" ? "1577836800000" : "1750000001000";
    auto r = run({"verify", "--public-key", pub, "--now", now, "-"}, text);
    EXPECT_EQ(r.code, 4) << verdict;
    EXPECT_EQ(first_line(r.out), verdict) << r.out;
  }
}

// Review #12: what a manifest says (issuer, keyId, tool names: whoever wrote the file chose them)
// reaches the terminal only escaped: it cannot print a line of its own, such as a fake "valid",
// nor drive the terminal with escape sequences.
TEST_F(CliTest, UntrustedStringsCannotForgeLinesOrTerminalEscapes) {
  const auto key = test::fixed_key();
  const std::string hostile = "zz\nvalid\nissuer: trusted-corp\x1b]0;pwned\x07\xc2\x9b" "2J";
  const std::string sm = test::signed_sample(key, test::kIssuedAt, test::kLifetime, hostile, hostile);
  auto check = [](const Outcome& r, const char* what) {
    for (const std::string* s : {&r.out, &r.err}) {
      EXPECT_EQ(s->find('\x1b'), std::string::npos) << what << ": a raw ESC reached the output";
      EXPECT_EQ(s->find("\xc2\x9b"), std::string::npos) << what << ": a raw CSI reached the output";
      EXPECT_EQ(s->find("\nvalid\n"), std::string::npos) << what << ": a forged line";
      EXPECT_EQ(s->find("\nissuer: trusted-corp"), std::string::npos) << what << ": a forged line";
    }
  };
  // Signed by the key we trust: valid, and the hostile issuer and keyId are printed, escaped.
  auto v = run({"verify", "--public-key", key.public_key().hex(), "--now", "1750000001000", "-"}, sm);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("issuer: zz\\nvalid\\nissuer: trusted-corp\\x1b]0;pwned\\x07"), std::string::npos) << v.out;
  check(v, "verify --public-key");
  // Looked up in a trust store that does not know the keyId: the detail quotes it, escaped.
  const auto empty = file("empty.json", R"({"keys":[]})");
  auto u = run({"verify", "--trust-store", empty, "--now", "1750000001000", "-"}, sm);
  EXPECT_EQ(u.code, 4);
  EXPECT_EQ(first_line(u.out), "unknown_key");
  check(u, "verify --trust-store");
  // JSON output stays valid JSON with the strings intact (escaped by JSON itself).
  auto j = run({"verify", "--public-key", key.public_key().hex(), "--now", "1750000001000", "--json", "-"}, sm);
  EXPECT_EQ(j.code, 0);
  EXPECT_EQ(json::parse(j.out).at("keyId").as_string(), hostile);
}

// A server that answers with more than the client accepts ends `mcp-trust client` at once, exit 1,
// with an error naming the limit (it used to wait out the request timeout).
TEST_F(CliTest, ClientEndsOnAnOversizedServerMessage) {
  const std::string server =
      "read line; printf '{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"pad\":\"'; "
      "head -c 5000000 /dev/zero | tr '\\0' a; printf '\"}}\\n'; exec sleep 30";
  auto r = run({"client", "--", "/bin/sh", "-c", server, "tools"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("max_message_bytes"), std::string::npos) << r.err;
}

TEST_F(CliTest, CanonicalizeAndHash) {
  const auto f = file("in.json", "{ \"b\" : [1.0, 1e21, \"\\u20ac\"], \"a\": -0 }");
  auto c = run({"canonicalize", f});
  EXPECT_EQ(c.code, 0);
  EXPECT_EQ(c.out, "{\"a\":0,\"b\":[1,1e+21,\"\xe2\x82\xac\"]}");  // no trailing newline
  auto h = run({"hash", "-"}, c.out);
  EXPECT_EQ(h.code, 0);
  EXPECT_EQ(h.out, sha256_tag(std::string_view(c.out)) + "\n");
  EXPECT_EQ(run({"hash", f}).out, h.out);
  // manifestHash of a signed manifest's manifest, as verify reports it.
  const auto key = test::fixed_key();
  const std::string sm = test::signed_sample(key);
  const std::string manifest = json::serialize(json::parse(sm).at("manifest"));
  auto mh = run({"hash", "-"}, manifest);
  auto v = run({"verify", "--public-key", key.public_key().hex(), "--now", "1750000001000", "-"}, sm);
  EXPECT_NE(v.out.find("manifestHash: " + first_line(mh.out)), std::string::npos) << v.out;
}

TEST_F(CliTest, HostileInputGetsAMessageNeverACrash) {
  std::string random_bytes;
  std::uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) random_bytes.push_back(static_cast<char>((x = x * 1103515245 + 12345) >> 16));
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"empty", ""},
      {"random bytes", random_bytes},
      {"deep nesting", std::string(200000, '[')},
      {"duplicate keys", R"({"a":1,"a":2})"},
      {"lone surrogate", R"(["\udc00"])"},
      {"invalid utf-8", "[\"\xc0\xaf\"]"},
      {"huge number", "[1e400]"},
      {"nul byte", std::string("{\"a\":\0}", 7)},
      {"bom", "\xef\xbb\xbf{}"},
  };
  const auto key = file("k.hex", std::string(test::kSeedHex));
  const std::string pub = test::fixed_key().public_key().hex();
  for (const auto& [what, input] : inputs) {
    for (const char* cmd : {"canonicalize", "hash"}) {
      auto r = run({cmd, "-"}, input);
      EXPECT_EQ(r.code, 1) << cmd << " " << what;
      EXPECT_TRUE(r.err.starts_with(std::string("mcp-trust ") + cmd + ": ")) << cmd << " " << what << ": " << r.err;
      EXPECT_TRUE(r.out.empty()) << cmd << " " << what;
    }
    auto s = run({"sign", "--key", key, "--issuer", "x", "-"}, input);
    EXPECT_EQ(s.code, 1) << "sign " << what;
    EXPECT_FALSE(s.err.empty()) << "sign " << what;
    auto v = run({"verify", "--public-key", pub, "-"}, input);
    EXPECT_EQ(v.code, 4) << "verify " << what;
    EXPECT_EQ(first_line(v.out), "malformed") << "verify " << what;
  }
  // Files that are not there, or not files.
  EXPECT_EQ(run({"canonicalize", (dir_ / "missing.json").string()}).code, 1);
  EXPECT_EQ(run({"hash", dir_.string()}).code, 1);
  EXPECT_EQ(run({"verify", "--public-key", pub, (dir_ / "missing.json").string()}).code, 1);
  // Keys that are not keys.
  const auto junk = file("junk.key", random_bytes);
  auto bad_key = run({"sign", "--key", junk, "--issuer", "x", file("t.json", kTools)});
  EXPECT_EQ(bad_key.code, 1);
  EXPECT_NE(bad_key.err.find("--key"), std::string::npos);
  const auto priv = file("priv.pem", test::fixed_key().to_pem());
  auto swapped = run({"verify", "--public-key", priv, file("s.json", "{}")});
  EXPECT_EQ(swapped.code, 2);
  EXPECT_NE(swapped.err.find("private key"), std::string::npos) << swapped.err;
}

}  // namespace
}  // namespace mcp::trust
