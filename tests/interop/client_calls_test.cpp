// Our client against server-everything: tool calls, sampling, elicitation, roots, progress, cancellation, content types.
#include "everything_fixture.hpp"

using namespace interop_test;

namespace {

// gtest needs one fixture class per test suite name across the binary: one suite per file.
class EverythingCalls : public EverythingServer {};

TEST_F(EverythingCalls, EchoRoundTripsArbitraryText) {
  const std::string message = "h\xC3\xA9llo \"w\xC3\xB6rld\" \\ back\\slash\n\ttab \xE2\x9C\x93 \xF0\x9F\x9A\x80 <&>";
  auto r = call("echo", {{"message", message}});
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_NE(r->is_error, true);
  ASSERT_EQ(r->content.size(), 1u);
  EXPECT_EQ(text_of(r->content, 0), "Echo: " + message);
}

TEST_F(EverythingCalls, GetSumAddsNumbers) {
  auto r = call("get-sum", {{"a", 2}, {"b", 3.5}});
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_EQ(text_of(r->content, 0), "The sum of 2 and 3.5 is 5.5.");
  auto big = call("get-sum", {{"a", 40}, {"b", -2}});
  ASSERT_TRUE(big) << describe(big.error());
  EXPECT_EQ(text_of(big->content, 0), "The sum of 40 and -2 is 38.");
}

TEST_F(EverythingCalls, SamplingRequestIsAnsweredByOurHandler) {
  auto r = call("trigger-sampling-request", {{"prompt", "Why is the sky blue?"}, {"maxTokens", 42}});
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_NE(r->is_error, true) << all_text(*r);
  const std::string text = text_of(r->content, 0);
  EXPECT_TRUE(contains(text, "LLM sampling result")) << text;
  EXPECT_TRUE(contains(text, kCannedText)) << text;
  EXPECT_TRUE(contains(text, kCannedModel)) << text;
  EXPECT_TRUE(contains(text, "endTurn")) << text;

  std::lock_guard l(rec->mu);
  ASSERT_EQ(rec->sampling.size(), 1u);
  const auto& req = rec->sampling[0];
  EXPECT_EQ(req.max_tokens, 42);
  EXPECT_EQ(req.system_prompt, "You are a helpful test server.");
  ASSERT_TRUE(req.temperature.has_value());
  EXPECT_DOUBLE_EQ(*req.temperature, 0.7);
  ASSERT_EQ(req.messages.size(), 1u);
  EXPECT_EQ(req.messages[0].role, Role::user);
  ASSERT_EQ(req.messages[0].content.size(), 1u);
  const auto* t = std::get_if<TextContent>(&req.messages[0].content[0]);
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(contains(t->text, "Why is the sky blue?")) << t->text;
}

TEST_F(EverythingCalls, FormElicitationIsFilledFromTheRequestedSchema) {
  auto r = call("trigger-elicitation-request");
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_NE(r->is_error, true) << all_text(*r);
  const std::string text = all_text(*r);
  EXPECT_TRUE(contains(text, "User provided the requested information!")) << text;
  EXPECT_TRUE(contains(text, "- Name: Ada Lovelace")) << text;
  EXPECT_TRUE(contains(text, "- Agreed to terms: true")) << text;
  EXPECT_TRUE(contains(text, "- Email: ada@example.com")) << text;
  EXPECT_TRUE(contains(text, "- Homepage: https://example.com/ada")) << text;
  EXPECT_TRUE(contains(text, "- Birthdate: 1815-12-10")) << text;
  EXPECT_TRUE(contains(text, "- Favorite Integer: 42")) << text;  // the schema's default
  EXPECT_TRUE(contains(text, "- Favorite Number: 3.14")) << text;  // the schema's default

  std::lock_guard l(rec->mu);
  ASSERT_EQ(rec->form_elicitations.size(), 1u);
  const auto& form = rec->form_elicitations[0];
  EXPECT_EQ(form.message, "Please provide inputs for the following fields:");
  EXPECT_NE(std::ranges::find(form.requested_schema.required, "name"), form.requested_schema.required.end());
  for (const char* field : {"name", "check", "firstLine", "email", "integer", "number", "untitledMultipleSelectEnum",
                            "titledSingleSelectEnum", "titledMultipleSelectEnum", "legacyTitledEnum"})
    EXPECT_TRUE(form.requested_schema.properties.contains(field)) << "requested schema lacks " << field;

  // The server quotes the raw result it received: our answer must have arrived unchanged.
  const std::string marker = "Raw result: ";
  auto pos = text.find(marker);
  ASSERT_NE(pos, std::string::npos) << text;
  boost::system::error_code ec;
  json::value raw = json::parse(std::string_view(text).substr(pos + marker.size()), ec);
  ASSERT_FALSE(ec) << ec.message() << " in " << text.substr(pos);
  EXPECT_EQ(raw.at("action"), json::value("accept"));
  const json::object& got = raw.at("content").as_object();
  EXPECT_EQ(got.at("firstLine"), json::value("It was a dark and stormy night."));
  EXPECT_EQ(got.at("untitledSingleSelectEnum"), json::value("Monica"));
  EXPECT_EQ(got.at("untitledMultipleSelectEnum"), json::value(json::array{"Guitar"}));
  EXPECT_EQ(got.at("titledSingleSelectEnum"), json::value("hero-1"));
  EXPECT_EQ(got.at("titledMultipleSelectEnum"), json::value(json::array{"fish-1"}));
  EXPECT_EQ(got.at("legacyTitledEnum"), json::value("pet-1"));
  EXPECT_EQ(got.size(), rec->form_answers[0].size());
}

TEST_F(EverythingCalls, UrlElicitationByRequestAndByError) {
  // Request path: the server sends elicitation/create in URL mode and waits for our answer.
  auto r = call("trigger-url-elicitation", {{"url", "https://example.com/consent"}});
  ASSERT_TRUE(r) << describe(r.error());
  const std::string text = all_text(*r);
  EXPECT_TRUE(contains(text, "User completed the URL elicitation flow")) << text;
  {
    std::lock_guard l(rec->mu);
    ASSERT_EQ(rec->url_elicitations.size(), 1u);
    EXPECT_EQ(rec->url_elicitations[0].url, "https://example.com/consent");
    EXPECT_FALSE(rec->url_elicitations[0].elicitation_id.empty());
    EXPECT_TRUE(contains(text, "Elicitation ID: " + rec->url_elicitations[0].elicitation_id)) << text;
  }

  // Error path: tools/call fails with -32042 carrying the elicitations to complete first.
  json::object args{{"url", "https://example.com/authorize"}, {"errorPath", true}};
  auto e = call("trigger-url-elicitation", args);
  ASSERT_FALSE(e) << "expected -32042, got a result: " << all_text(*e);
  EXPECT_EQ(e.error().code, error_code::kUrlElicitationRequired) << describe(e.error());
  auto pending = url_elicitations(e.error());
  ASSERT_TRUE(pending) << describe(pending.error());
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ((*pending)[0].url, "https://modelcontextprotocol.io");
  EXPECT_FALSE((*pending)[0].elicitation_id.empty());

  // Retrying the same call after the prerequisite goes through the request path.
  auto retry = call("trigger-url-elicitation", args);
  ASSERT_TRUE(retry) << describe(retry.error());
  EXPECT_TRUE(contains(all_text(*retry), "User completed the URL elicitation flow")) << all_text(*retry);
}

TEST_F(EverythingCalls, RootsReachTheServer) {
  auto r = call("get-roots-list");
  ASSERT_TRUE(r) << describe(r.error());
  const std::string text = text_of(r->content, 0);
  EXPECT_TRUE(contains(text, "Current MCP Roots (1 total)")) << text;
  EXPECT_TRUE(contains(text, kRootName)) << text;
  EXPECT_TRUE(contains(text, kRootUri)) << text;
}

TEST_F(EverythingCalls, ProgressNotificationsReachOurCallback) {
  std::mutex mu;
  std::vector<ProgressInfo> seen;
  CallOptions o = bounded();
  o.on_progress = [&](const ProgressInfo& p) {
    std::lock_guard l(mu);
    seen.push_back(p);
  };
  auto r = call("trigger-long-running-operation", {{"duration", 0.6}, {"steps", 3}}, std::move(o));
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_EQ(text_of(r->content, 0), "Long running operation completed. Duration: 0.6 seconds, Steps: 3.");
  // Progress precedes the response on the one stream, so every callback has run by now.
  std::lock_guard l(mu);
  ASSERT_EQ(seen.size(), 3u);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_DOUBLE_EQ(seen[i].progress, static_cast<double>(i + 1));
    EXPECT_EQ(seen[i].total, 3.0);
  }
}

