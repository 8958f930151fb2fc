// Test harness for signed tool manifests over the in-memory transport: keys, tools, a scripted
// server that serves any manifest and any list (so it can rug-pull), a client with a manifest
// policy that records what it was told, and the consequence a violation must have in each mode.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/session/session.hpp"
#include "mcp/transport/memory.hpp"
#include "mcp/trust/manifest.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp::mantest {

using namespace std::chrono_literals;

// Fixed seeds, so a failing run can be replayed.
inline trust::Ed25519SecretKey key(std::uint8_t fill) {
  std::array<std::uint8_t, 32> seed{};
  seed.fill(fill);
  return *trust::Ed25519SecretKey::from_seed(seed);
}

inline Tool tool(std::string name, std::string description = "a tool") {
  Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.input_schema = json::object{{"type", "object"},
                                {"properties", json::object{{"path", json::object{{"type", "string"}}}}}};
  return t;
}

inline ToolHandler ok_handler() {
  return [](const json::object&, RequestContext&) -> Result<CallToolResult> { return CallToolResult{}; };
}

// tools/manifest's answer: `tools` signed by `k` now (or at `issued_at`).
inline json::value signed_manifest(std::vector<Tool> tools, const trust::Ed25519SecretKey& k,
                                   std::string issuer = "scripted", std::optional<std::int64_t> issued_at = {}) {
  trust::SignOptions o{.issuer = std::move(issuer), .issued_at_ms = issued_at.value_or(trust::now_unix_ms())};
  auto s = trust::sign_tools(std::move(tools), k, o);
  if (!s) throw std::runtime_error(s.error().message);
  return to_json(*s);
}

inline json::value tools_list(const std::vector<Tool>& tools) {
  json::array a;
  for (const auto& t : tools) a.push_back(to_json(t));
  return json::object{{"tools", std::move(a)}};
}

// A server written by hand on the session engine: initialize advertises signed manifests under
// `key_id` (unless empty), each other method answers what the test set. Nothing keeps it honest.
class ScriptedServer : public Session::Handler {
 public:
  explicit ScriptedServer(std::optional<std::string> key_id) : key_id_(std::move(key_id)) {}
  ~ScriptedServer() override {
    if (session_) session_->shutdown();
  }
  void start(std::shared_ptr<Transport> t) {
    session_ = Session::create(std::move(t), *this, Session::Options{});
    ASSERT_TRUE(session_->start());
  }
  void answer(const std::string& method, json::value result) {
    std::lock_guard lock(mu_);
    answers_[method] = std::move(result);
  }
  int manifest_requests() const { return manifest_requests_.load(); }
  void tools_changed() { (void)session_->notify("notifications/tools/list_changed", {}); }

  Result<json::value> handle_request(InboundRequest& r) override {
    if (r.method == "initialize") {
      json::object caps{{"tools", json::object{{"listChanged", true}}}};
      if (key_id_)
        caps[trust::kSignedManifestsCapability] = json::object{{"algorithm", "ed25519"}, {"keyId", *key_id_}};
      return json::object{{"protocolVersion", "2025-11-25"},
                          {"capabilities", std::move(caps)},
                          {"serverInfo", json::object{{"name", "scripted"}, {"version", "1"}}}};
    }
    if (r.method == "tools/manifest") ++manifest_requests_;
    std::lock_guard lock(mu_);
    auto it = answers_.find(r.method);
    if (it == answers_.end()) return fail(Error::method_not_found(r.method));
    return it->second;
  }
  void handle_notification(const jsonrpc::Notification&) override {}

 private:
  std::optional<std::string> key_id_;
  std::mutex mu_;
  std::map<std::string, json::value> answers_;
  std::atomic<int> manifest_requests_{0};
  std::shared_ptr<Session> session_;
};

// A client with a manifest policy, recording every violation reported to it.
struct ManifestClient {
  std::mutex mu;
  std::vector<SignatureViolation> reported;
  std::vector<std::string> accepted;  // manifestHash of each manifest accepted
  std::atomic<int> list_changed{0};
  std::unique_ptr<Client> client;

