// Server profiles end to end, our server and our client, both revisions (docs/wire/profiles.md):
// negotiation as the proposal says, refusals that list what the server supports, the profile a
// handler sees, and the profiles mcp-trust publishes (signed/1.x, read-only/1.x) verified by the
// client before connect() returns.
#include <gtest/gtest.h>

#include "mcp/client/client.hpp"
#include "mcp/protocol/profiles.hpp"
#include "mcp/server/server.hpp"
#include "mcp/signature/card.hpp"
#include "mcp/signature/derive.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::make_tool;
using mcp::test::text_of;

namespace {

const std::string kAudit10 = "https://example.com/profiles/audit/1.0";
const std::string kAudit12 = "https://example.com/profiles/audit/1.2";
const std::string kOther10 = "https://example.com/profiles/other/1.0";
const std::string kReadOnly = std::string(kReadOnlyProfile) + "/1.0";
const std::string kSigned = std::string(kSignedProfile) + "/1.0";

ProfileSpec spec(std::string url, bool is_default = false) {
  return ProfileSpec{.profile_url = std::move(url), .default_ = is_default, .min_mcp_version = "2025-06-18"};
}

std::shared_ptr<Server> server_with(std::vector<ProfileSpec> profiles) {
  auto server = std::make_shared<Server>();
  EXPECT_TRUE(server->set_profiles(std::move(profiles)));
  // Answers with the profile its request is served under; it writes nothing.
  Tool which = make_tool("which");
  which.annotations = ToolAnnotations{};
  which.annotations->read_only_hint = true;
  server->add_tool(which, [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    return CallToolResult::text(ctx.profile().value_or("(none)"));
  });
  return server;
}

struct Connection {
  std::shared_ptr<Server> server;  // held: destroying a Server closes its connections
  std::shared_ptr<ServerSession> session;
  std::unique_ptr<Client> client;
  Result<InitializeResult> init = fail(Error::internal("not connected"));
  Connection(std::shared_ptr<Server> served, ClientOptions co) : server(std::move(served)) {
    co.session.request_timeout = 5s;
    client = std::make_unique<Client>(std::move(co));
    auto [a, b] = make_memory_transport_pair();
    if (auto s = server->connect(a)) session = *s;
    init = client->connect(b);
  }
  ~Connection() {
    client.reset();
    if (session) session->close();
  }
};

class Profiles : public ::testing::TestWithParam<const char*> {
 protected:
  ClientOptions options(std::vector<std::string> profiles = {}) const {
    ClientOptions co;
    co.protocol_version = GetParam();
    co.profiles = std::move(profiles);
    return co;
  }
};

TEST_P(Profiles, ARequestedProfileIsGrantedAndHandlersSeeIt) {
  auto server = server_with({spec(kAudit12, true), spec(kOther10)});
  Connection c(server, options({kAudit10}));  // 1.0 is met by the 1.2 the server implements
  ASSERT_TRUE(c.init) << c.init.error().message;
  EXPECT_EQ(c.client->profile(), kAudit10);
  auto which = c.client->call_tool("which");
  ASSERT_TRUE(which) << which.error().message;
  EXPECT_EQ(text_of(*which), kAudit10);
}

TEST_P(Profiles, WithoutARequestTheDefaultIsUsed) {
  auto server = server_with({spec(kAudit12, true), spec(kOther10)});
  Connection c(server, options());
  ASSERT_TRUE(c.init) << c.init.error().message;
  EXPECT_EQ(c.client->profile(), kAudit12);
  auto which = c.client->call_tool("which");
  ASSERT_TRUE(which) << which.error().message;
  EXPECT_EQ(text_of(*which), kAudit12);
}

TEST_P(Profiles, AServerWithoutProfilesGrantsNone) {
  Connection c(server_with({}), options());
  ASSERT_TRUE(c.init) << c.init.error().message;
  EXPECT_FALSE(c.client->profile());
  auto which = c.client->call_tool("which");
  ASSERT_TRUE(which) << which.error().message;
  EXPECT_EQ(text_of(*which), "(none)");
}

TEST_P(Profiles, AnUnsupportedRequestIsRefused) {
  auto server = server_with({spec(kAudit10, true)});
  Connection c(server, options({"https://example.com/profiles/audit/1.3", "https://example.com/profiles/audit/2.0"}));
  ASSERT_FALSE(c.init);
  // 2025-11-25: initialize is refused, listing what the server supports; 2026-07-28: the client
  // finds that discovery granted none of its requests.
  if (std::string(GetParam()) == "2025-11-25") {
    EXPECT_EQ(c.init.error().code, error_code::kInvalidParams);
    ASSERT_TRUE(c.init.error().data);
    EXPECT_EQ(c.init.error().data->at("supportedProfiles"), (json::array{json::string(kAudit10)}));
  } else {
    EXPECT_NE(c.init.error().message.find("none of the requested profiles"), std::string::npos) << c.init.error().message;
  }
}

TEST_P(Profiles, NoRequestAndNoDefaultIsRefused) {
  auto server = server_with({spec(kAudit10), spec(kOther10)});
  Connection c(server, options());
  if (std::string(GetParam()) == "2025-11-25") {
    ASSERT_FALSE(c.init);
    EXPECT_NE(c.init.error().message.find("no default profile"), std::string::npos) << c.init.error().message;
  } else {
    ASSERT_TRUE(c.init) << c.init.error().message;  // discovery always answers: it lists the profiles...
    auto call = c.client->call_tool("which");      // ...but no request is served without one
    ASSERT_FALSE(call);
    EXPECT_NE(call.error().message.find("no default profile"), std::string::npos) << call.error().message;
  }
}

// read-only/1.x: every tool of the signature's worst case is readOnlyHint.
TEST_P(Profiles, AReadOnlyProfileIsVerifiedAgainstTheSignature) {
  ToolAnnotations reads;
  reads.read_only_hint = true;
  ToolAnnotations writes;
  writes.read_only_hint = false;
  for (bool honest : {true, false}) {
    auto server = server_with({spec(kReadOnly, true)});
    Tool t = make_tool("lookup");
    t.annotations = reads;
    server->add_tool(t, [](const json::object&, RequestContext&) -> Result<CallToolResult> { return CallToolResult::text(""); });
    SignatureDeclarations d;
    if (!honest) d.tool_variants["lookup"] = {writes};  // it may also be offered as a writing tool
    ASSERT_TRUE(server->derive_signature(d));
    Connection c(server, options({kReadOnly}));
    if (honest) {
      EXPECT_TRUE(c.init) << c.init.error().message;
    } else {
      ASSERT_FALSE(c.init);
      EXPECT_NE(c.init.error().message.find("without readOnlyHint"), std::string::npos) << c.init.error().message;
    }
  }
}

// signed/1.x: a card whose proof the application verified, carrying the signature served, and a
// signed tool manifest that verifies.
TEST_P(Profiles, ASignedProfileNeedsAVerifiedCardAndAVerifiedManifest) {
  auto key = trust::Ed25519SecretKey::generate();
  const auto public_key = key.public_key();
  auto server = server_with({spec(kSigned, true)});
  ASSERT_TRUE(server->derive_signature());
  auto manifest_key = trust::Ed25519SecretKey::generate();
  const auto manifest_public = manifest_key.public_key();
  ASSERT_TRUE(server->set_manifest_signing(ManifestSigning{.key = std::move(manifest_key), .issuer = "t"}));
  // The card as the HTTP server would serve it, verified as an application would.
  auto card = make_server_card(server->options().info, *server->signature(), &key);
  ASSERT_TRUE(card);
  auto rep = card_representation(*card);
  ASSERT_TRUE(rep);
  auto verified = verify_server_card(rep->body, public_key);
  ASSERT_TRUE(verified.ok()) << verified.detail;

  {  // no card given: refused
    Connection c(server, options({kSigned}));
    ASSERT_FALSE(c.init);
    EXPECT_NE(c.init.error().message.find("verified proof"), std::string::npos) << c.init.error().message;
  }
  {  // the card, but no manifest verified: refused
    auto co = options({kSigned});
    co.verified_card_signature = verified.card->signature_digest;
    Connection c(server, co);
    ASSERT_FALSE(c.init);
    EXPECT_NE(c.init.error().message.find("manifest"), std::string::npos) << c.init.error().message;
  }
  {  // a card for another signature: refused
    auto co = options({kSigned});
    co.verified_card_signature = "sha256:" + std::string(64, '0');
    Connection c(server, co);
    ASSERT_FALSE(c.init);
    EXPECT_NE(c.init.error().message.find("is not the one its verified card carries"), std::string::npos) << c.init.error().message;
  }
  {  // both: granted
    auto co = options({kSigned});
    co.verified_card_signature = verified.card->signature_digest;
    co.manifest = ManifestPolicy{.public_key = manifest_public};
    Connection c(server, co);
    ASSERT_TRUE(c.init) << c.init.error().message;
    EXPECT_EQ(c.client->profile(), kSigned);
  }
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, Profiles, ::testing::Values("2025-11-25", "2026-07-28"));

TEST(ProfilesServer, AnInvalidListIsRefusedAtConfiguration) {
  Server server;
  auto bad = server.set_profiles({spec(kAudit10), spec(kOther10, true)});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("only the first"), std::string::npos);
  EXPECT_TRUE(server.profiles().empty());
}

}  // namespace