TEST_F(EverythingCalls, TimeoutAndCancellationEndALongCall) {
  // No answer within the timeout: -32001, well before the operation would finish.
  auto start = std::chrono::steady_clock::now();
  auto slow = call("trigger-long-running-operation", {{"duration", 1.5}, {"steps", 1}}, bounded(300ms));
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(slow) << "expected a timeout, got " << all_text(*slow);
  EXPECT_EQ(slow.error().code, error_code::kRequestTimeout) << describe(slow.error());
  EXPECT_LT(took, 1200ms);

  // Cancelled after the first progress notification: -32800 at once.
  CallOptions o = bounded();
  CancellationToken cancel = o.cancel;
  o.on_progress = [cancel](const ProgressInfo&) { cancel.cancel("enough"); };
  start = std::chrono::steady_clock::now();
  auto cancelled = call("trigger-long-running-operation", {{"duration", 2.0}, {"steps", 4}}, std::move(o));
  took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(cancelled) << "expected cancellation, got " << all_text(*cancelled);
  EXPECT_EQ(cancelled.error().code, error_code::kRequestCancelled) << describe(cancelled.error());
  EXPECT_LT(took, 1800ms);

  // The connection is still fine.
  EXPECT_TRUE(client->ping());
  auto echo = call("echo", {{"message", "still here"}});
  ASSERT_TRUE(echo) << describe(echo.error());
  EXPECT_EQ(text_of(echo->content, 0), "Echo: still here");
}

