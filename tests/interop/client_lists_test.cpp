// Our client against server-everything: handshake, ping, listing with paging, resources, prompts, completion.
#include "everything_fixture.hpp"

using namespace interop_test;

namespace {

// gtest needs one fixture class per test suite name across the binary: one suite per file.
class EverythingLists : public EverythingServer {};

TEST_F(EverythingLists, HandshakeReportsTheServerAndItsCapabilities) {
  const InitializeResult& s = client->server();
  EXPECT_EQ(s.server_info.name, "mcp-servers/everything");
  EXPECT_EQ(s.server_info.title, "Everything Reference Server");
  EXPECT_EQ(s.protocol_version, "2025-11-25");
  ASSERT_TRUE(s.instructions.has_value());
  EXPECT_TRUE(contains(*s.instructions, "Everything Server")) << *s.instructions;

  EXPECT_TRUE(client->server_supports("tools"));
  EXPECT_TRUE(client->server_supports("tools.listChanged"));
  EXPECT_TRUE(client->server_supports("prompts"));
  EXPECT_TRUE(client->server_supports("resources"));
  EXPECT_TRUE(client->server_supports("resources.subscribe"));
  EXPECT_TRUE(client->server_supports("logging"));
  EXPECT_TRUE(client->server_supports("completions"));
  EXPECT_FALSE(client->server_supports("no-such-capability"));
  ASSERT_TRUE(s.capabilities.resources.has_value());
  EXPECT_EQ(s.capabilities.resources->subscribe, true);
  // "tasks" is not modelled by the SDK; it must survive in `extra`, not be dropped.
  EXPECT_TRUE(s.capabilities.extra.contains("tasks"));

  // After initialized the server registered its capability-dependent tools and said so, asked for
  // our roots, and logged how many it got.
  EXPECT_TRUE(rec->wait([&] { return std::ranges::count(rec->list_changed, "tools") > 0; }));
  std::lock_guard l(rec->mu);
  EXPECT_EQ(rec->roots_requests, 1);
  EXPECT_TRUE(rec->has_log_containing("Roots updated: 1 root(s) received from client"));
  bool from_everything_logger = false;
  for (const auto& m : rec->logs) from_everything_logger |= m.logger == "everything-server";
  EXPECT_TRUE(from_everything_logger);
  // The child's stderr is drained and delivered line by line.
  EXPECT_NE(std::ranges::find(rec->stderr_lines, "Starting default (STDIO) server..."), rec->stderr_lines.end());
  EXPECT_TRUE(rec->handler_errors.empty());
}

TEST_F(EverythingLists, PingAndLogLevel) {
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(client->ping()) << "ping " << i;

  // With the level at error, the server's info-level acknowledgement of a subscription must not
  // arrive; the server sends it before the subscribe response, so its absence is certain once
  // subscribe() has returned.
  ASSERT_TRUE(client->set_log_level(LoggingLevel::error));
  ASSERT_TRUE(client->subscribe("demo://resource/dynamic/text/1"));
  {
    std::lock_guard l(rec->mu);
    EXPECT_FALSE(rec->has_log_containing("Received Subscribe Resource request"));
  }
  ASSERT_TRUE(client->set_log_level(LoggingLevel::debug));
  ASSERT_TRUE(client->unsubscribe("demo://resource/dynamic/text/1"));
  std::lock_guard l(rec->mu);
  EXPECT_TRUE(rec->has_log_containing("Received Unsubscribe Resource request: demo://resource/dynamic/text/1"));
  bool info_level = false;
  for (const auto& m : rec->logs)
    if (m.data.is_string() && contains(m.data.get_string(), "Received Unsubscribe")) info_level = m.level == LoggingLevel::info;
  EXPECT_TRUE(info_level);
}

// --- listing ------------------------------------------------------------------------------------

TEST_F(EverythingLists, ListsToolsPageByPageAndAllAtOnce) {
  auto all = client->list_all_tools();
  ASSERT_TRUE(all) << describe(all.error());
  auto paged = walk_pages<ListToolsResult>([&](auto c) { return client->list_tools(c); }, &ListToolsResult::tools);
  ASSERT_EQ(paged.size(), all->size());
  for (std::size_t i = 0; i < paged.size(); ++i) EXPECT_EQ(paged[i].name, (*all)[i].name);

  std::set<std::string> names;
  for (const auto& t : *all) EXPECT_TRUE(names.insert(t.name).second) << "tool listed twice: " << t.name;
  for (const char* expected :
       {"echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference",
        "get-structured-content", "get-sum", "get-tiny-image", "gzip-file-as-resource", "toggle-simulated-logging",
        "toggle-subscriber-updates", "trigger-long-running-operation",
        // registered only because we declared roots, elicitation (form and url) and sampling:
        "get-roots-list", "trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request"}) {
    EXPECT_TRUE(names.contains(expected)) << "missing tool " << expected;
  }

  const Tool* echo = find_named(*all, "echo");
  ASSERT_NE(echo, nullptr);
  EXPECT_EQ(echo->title, "Echo Tool");
  ASSERT_TRUE(echo->input_schema.contains("properties"));
  EXPECT_TRUE(echo->input_schema.at("properties").as_object().contains("message"));
  ASSERT_TRUE(echo->annotations.has_value());
  EXPECT_EQ(echo->annotations->read_only_hint, true);
  EXPECT_EQ(echo->annotations->destructive_hint, false);

  const Tool* structured = find_named(*all, "get-structured-content");
  ASSERT_NE(structured, nullptr);
  ASSERT_TRUE(structured->output_schema.has_value());
  EXPECT_TRUE(structured->output_schema->at("properties").as_object().contains("temperature"));
  ASSERT_TRUE(structured->execution.has_value());
  EXPECT_EQ(structured->execution->task_support, "forbidden");
}

TEST_F(EverythingLists, ListsResourcesTemplatesAndPrompts) {
  auto resources = client->list_all_resources();
  ASSERT_TRUE(resources) << describe(resources.error());
  auto paged_resources =
      walk_pages<ListResourcesResult>([&](auto c) { return client->list_resources(c); }, &ListResourcesResult::resources);
  EXPECT_EQ(paged_resources.size(), resources->size());
  // One static resource per file of the package's dist/docs.
  std::size_t docs = 0;
  for (const auto& e : fs::directory_iterator(everything_dir() / "dist" / "docs")) docs += e.is_regular_file();
  EXPECT_EQ(resources->size(), docs);
  const Resource* instructions = find_named(*resources, "instructions.md");
  ASSERT_NE(instructions, nullptr);
  EXPECT_EQ(instructions->uri, "demo://resource/static/document/instructions.md");
  EXPECT_EQ(instructions->mime_type, "text/markdown");

  auto templates = client->list_all_resource_templates();
  ASSERT_TRUE(templates) << describe(templates.error());
  auto paged_templates = walk_pages<ListResourceTemplatesResult>(
      [&](auto c) { return client->list_resource_templates(c); }, &ListResourceTemplatesResult::resource_templates);
  EXPECT_EQ(paged_templates.size(), templates->size());
  const ResourceTemplate* text = find_named(*templates, "Dynamic Text Resource");
  const ResourceTemplate* blob = find_named(*templates, "Dynamic Blob Resource");
  ASSERT_NE(text, nullptr);
  ASSERT_NE(blob, nullptr);
  EXPECT_EQ(text->uri_template, "demo://resource/dynamic/text/{resourceId}");
  EXPECT_EQ(text->mime_type, "text/plain");
  EXPECT_EQ(blob->uri_template, "demo://resource/dynamic/blob/{resourceId}");
  EXPECT_EQ(blob->mime_type, "application/octet-stream");

  auto prompts = client->list_all_prompts();
  ASSERT_TRUE(prompts) << describe(prompts.error());
  auto paged_prompts =
      walk_pages<ListPromptsResult>([&](auto c) { return client->list_prompts(c); }, &ListPromptsResult::prompts);
  EXPECT_EQ(paged_prompts.size(), prompts->size());
  for (const char* expected : {"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"})
    EXPECT_NE(find_named(*prompts, expected), nullptr) << "missing prompt " << expected;
  const Prompt* args = find_named(*prompts, "args-prompt");
  ASSERT_NE(args, nullptr);
  ASSERT_EQ(args->arguments.size(), 2u);
  EXPECT_EQ(args->arguments[0].name, "city");
  EXPECT_EQ(args->arguments[0].required, true);
  EXPECT_EQ(args->arguments[1].name, "state");
  EXPECT_NE(args->arguments[1].required, true);
  EXPECT_TRUE(find_named(*prompts, "simple-prompt")->arguments.empty());
}

// --- tools --------------------------------------------------------------------------------------


TEST_F(EverythingLists, ReadsStaticAndTemplatedResources) {
  auto doc = client->read_resource("demo://resource/static/document/instructions.md", bounded());
  ASSERT_TRUE(doc) << describe(doc.error());
  ASSERT_EQ(doc->contents.size(), 1u);
  const auto* text = std::get_if<TextResourceContents>(&doc->contents[0]);
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(text->uri, "demo://resource/static/document/instructions.md");
  EXPECT_EQ(text->mime_type, "text/markdown");
  EXPECT_EQ(text->text, read_file(everything_dir() / "dist" / "docs" / "instructions.md"));  // byte for byte

  auto t7 = client->read_resource("demo://resource/dynamic/text/7", bounded());
  ASSERT_TRUE(t7) << describe(t7.error());
  ASSERT_EQ(t7->contents.size(), 1u);
  const auto* t = std::get_if<TextResourceContents>(&t7->contents[0]);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->uri, "demo://resource/dynamic/text/7");
  EXPECT_TRUE(t->text.starts_with("Resource 7: This is a plaintext resource created at ")) << t->text;

