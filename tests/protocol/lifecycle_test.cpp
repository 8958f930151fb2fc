#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/methods.hpp"
#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;

// The specification's initialize request (basic/lifecycle.mdx), plus the trust extensions' keys.
constexpr std::string_view kInitialize = R"({
  "protocolVersion": "2025-11-25",
  "capabilities": {
    "roots": {"listChanged": true},
    "sampling": {},
    "elicitation": {"form": {}, "url": {}},
    "tasks": {"requests": {"elicitation": {"create": {}}, "sampling": {"createMessage": {}}}},
    "signature": {"algorithms": ["ed25519"]}
  },
  "clientInfo": {
    "name": "ExampleClient",
    "title": "Example Client Display Name",
    "version": "1.0.0",
    "description": "An example MCP client application",
    "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"]}],
    "websiteUrl": "https://example.com"
  },
  "_meta": {"progressToken": 1}
})";

TEST(Initialize, RequestFromTheSpecificationRoundTrips) {
  auto p = parse_ok<InitializeRequestParams>(kInitialize);
  EXPECT_EQ(p.protocol_version, "2025-11-25");
  ASSERT_TRUE(p.capabilities.roots);
  EXPECT_EQ(p.capabilities.roots->list_changed, true);
  ASSERT_TRUE(p.capabilities.sampling);
  EXPECT_FALSE(p.capabilities.sampling->tools);
  EXPECT_TRUE(p.capabilities.elicitation->supports_url());
  // Capabilities this SDK does not model are kept, untouched.
  EXPECT_TRUE(p.capabilities.extra.contains("tasks"));
  EXPECT_EQ(p.capabilities.extra.at("signature"), J(R"({"algorithms":["ed25519"]})"));
  EXPECT_EQ(p.client_info.website_url, "https://example.com");
  EXPECT_EQ(p.client_info.icons.at(0).sizes, std::vector<std::string>{"48x48"});
  EXPECT_EQ(to_json(p), J(kInitialize));
}

TEST(Initialize, ServerResult) {
  constexpr std::string_view kResult = R"({
    "protocolVersion": "2025-11-25",
    "capabilities": {
      "logging": {}, "completions": {},
      "prompts": {"listChanged": true},
      "resources": {"subscribe": true, "listChanged": true, "x-extra": 1},
      "tools": {"listChanged": true},
      "experimental": {"example.com/streaming": {"v": 2}},
      "io.modelcontextprotocol/signed-manifests": {"keys": ["k1"]}
    },
    "serverInfo": {"name": "ExampleServer", "version": "1.0.0"},
    "instructions": "Optional instructions for the client",
    "_meta": {"m": 1}
  })";
  auto r = parse_ok<InitializeResult>(kResult);
  EXPECT_EQ(r.capabilities.resources->subscribe, true);
  EXPECT_EQ(r.capabilities.resources->extra, (json::object{{"x-extra", 1}}));
  EXPECT_TRUE(r.capabilities.logging);
  EXPECT_EQ(r.capabilities.tools->list_changed, true);
  EXPECT_TRUE(r.capabilities.extra.contains("io.modelcontextprotocol/signed-manifests"));
  EXPECT_EQ(r.instructions, "Optional instructions for the client");
  EXPECT_EQ(to_json(r), J(kResult));
}

TEST(Initialize, EmptyCapabilitiesStayEmpty) {
  auto p = parse_ok<InitializeRequestParams>(
      R"({"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}})");
  EXPECT_FALSE(p.capabilities.roots);
  EXPECT_FALSE(p.capabilities.sampling);
  EXPECT_FALSE(p.capabilities.elicitation);
  EXPECT_EQ(to_json(p.capabilities), J("{}"));
  EXPECT_EQ(to_json(ServerCapabilities{}), J("{}"));
}

TEST(Initialize, ErrorsNameTheNestedPath) {
  EXPECT_INVALID(InitializeRequestParams,
                 R"({"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":"yes"}},
                     "clientInfo":{"name":"c","version":"1"}})",
                 "InitializeRequestParams.capabilities -> ClientCapabilities.roots -> "
                 "ListChangedCapability.listChanged: expected a boolean");
  EXPECT_INVALID(InitializeRequestParams,
                 R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c"}})",
                 "InitializeRequestParams.clientInfo -> Implementation.version: required field is missing");
  EXPECT_INVALID(InitializeRequestParams, R"({"protocolVersion":20251125,"capabilities":{},"clientInfo":{}})",
                 "InitializeRequestParams.protocolVersion: expected a string");
  EXPECT_INVALID(InitializeResult,
                 R"({"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":true}},
                     "serverInfo":{"name":"s","version":"1"}})",
                 "ServerCapabilities.experimental.x: expected an object");
  EXPECT_INVALID(InitializeResult,
                 R"({"protocolVersion":"2025-11-25","capabilities":{"resources":{"subscribe":1}},
                     "serverInfo":{"name":"s","version":"1"}})",
                 "ResourcesCapability.subscribe: expected a boolean");
  EXPECT_INVALID(ClientCapabilities, R"({"sampling":{"tools":true}})", "SamplingCapability.tools: expected an object");
}

TEST(Initialize, ProtocolVersions) {
  EXPECT_EQ(kLatestProtocolVersion, "2025-11-25");
  EXPECT_TRUE(is_supported_protocol_version("2025-06-18"));
  EXPECT_TRUE(is_supported_protocol_version("2025-03-26"));
  EXPECT_FALSE(is_supported_protocol_version("2024-11-05"));
  EXPECT_FALSE(is_supported_protocol_version("2025-11-25 "));
  static_assert(is_supported_protocol_version(kLatestProtocolVersion));
}

TEST(Initialize, ImplementationRoundTrip) {
  expect_round_trip<Implementation>(
      R"({"name":"n","version":"1","title":"t","description":"d","websiteUrl":"https://e.com",
          "icons":[{"src":"data:image/png;base64,AA==","theme":"light"}],"x":1})");
}

}  // namespace
}  // namespace mcp