TEST_F(EverythingCalls, StructuredContentMatchesItsOutputSchema) {
  auto tools = client->list_all_tools();
  ASSERT_TRUE(tools) << describe(tools.error());
  const Tool* tool = find_named(*tools, "get-structured-content");
  ASSERT_NE(tool, nullptr);
  ASSERT_TRUE(tool->output_schema.has_value());

  auto r = call("get-structured-content", {{"location", "Chicago"}});
  ASSERT_TRUE(r) << describe(r.error());
  ASSERT_TRUE(r->structured_content.has_value());
  const json::object& sc = *r->structured_content;
  EXPECT_EQ(sc.at("temperature").to_number<double>(), 36.0);
  EXPECT_EQ(sc.at("conditions"), json::value("Light rain / drizzle"));
  EXPECT_EQ(sc.at("humidity").to_number<double>(), 82.0);
  if (const auto* req = tool->output_schema->if_contains("required"); req && req->is_array()) {
    for (const auto& k : req->get_array()) {
      EXPECT_TRUE(sc.contains(k.as_string())) << "missing " << k;
    }
  }
  // The text block is the same object, for clients that do not read structuredContent.
  EXPECT_EQ(json::parse(text_of(r->content, 0)), json::value(sc));
}

TEST_F(EverythingCalls, AnnotatedTextAndImageContent) {
  auto r = call("get-annotated-message", {{"messageType", "error"}, {"includeImage", true}});
  ASSERT_TRUE(r) << describe(r.error());
  ASSERT_EQ(r->content.size(), 2u);
  const auto* text = std::get_if<TextContent>(&r->content[0]);
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(text->text, "Error: Operation failed");
  ASSERT_TRUE(text->annotations.has_value());
  EXPECT_EQ(text->annotations->priority, 1.0);
  EXPECT_EQ(text->annotations->audience, (std::vector<Role>{Role::user, Role::assistant}));
  const auto* image = std::get_if<ImageContent>(&r->content[1]);
  ASSERT_NE(image, nullptr) << "block 1 is " << content_type(r->content[1]);
  EXPECT_EQ(image->mime_type, "image/png");
  ASSERT_TRUE(image->annotations.has_value());
  EXPECT_EQ(image->annotations->priority, 0.5);
  EXPECT_EQ(image->annotations->audience, std::vector<Role>{Role::user});
  EXPECT_EQ(base64_decode(image->data).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));

  auto tiny = call("get-tiny-image");
  ASSERT_TRUE(tiny) << describe(tiny.error());
  ASSERT_EQ(tiny->content.size(), 3u);
  EXPECT_EQ(text_of(tiny->content, 0), "Here's the image you requested:");
  const auto* same = std::get_if<ImageContent>(&tiny->content[1]);
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->data, image->data);
  EXPECT_FALSE(same->annotations.has_value());
  EXPECT_EQ(text_of(tiny->content, 2), "The image above is the MCP logo.");
}