  auto b8 = client->read_resource("demo://resource/dynamic/blob/8", bounded());
  ASSERT_TRUE(b8) << describe(b8.error());
  ASSERT_EQ(b8->contents.size(), 1u);
  const auto* b = std::get_if<BlobResourceContents>(&b8->contents[0]);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->uri, "demo://resource/dynamic/blob/8");
  EXPECT_TRUE(base64_decode(b->blob).starts_with("Resource 8: This is a base64 blob created at "));

  // Unknown resources and bad template variables are the server's errors, passed on as sent.
  auto missing = client->read_resource("demo://resource/no-such-thing", bounded());
  ASSERT_FALSE(missing);
  EXPECT_TRUE(contains(missing.error().message, "demo://resource/no-such-thing")) << describe(missing.error());
  auto bad_id = client->read_resource("demo://resource/dynamic/text/not-a-number", bounded());
  ASSERT_FALSE(bad_id);
  EXPECT_TRUE(contains(bad_id.error().message, "Unknown resource")) << describe(bad_id.error());
  EXPECT_TRUE(client->ping());
}

TEST_F(EverythingLists, SubscribeGetsUpdatesUntilUnsubscribed) {
  // Two subscriptions: `gone` is unsubscribed, `kept` stays, and shows that updates are still being
  // sent, so that no update for `gone` means something.
  const std::string gone = "demo://resource/dynamic/text/5", kept = "demo://resource/dynamic/text/6";
  auto updates_for = [&](const std::string& uri, std::size_t from) {  // call under the lock
    return std::count(rec->resource_updates.begin() + static_cast<std::ptrdiff_t>(from), rec->resource_updates.end(), uri);
  };
  for (const auto& uri : {gone, kept}) {
    ASSERT_TRUE(client->subscribe(uri));
    EXPECT_TRUE(rec->wait([&] { return rec->has_log_containing("Received Subscribe Resource request for URI: " + uri); }));
  }

  // How server-everything sends updates (dist/resources/subscriptions.js): toggle-subscriber-updates
  // runs one round at once, inside the tool call, then a round every 5 s. A round walks its
  // subscriptions map in insertion order (`gone` before `kept`) and sends one update per URI this
  // session subscribes to.
  auto on = call("toggle-subscriber-updates");
  ASSERT_TRUE(on) << describe(on.error());
  EXPECT_TRUE(contains(text_of(on->content, 0), "Started simulated resource updated notifications"));
  EXPECT_TRUE(rec->wait([&] { return updates_for(gone, 0) > 0 && updates_for(kept, 0) > 0; }))
      << "no notifications/resources/updated for " << gone << " and " << kept;

  // The server drops the subscription before it answers. A round runs whole within one turn of the
  // server's event loop (its stdio writes are synchronous), so each round comes entirely before or
  // entirely after the unsubscribe answer; and we record notifications on our reader thread before
  // we complete a later answer. So every update for `gone` after this point would be a bug.
  ASSERT_TRUE(client->unsubscribe(gone));
  std::size_t after_unsubscribe;
  {
    std::lock_guard l(rec->mu);
    after_unsubscribe = rec->resource_updates.size();
  }
  EXPECT_TRUE(rec->wait([&] { return rec->has_log_containing("Received Unsubscribe Resource request: " + gone); }));

  // Force a round that certainly starts after the unsubscribe, instead of waiting for the 5 s timer:
  // toggling off and on again runs one at once. Once its update for `kept` has arrived, its update
  // for `gone`, had it sent one, had arrived before it (same round, `gone` first, in order on the pipe).
  auto off = call("toggle-subscriber-updates");
  ASSERT_TRUE(off) << describe(off.error());
  EXPECT_TRUE(contains(text_of(off->content, 0), "Stopped simulated resource updates"));
  auto again = call("toggle-subscriber-updates");
  ASSERT_TRUE(again) << describe(again.error());
  EXPECT_TRUE(contains(text_of(again->content, 0), "Started simulated resource updated notifications"));
  EXPECT_TRUE(rec->wait([&] { return updates_for(kept, after_unsubscribe) > 0; }))
      << "no update for " << kept << " after the unsubscribe: the round did not run";
  {
    std::lock_guard l(rec->mu);
    EXPECT_EQ(updates_for(gone, after_unsubscribe), 0) << "an update for " << gone << " after unsubscribing from it";
  }

  // Toggled off again, so that the server has no timer left when we close it.
  auto last = call("toggle-subscriber-updates");
  ASSERT_TRUE(last) << describe(last.error());
  EXPECT_TRUE(contains(text_of(last->content, 0), "Stopped simulated resource updates"));
  ASSERT_TRUE(client->unsubscribe(kept));
}