  explicit ManifestClient(ManifestPolicy policy) {
    policy.on_violation = [this](const SignatureViolation& v) {
      std::lock_guard lock(mu);
      reported.push_back(v);
    };
    policy.on_manifest = [this](const trust::VerifyResult& r) {
      std::lock_guard lock(mu);
      accepted.push_back(r.manifest_hash);
    };
    ClientOptions co;
    co.manifest = std::move(policy);
    co.session.request_timeout = 5s;
    co.on_list_changed = [this](const std::string&) { ++list_changed; };
    client = std::make_unique<Client>(std::move(co));
  }
  std::vector<SignatureViolation> violations() {
    std::lock_guard lock(mu);
    return reported;
  }
  std::vector<std::string> manifests_accepted() {
    std::lock_guard lock(mu);
    return accepted;
  }
  bool wait_list_changed(int at_least) {
    for (int i = 0; i < 1000 && list_changed.load() < at_least; ++i) std::this_thread::sleep_for(2ms);
    return list_changed.load() >= at_least;
  }
};

inline ManifestPolicy pinned(EnforcementMode mode, const trust::Ed25519PublicKey& k) {
  ManifestPolicy p;
  p.mode = mode;
  p.public_key = k;
  return p;
}

// Runs `call` with stderr captured; returns what was logged.
template <class F>
std::string logged_during(F&& call) {
  ::testing::internal::CaptureStderr();
  call();
  return ::testing::internal::GetCapturedStderr();
}

// What a call that met a violation (`rule`, about `item`'s `field`; item empty for the whole
// manifest) must do in `mode`:
//   strict      fail with kManifestViolationCode naming them, close the session, and make every
//               later call fail alike;
//   permissive  succeed, with the violation reported and logged;
//   advisory    succeed, with the violation reported and not logged.
template <class T>
void expect_consequence(EnforcementMode mode, const Result<T>& r, const std::string& logs, ManifestClient& c,
                        std::string_view rule, const std::string& item, const std::string& field) {
  using ::testing::HasSubstr;
  const auto reported = c.violations();
  ASSERT_FALSE(reported.empty()) << "no violation was reported";
  EXPECT_EQ(reported.back().rule, rule);
  EXPECT_EQ(reported.back().item, item);
  EXPECT_EQ(reported.back().field, field);
  EXPECT_EQ(c.client->manifest_violations().size(), reported.size());
  const std::string named = item.empty() ? "field '" + field + "'" : "'" + item + "', field '" + field + "'";
  switch (mode) {
    case EnforcementMode::strict: {
      ASSERT_FALSE(r) << "strict mode must refuse the result";
      EXPECT_EQ(r.error().code, kManifestViolationCode);
      EXPECT_THAT(r.error().message, HasSubstr(named));
      EXPECT_TRUE(c.client->closed());
      auto again = c.client->list_tools();
      ASSERT_FALSE(again);
      EXPECT_EQ(again.error().code, kManifestViolationCode);
      break;
    }
    case EnforcementMode::permissive:
      EXPECT_TRUE(r) << r.error().message;
      EXPECT_THAT(logs, HasSubstr("signed manifest violation"));
      EXPECT_THAT(logs, HasSubstr(named));
      EXPECT_FALSE(c.client->closed());
      break;
    case EnforcementMode::advisory:
      EXPECT_TRUE(r) << r.error().message;
      EXPECT_THAT(logs, ::testing::Not(HasSubstr("signed manifest violation")));
      EXPECT_FALSE(c.client->closed());
      break;
  }
}

inline std::string mode_name(const ::testing::TestParamInfo<EnforcementMode>& info) {
  return std::string(to_string(info.param));
}

#define MCP_ALL_MODES \
  ::testing::Values(EnforcementMode::strict, EnforcementMode::permissive, EnforcementMode::advisory)

}  // namespace mcp::mantest