TEST_F(EverythingCalls, ResourceLinksAndEmbeddedResources) {
  auto links = call("get-resource-links", {{"count", 2}});
  ASSERT_TRUE(links) << describe(links.error());
  ASSERT_EQ(links->content.size(), 3u);
  EXPECT_EQ(text_of(links->content, 0), "Here are 2 resource links to resources available in this server:");
  const auto* l1 = std::get_if<ResourceLink>(&links->content[1]);
  const auto* l2 = std::get_if<ResourceLink>(&links->content[2]);
  ASSERT_TRUE(l1 && l2);
  EXPECT_EQ(l1->uri, "demo://resource/dynamic/blob/1");
  EXPECT_EQ(l1->name, "Blob Resource 1");
  EXPECT_EQ(l2->uri, "demo://resource/dynamic/text/2");
  EXPECT_EQ(l2->mime_type, "text/plain");
  // A link is something the client can read.
  auto read = client->read_resource(l2->uri, bounded());
  ASSERT_TRUE(read) << describe(read.error());
  ASSERT_EQ(read->contents.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<TextResourceContents>(read->contents[0]));

  auto ref = call("get-resource-reference", {{"resourceType", "Blob"}, {"resourceId", 2}});
  ASSERT_TRUE(ref) << describe(ref.error());
  ASSERT_EQ(ref->content.size(), 3u);
  const auto* embedded = std::get_if<EmbeddedResource>(&ref->content[1]);
  ASSERT_NE(embedded, nullptr) << "block 1 is " << content_type(ref->content[1]);
  const auto* blob = std::get_if<BlobResourceContents>(&embedded->resource);
  ASSERT_NE(blob, nullptr);
  EXPECT_EQ(blob->uri, "demo://resource/dynamic/blob/2");
  EXPECT_TRUE(base64_decode(blob->blob).starts_with("Resource 2: This is a base64 blob created at ")) << blob->blob;
}

TEST_F(EverythingCalls, GzipToolCreatesASessionResource) {
  // A data: URL, so no network is involved.
  const std::string payload = "interop payload, interop payload, interop payload";
  const std::string data_url = "data:text/plain;base64,aW50ZXJvcCBwYXlsb2FkLCBpbnRlcm9wIHBheWxvYWQsIGludGVyb3AgcGF5bG9hZA==";
  ASSERT_EQ(base64_decode(data_url.substr(data_url.find(',') + 1)), payload);

  auto r = call("gzip-file-as-resource", {{"name", "interop.txt.gz"}, {"data", data_url}});
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_NE(r->is_error, true) << all_text(*r);
  ASSERT_EQ(r->content.size(), 1u);
  const auto* link = std::get_if<ResourceLink>(&r->content[0]);
  ASSERT_NE(link, nullptr) << "block 0 is " << content_type(r->content[0]);
  EXPECT_EQ(link->uri, "demo://resource/session/interop.txt.gz");
  EXPECT_EQ(link->mime_type, "application/gzip");

  // Registering the resource changed the list, and the server said so.
  EXPECT_TRUE(rec->wait([&] { return std::ranges::count(rec->list_changed, "resources") > 0; }));
  auto listed = client->list_all_resources();
  ASSERT_TRUE(listed) << describe(listed.error());
  EXPECT_NE(find_named(*listed, "interop.txt.gz"), nullptr);

  auto read = client->read_resource(link->uri, bounded());
  ASSERT_TRUE(read) << describe(read.error());
  ASSERT_EQ(read->contents.size(), 1u);
  const auto* blob = std::get_if<BlobResourceContents>(&read->contents[0]);
  ASSERT_NE(blob, nullptr);
  const std::string gz = base64_decode(blob->blob);
  ASSERT_GE(gz.size(), 18u);
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
}

// --- resources ----------------------------------------------------------------------------------


}  // namespace