// --- prompts and completion ---------------------------------------------------------------------

TEST_F(EverythingLists, GetsPromptsWithAndWithoutArguments) {
  auto simple = client->get_prompt("simple-prompt", {}, bounded());
  ASSERT_TRUE(simple) << describe(simple.error());
  ASSERT_EQ(simple->messages.size(), 1u);
  EXPECT_EQ(simple->messages[0].role, Role::user);
  const auto* st = std::get_if<TextContent>(&simple->messages[0].content);
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->text, "This is a simple prompt without arguments.");

  auto both = client->get_prompt("args-prompt", {{"city", "Paris"}, {"state", "Texas"}}, bounded());
  ASSERT_TRUE(both) << describe(both.error());
  ASSERT_EQ(both->messages.size(), 1u);
  EXPECT_EQ(std::get<TextContent>(both->messages[0].content).text, "What's weather in Paris, Texas?");
  auto city_only = client->get_prompt("args-prompt", {{"city", "Z\xC3\xBCrich"}}, bounded());
  ASSERT_TRUE(city_only) << describe(city_only.error());
  EXPECT_EQ(std::get<TextContent>(city_only->messages[0].content).text, "What's weather in Z\xC3\xBCrich?");

  // A missing required argument is the server's -32602.
  auto missing = client->get_prompt("args-prompt", {}, bounded());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, error_code::kInvalidParams) << describe(missing.error());
  EXPECT_TRUE(contains(missing.error().message, "city")) << describe(missing.error());

  auto embedded = client->get_prompt("resource-prompt", {{"resourceType", "Text"}, {"resourceId", "3"}}, bounded());
  ASSERT_TRUE(embedded) << describe(embedded.error());
  ASSERT_EQ(embedded->messages.size(), 2u);
  const auto* res = std::get_if<EmbeddedResource>(&embedded->messages[1].content);
  ASSERT_NE(res, nullptr) << content_type(embedded->messages[1].content);
  const auto* contents = std::get_if<TextResourceContents>(&res->resource);
  ASSERT_NE(contents, nullptr);
  EXPECT_EQ(contents->uri, "demo://resource/dynamic/text/3");
  EXPECT_TRUE(contents->text.starts_with("Resource 3: ")) << contents->text;

  auto unknown = client->get_prompt("no-such-prompt", {}, bounded());
  ASSERT_FALSE(unknown);
  EXPECT_TRUE(contains(unknown.error().message, "no-such-prompt")) << describe(unknown.error());
}

