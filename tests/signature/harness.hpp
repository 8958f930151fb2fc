// Test harness for the signature rules over the in-memory transport: a scripted server that says
// whatever a test wants (including what breaks the rules), a client with a signature policy that
// records what it was told, and the expected consequence of a violation in each mode.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/session/session.hpp"
#include "mcp/signature/checker.hpp"
#include "mcp/transport/memory.hpp"

namespace mcp::sigtest {

using namespace std::chrono_literals;

// A server written by hand on the session engine: initialize answers `init`, each other method the
// result set for it. Nothing polices it, so it can break every rule.
class ScriptedServer : public Session::Handler {
 public:
  explicit ScriptedServer(json::object init) : init_(std::move(init)) {}
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
  void list_changed(std::string_view list) {
    (void)session_->notify("notifications/" + std::string(list) + "/list_changed", {});
  }

  Result<json::value> handle_request(InboundRequest& r) override {
    if (r.method == "initialize") return init_;
    std::lock_guard lock(mu_);
    auto it = answers_.find(r.method);
    if (it == answers_.end()) return fail(Error::method_not_found(r.method));
    return it->second;
  }
  void handle_notification(const jsonrpc::Notification&) override {}

 private:
  json::object init_;
  std::mutex mu_;
  std::map<std::string, json::value> answers_;
  std::shared_ptr<Session> session_;
};

// An initialize result declaring tools, prompts and resources, with `signature` in it if given.
inline json::object init_result(const std::optional<ServerSignature>& signature) {
  json::object caps{{"tools", json::object{{"listChanged", true}}},
                    {"prompts", json::object{{"listChanged", true}}},
                    {"resources", json::object{{"listChanged", true}}}};
  json::object r{{"protocolVersion", "2025-11-25"},
                 {"serverInfo", json::object{{"name", "scripted"}, {"version", "1"}}}};
  if (signature) {
    caps["signature"] = json::object{{"inInitialize", true}, {"inServerCard", false}};
    r["signature"] = to_json(*signature);
  }
  r["capabilities"] = std::move(caps);
  return r;
}

inline json::value tools_list(std::initializer_list<json::value> tools) {
  json::array a;
  for (const auto& t : tools) a.push_back(t);
  return json::object{{"tools", std::move(a)}};
}

// A client with a signature policy, recording every violation reported to it.
struct PolicedClient {
  std::mutex mu;
  std::vector<SignatureViolation> reported;
  std::atomic<int> list_changed{0};
  std::unique_ptr<Client> client;

  // `protocol`: the revision the client asks for (ClientOptions::protocol_version).
  explicit PolicedClient(SignaturePolicy policy, std::string protocol = "2026-07-28") {
    policy.on_violation = [this](const SignatureViolation& v) {
      std::lock_guard lock(mu);
      reported.push_back(v);
    };
    ClientOptions co;
    co.signature_policy = std::move(policy);
    co.protocol_version = std::move(protocol);
    co.session.request_timeout = 5s;
    co.on_list_changed = [this](const std::string&) { ++list_changed; };
    client = std::make_unique<Client>(std::move(co));
  }
  std::vector<SignatureViolation> violations() {
    std::lock_guard lock(mu);
    return reported;
  }
  bool wait_list_changed(int at_least) {
    for (int i = 0; i < 500 && list_changed.load() < at_least; ++i) std::this_thread::sleep_for(2ms);
    return list_changed.load() >= at_least;
  }
};

inline SignaturePolicy policy(EnforcementMode mode) {
  SignaturePolicy p;
  p.mode = mode;
  return p;
}

// Runs `call` with stderr captured; returns what was logged.
template <class F>
std::string logged_during(F&& call) {
  ::testing::internal::CaptureStderr();
  call();
  return ::testing::internal::GetCapturedStderr();
}

// The consequence a call that met a violation about `item`'s `field` must have in `mode`:
//   strict      the call fails with kSignatureViolationCode naming both, the session closes, and
//               every later call fails with the same error;
//   permissive  the call succeeds, the violation is reported and logged;
//   advisory    the call succeeds, the violation is reported and not logged.
template <class T>
void expect_consequence(EnforcementMode mode, const Result<T>& r, const std::string& logs, PolicedClient& c,
                        const std::string& item, const std::string& field) {
  using ::testing::HasSubstr;
  const auto reported = c.violations();
  ASSERT_FALSE(reported.empty()) << "no violation was reported";
  EXPECT_EQ(reported.back().item, item);
  EXPECT_EQ(reported.back().field, field);
  EXPECT_EQ(c.client->signature_violations().size(), reported.size());
  const std::string named = "'" + item + "', field '" + field + "'";
  switch (mode) {
    case EnforcementMode::strict: {
      ASSERT_FALSE(r) << "strict mode must refuse the result";
      EXPECT_EQ(r.error().code, kSignatureViolationCode);
      EXPECT_THAT(r.error().message, HasSubstr(named));
      EXPECT_TRUE(c.client->closed());
      auto again = c.client->list_tools();
      ASSERT_FALSE(again);
      EXPECT_EQ(again.error().code, kSignatureViolationCode);
      EXPECT_THAT(again.error().message, HasSubstr(named));
      break;
    }
    case EnforcementMode::permissive:
      EXPECT_TRUE(r) << r.error().message;
      EXPECT_THAT(logs, HasSubstr("capability signature violation"));
      EXPECT_THAT(logs, HasSubstr(named));
      EXPECT_FALSE(c.client->closed());
      break;
    case EnforcementMode::advisory:
      EXPECT_TRUE(r) << r.error().message;
      EXPECT_THAT(logs, ::testing::Not(HasSubstr("capability signature violation")));
      EXPECT_FALSE(c.client->closed());
      break;
  }
}

// Names the parameterised tests after the mode: Completeness/strict, ...
inline std::string mode_name(const ::testing::TestParamInfo<EnforcementMode>& info) {
  return std::string(to_string(info.param));
}

#define MCP_ALL_MODES \
  ::testing::Values(EnforcementMode::strict, EnforcementMode::permissive, EnforcementMode::advisory)

}  // namespace mcp::sigtest
