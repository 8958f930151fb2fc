// SEP-2093 resources/metadata and per-resource capabilities (the first part of the SEP built):
// the server answers with a resource's metadata, registered or from its template, through the same
// checks as a read; our client asks for it, and falls back to the listing with a server that
// predates the method. Both revisions.
#include <gtest/gtest.h>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::Connected;

namespace {

Result<ReadResourceResult> read_nothing(const std::string&, RequestContext&) { return ReadResourceResult{}; }

std::shared_ptr<Server> server_with_resources() {
  auto server = std::make_shared<Server>();
  Resource dir;
  dir.uri = "mem:///docs/";
  dir.name = "docs";
  dir.title = "Documents";
  dir.capabilities = ResourceCapabilities{.list = true, .subscribe = false};
  server->add_resource(dir, read_nothing);
  Resource file;
  file.uri = "mem:///docs/a.txt";
  file.name = "a.txt";
  file.mime_type = "text/plain";
  file.size = 42;
  file.capabilities = ResourceCapabilities{.subscribe = true};
  server->add_resource(file, read_nothing);
  ResourceTemplate t;
  t.uri_template = "mem:///items/{id}";
  t.name = "item";
  t.description = "One item";
  t.mime_type = "application/json";
  EXPECT_TRUE(server->add_resource_template(t, [](const std::string&, const UriTemplate::Variables&, RequestContext&) {
    return Result<ReadResourceResult>(ReadResourceResult{});
  }));
  return server;
}

class ResourceMetadata : public ::testing::TestWithParam<const char*> {
 protected:
  ClientOptions options() const {
    ClientOptions co;
    co.protocol_version = GetParam();
    return co;
  }
};

TEST_P(ResourceMetadata, ARegisteredResourceIsAnsweredWithItsMetadataAndCapabilities) {
  Connected c(server_with_resources(), options());
  auto dir = c.client->resource_metadata("mem:///docs/");
  ASSERT_TRUE(dir) << dir.error().message;
  EXPECT_EQ(dir->name, "docs");
  EXPECT_EQ(dir->title, "Documents");
  ASSERT_TRUE(dir->capabilities);
  EXPECT_EQ(dir->capabilities->list, true);
  auto file = c.client->resource_metadata("mem:///docs/a.txt");
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(file->size, 42);
  EXPECT_EQ(file->capabilities->subscribe, true);
  EXPECT_FALSE(file->capabilities->list);
}

TEST_P(ResourceMetadata, ATemplatedResourceGetsItsTemplatesMetadataUnderItsOwnUri) {
  Connected c(server_with_resources(), options());
  auto item = c.client->resource_metadata("mem:///items/7");
  ASSERT_TRUE(item) << item.error().message;
  EXPECT_EQ(item->uri, "mem:///items/7");
  EXPECT_EQ(item->name, "item");
  EXPECT_EQ(item->mime_type, "application/json");
}

TEST_P(ResourceMetadata, AnUnknownOrOverlongUriIsAClearError) {
  Connected c(server_with_resources(), options());
  auto missing = c.client->resource_metadata("mem:///nope");
  ASSERT_FALSE(missing);
  // As for a read: -32002 in a 2025-11-25 session, -32602 in 2026-07-28 (which has no -32002).
  EXPECT_EQ(missing.error().code,
            std::string(GetParam()) == "2025-11-25" ? error_code::kResourceNotFound : error_code::kInvalidParams);
  auto flood = c.client->resource_metadata("mem:///" + std::string(20000, 'a'));
  ASSERT_FALSE(flood);
  EXPECT_NE(flood.error().message.find("resources/metadata: uri is"), std::string::npos) << flood.error().message;
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, ResourceMetadata, ::testing::Values("2025-11-25", "2026-07-28"));

// A server that predates SEP-2093: the client finds the resource in the listing instead.
TEST(ResourceMetadataFallback, AServerWithoutTheMethodIsReadFromItsListing) {
  struct Legacy : Session::Handler {
    Result<json::value> handle_request(InboundRequest& r) override {
      if (r.method == method::kInitialize) {
        return json::value{{"protocolVersion", "2025-11-25"},
                           {"capabilities", {{"resources", json::object{}}}},
                           {"serverInfo", {{"name", "old"}, {"version", "1"}}}};
      }
      if (r.method == method::kResourcesList) {
        return json::value{{"resources", json::array{json::object{{"uri", "mem:///x"}, {"name", "x"}, {"size", 3}}}}};
      }
      return fail(Error::method_not_found(r.method));
    }
    void handle_notification(const jsonrpc::Notification&) override {}
  } legacy;
  auto [a, b] = make_memory_transport_pair();
  auto session = Session::create(a, legacy, {});
  ASSERT_TRUE(session->start());
  Client client;
  ASSERT_TRUE(client.connect(b));
  auto x = client.resource_metadata("mem:///x");
  ASSERT_TRUE(x) << x.error().message;
  EXPECT_EQ(x->size, 3);
  auto y = client.resource_metadata("mem:///y");
  ASSERT_FALSE(y);
  EXPECT_NE(y.error().message.find("not in its resources/list"), std::string::npos) << y.error().message;
  client.close();
  session->shutdown();
}

}  // namespace