TEST_F(EverythingLists, CompletesPromptAndTemplateArguments) {
  ASSERT_TRUE(client->server_supports("completions"));
  CompleteRequestParams department{.ref = PromptReference{.name = "completable-prompt"},
                                   .argument = {.name = "department", .value = "Ma"}};
  auto d = client->complete(department);
  ASSERT_TRUE(d) << describe(d.error());
  EXPECT_EQ(d->completion.values, std::vector<std::string>{"Marketing"});

  // The second argument's values depend on the first, passed as context.
  CompleteRequestParams name{.ref = PromptReference{.name = "completable-prompt"},
                             .argument = {.name = "name", .value = ""},
                             .context = CompletionContext{.arguments = {{"department", "Engineering"}}}};
  auto n = client->complete(name);
  ASSERT_TRUE(n) << describe(n.error());
  EXPECT_EQ(n->completion.values, (std::vector<std::string>{"Alice", "Bob", "Charlie"}));

  CompleteRequestParams type{.ref = PromptReference{.name = "resource-prompt"},
                             .argument = {.name = "resourceType", .value = "B"}};
  auto ty = client->complete(type);
  ASSERT_TRUE(ty) << describe(ty.error());
  EXPECT_EQ(ty->completion.values, std::vector<std::string>{"Blob"});

  CompleteRequestParams id{.ref = ResourceTemplateReference{.uri = "demo://resource/dynamic/text/{resourceId}"},
                           .argument = {.name = "resourceId", .value = "7"}};
  auto i = client->complete(id);
  ASSERT_TRUE(i) << describe(i.error());
  EXPECT_EQ(i->completion.values, std::vector<std::string>{"7"});
  CompleteRequestParams bad_id = id;
  bad_id.argument.value = "x";
  auto none = client->complete(bad_id);
  ASSERT_TRUE(none) << describe(none.error());
  EXPECT_TRUE(none->completion.values.empty());
}

// --- errors -------------------------------------------------------------------------------------


}  // namespace
