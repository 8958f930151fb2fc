// Interop: our C++ client (mcp::Client over mcp::ChildProcessTransport) against the reference
// TypeScript server @modelcontextprotocol/server-everything, run in stdio mode with the Node 22 of
// .deps/node (MCP_NODE_DIR, set by ctest). Each test starts its own server process.
//
// The client declares sampling (answered with a canned assistant message), elicitation in form and
// URL mode (forms are filled from the requested schema's defaults, or simple values), and roots. The
// server registers its sampling, elicitation and roots tools only for clients that declare those
// capabilities, and asks for roots/list 350 ms after notifications/initialized, so every fixture
// waits for that request before the test body runs.
//
// Every call is bounded (CallOptions::timeout, or ClientOptions::session.request_timeout for the
// calls that take no CallOptions) so that a hang fails the test instead of blocking CI.
//
// The GarbageChild tests need no Node: a child that prints garbage and exits with status 3 must make
// connect() fail with an error that says so, however the client first notices the child is gone.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/content.hpp"
#include "mcp/protocol/elicitation.hpp"
#include "mcp/protocol/roots.hpp"
#include "mcp/protocol/sampling.hpp"
#include "mcp/transport/child_process.hpp"

using namespace mcp;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr auto kCallTimeout = 15s;     // one request
constexpr auto kEventTimeout = 5s;     // waiting for a server-initiated request or notification
constexpr const char* kCannedText = "Canned reply from the mcp-trust C++ client";
constexpr const char* kCannedModel = "mcp-trust-canned-model";
constexpr const char* kRootUri = "file:///tmp/mcp-trust-interop-root";
constexpr const char* kRootName = "interop-root";

// --- where things are ---------------------------------------------------------------------------

fs::path node_dir() {
  if (const char* v = std::getenv("MCP_NODE_DIR"); v != nullptr && *v != '\0') return v;
  // Run by hand from the build tree: this file is <repo>/tests/interop/<file>.
  return fs::path(__FILE__).parent_path().parent_path().parent_path() / ".deps" / "node";
}
fs::path node_modules() { return node_dir() / "node_modules"; }
fs::path node_binary() { return node_modules() / ".bin" / "node"; }
fs::path everything_dir() { return node_modules() / "@modelcontextprotocol" / "server-everything"; }
// package.json: "bin": {"mcp-server-everything": "dist/index.js"}, "start:stdio": "node dist/index.js stdio".
fs::path everything_entry() { return everything_dir() / "dist" / "index.js"; }

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// --- small helpers ------------------------------------------------------------------------------

CallOptions bounded(std::chrono::milliseconds t = kCallTimeout) {
  CallOptions o;
  o.timeout = t;
  return o;
}

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

std::string base64_decode(std::string_view in) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  unsigned buf = 0;
  int bits = 0;
  for (char c : in) {
    int v = val(c);
    if (v < 0) continue;  // '=' padding, whitespace
    buf = (buf << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xFF));
    }
  }
  return out;
}

// The text of content block `i`, or a failure naming what was there instead.
std::string text_of(const std::vector<ContentBlock>& content, std::size_t i) {
  if (i >= content.size()) {
    ADD_FAILURE() << "no content block " << i << " (only " << content.size() << ")";
    return {};
  }
  if (const auto* t = std::get_if<TextContent>(&content[i])) return t->text;
  ADD_FAILURE() << "content block " << i << " is \"" << content_type(content[i]) << "\", not text";
  return {};
}

// All text blocks, joined by newlines.
std::string all_text(const CallToolResult& r) {
  std::string out;
  for (const auto& b : r.content)
    if (const auto* t = std::get_if<TextContent>(&b)) out += t->text + "\n";
  return out;
}

std::string describe(const Error& e) {
  std::string s = std::to_string(e.code) + ": " + e.message;
  if (e.data) s += " data=" + mcp::to_string(*e.data);
  return s;
}

// Fills a form-mode elicitation from its schema: the property's default if it has one, else a
// simple value of the right kind (honouring enum / oneOf / anyOf / format / minimum).
json::object fill_form(const RequestedSchema& schema) {
  json::object content;
  for (const auto& property : schema.properties) {
    const std::string_view key = property.key();
    const json::object& def = property.value().as_object();
    if (const auto* d = def.if_contains("default")) {
      content[key] = *d;
      continue;
    }
    const std::string_view type = def.at("type").as_string();
    if (type == "boolean") {
      content[key] = true;
    } else if (type == "integer") {
      content[key] = def.contains("minimum") ? def.at("minimum").to_number<std::int64_t>() : std::int64_t{1};
    } else if (type == "number") {
      content[key] = def.contains("minimum") ? def.at("minimum").to_number<double>() : 1.5;
    } else if (type == "array") {
      json::array picked;
      if (const auto* items = def.if_contains("items"); items && items->is_object()) {
        const auto& it = items->get_object();
        if (const auto* e = it.if_contains("enum"); e && e->is_array() && !e->get_array().empty())
          picked.push_back(e->get_array().front());
        else if (const auto* a = it.if_contains("anyOf"); a && a->is_array() && !a->get_array().empty())
          picked.push_back(a->get_array().front().as_object().at("const"));
      }
      content[key] = std::move(picked);
    } else {  // string
      if (const auto* e = def.if_contains("enum"); e && e->is_array() && !e->get_array().empty()) {
        content[key] = e->get_array().front();
      } else if (const auto* o = def.if_contains("oneOf"); o && o->is_array() && !o->get_array().empty()) {
        content[key] = o->get_array().front().as_object().at("const");
      } else {
        const auto* f = def.if_contains("format");
        const std::string_view format = f && f->is_string() ? std::string_view(f->get_string()) : "";
        if (format == "email") content[key] = "ada@example.com";
        else if (format == "uri") content[key] = "https://example.com/ada";
        else if (format == "date") content[key] = "1815-12-10";
        else if (format == "date-time") content[key] = "1815-12-10T12:00:00Z";
        else content[key] = "Ada Lovelace";
      }
    }
  }
  return content;
}

// --- what the server sent us --------------------------------------------------------------------

struct Recorder {
  std::mutex mu;
  std::condition_variable cv;

  std::vector<CreateMessageRequestParams> sampling;
  std::vector<ElicitRequestFormParams> form_elicitations;
  std::vector<ElicitRequestURLParams> url_elicitations;
  std::vector<json::object> form_answers;
  int roots_requests = 0;
  std::vector<std::string> handler_errors;  // params our SDK types could not read

  std::vector<LoggingMessageNotificationParams> logs;
  std::vector<std::string> resource_updates;
  std::vector<std::string> list_changed;
  std::vector<std::string> notifications;  // every method, in order
  std::vector<std::optional<Error>> closes;
  std::vector<std::string> stderr_lines;

  template <class F>
  void update(F f) {
    {
      std::lock_guard l(mu);
      f();
    }
    cv.notify_all();
  }
  // Waits until pred() (called under the lock) holds; false on timeout.
  template <class P>
  bool wait(P pred, std::chrono::milliseconds d = kEventTimeout) {
    std::unique_lock l(mu);
    return cv.wait_for(l, d, pred);
  }
  bool has_log_containing(std::string_view s) {  // call under the lock
    for (const auto& m : logs)
      if (m.data.is_string() && contains(m.data.get_string(), s)) return true;
    return false;
  }
};

ClientOptions make_client_options(const std::shared_ptr<Recorder>& rec, bool with_handlers = true) {
  ClientOptions o;
  o.info = Implementation{.name = "mcp-trust-interop-test", .version = "0.1.0"};
  o.session.request_timeout = kCallTimeout;  // bounds initialize, list, subscribe, ping, ...
  if (with_handlers) {
    o.on_sampling = [rec](const json::object& params, const CancellationToken&) -> Result<json::value> {
      auto p = from_json<CreateMessageRequestParams>(json::value(params));
      if (!p) {
        rec->update([&] { rec->handler_errors.push_back("sampling: " + p.error().message); });
        return fail(p.error());
      }
      rec->update([&] { rec->sampling.push_back(*p); });
      CreateMessageResult r;
      r.role = Role::assistant;
      r.content.push_back(TextContent{.text = kCannedText});
      r.model = kCannedModel;
      r.stop_reason = std::string(stop_reason::kEndTurn);
      return to_json(r);
    };
    o.on_elicitation = [rec](const json::object& params, const CancellationToken&) -> Result<json::value> {
      auto p = from_json<ElicitRequestParams>(json::value(params));
      if (!p) {
        rec->update([&] { rec->handler_errors.push_back("elicitation: " + p.error().message); });
        return fail(p.error());
      }
      ElicitResult r;
      r.action = ElicitAction::accept;
      if (const auto* form = std::get_if<ElicitRequestFormParams>(&*p)) {
        r.content = fill_form(form->requested_schema);
        rec->update([&] {
          rec->form_elicitations.push_back(*form);
          rec->form_answers.push_back(*r.content);
        });
      } else {
        rec->update([&] { rec->url_elicitations.push_back(std::get<ElicitRequestURLParams>(*p)); });
      }
      return to_json(r);
    };
    o.elicitation_url = true;
    o.on_roots = [rec](const json::object&, const CancellationToken&) -> Result<json::value> {
      rec->update([&] { ++rec->roots_requests; });
      ListRootsResult r;
      r.roots.push_back(Root{.uri = kRootUri, .name = std::string(kRootName)});
      return to_json(r);
    };
  }
  o.on_log = [rec](const LoggingMessageNotificationParams& m) { rec->update([&] { rec->logs.push_back(m); }); };
  o.on_resource_updated = [rec](const std::string& uri) { rec->update([&] { rec->resource_updates.push_back(uri); }); };
  o.on_list_changed = [rec](const std::string& list) { rec->update([&] { rec->list_changed.push_back(list); }); };
  o.on_notification = [rec](const jsonrpc::Notification& n) { rec->update([&] { rec->notifications.push_back(n.method); }); };
  o.on_closed = [rec](const std::optional<Error>& reason) { rec->update([&] { rec->closes.push_back(reason); }); };
  return o;
}

ChildProcessOptions everything_process(const std::shared_ptr<Recorder>& rec) {
  ChildProcessOptions o;
  o.program = node_binary().string();
  o.args = {everything_entry().string(), "stdio"};
  o.on_stderr = [rec](const std::string& line) { rec->update([&] { rec->stderr_lines.push_back(line); }); };
  return o;
}

// --- the fixture --------------------------------------------------------------------------------

class EverythingServer : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::is_directory(node_modules())) {
      GTEST_SKIP() << "interop test skipped: " << node_modules()
                   << " does not exist (run scripts/setup.sh to install Node 22 and "
                      "@modelcontextprotocol/server-everything, or set MCP_NODE_DIR)";
    }
    ASSERT_TRUE(fs::exists(node_binary())) << "node_modules exists but there is no node at " << node_binary();
    ASSERT_TRUE(fs::exists(everything_entry()))
        << "node_modules exists but @modelcontextprotocol/server-everything is not installed: no " << everything_entry();
    start(/*with_handlers=*/true);
  }

  void start(bool with_handlers) {
    rec = std::make_shared<Recorder>();
    auto t = ChildProcessTransport::spawn(everything_process(rec));
    ASSERT_TRUE(t) << describe(t.error());
    transport = *t;
    client = std::make_unique<Client>(make_client_options(rec, with_handlers));
    auto init = client->connect(transport);
    ASSERT_TRUE(init) << "connect failed: " << describe(init.error());
    if (with_handlers) {
      // The server asks for roots 350 ms after notifications/initialized and logs what it got.
      ASSERT_TRUE(rec->wait([&] { return rec->roots_requests > 0 && rec->has_log_containing("Roots updated"); }))
          << "the server never sent roots/list (or never logged the answer)";
    }
  }

  void TearDown() override {
    client.reset();  // closes the child
    if (transport) {
      EXPECT_EQ(transport->pid(), -1) << "the child was not reaped";
    }
    if (HasFailure() && rec) {
      std::lock_guard l(rec->mu);
      for (const auto& line : rec->stderr_lines) std::cerr << "[server-everything] " << line << '\n';
      for (const auto& e : rec->handler_errors) std::cerr << "[handler error] " << e << '\n';
    }
  }

  Result<CallToolResult> call(const std::string& tool, json::object args = {}, CallOptions o = bounded()) {
    return client->call_tool(tool, std::move(args), std::move(o));
  }

  std::shared_ptr<Recorder> rec;
  std::shared_ptr<ChildProcessTransport> transport;
  std::unique_ptr<Client> client;
};

// A generic cursor walk over one list method, page by page, refusing a repeated cursor.
template <class Page, class Item, class Fetch>
std::vector<Item> walk_pages(Fetch fetch, std::vector<Item> Page::*items) {
  std::vector<Item> out;
  std::set<std::string> seen;
  std::optional<std::string> cursor;
  for (int page = 0; page < 100; ++page) {
    Result<Page> r = fetch(cursor);
    if (!r) {
      ADD_FAILURE() << "page " << page << ": " << describe(r.error());
      return out;
    }
    for (auto& i : (*r).*items) out.push_back(std::move(i));
    if (!r->next_cursor) return out;
    if (!seen.insert(*r->next_cursor).second) {
      ADD_FAILURE() << "repeated cursor " << *r->next_cursor;
      return out;
    }
    cursor = r->next_cursor;
  }
  ADD_FAILURE() << "more than 100 pages";
  return out;
}

template <class T>
const T* find_named(const std::vector<T>& v, std::string_view name) {
  for (const auto& x : v)
    if (x.name == name) return &x;
  return nullptr;
}

// --- handshake ----------------------------------------------------------------------------------

TEST_F(EverythingServer, HandshakeReportsTheServerAndItsCapabilities) {
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

TEST_F(EverythingServer, PingAndLogLevel) {
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

TEST_F(EverythingServer, ListsToolsPageByPageAndAllAtOnce) {
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

TEST_F(EverythingServer, ListsResourcesTemplatesAndPrompts) {
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

TEST_F(EverythingServer, EchoRoundTripsArbitraryText) {
  const std::string message = "h\xC3\xA9llo \"w\xC3\xB6rld\" \\ back\\slash\n\ttab \xE2\x9C\x93 \xF0\x9F\x9A\x80 <&>";
  auto r = call("echo", {{"message", message}});
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_NE(r->is_error, true);
  ASSERT_EQ(r->content.size(), 1u);
  EXPECT_EQ(text_of(r->content, 0), "Echo: " + message);
}

TEST_F(EverythingServer, GetSumAddsNumbers) {
  auto r = call("get-sum", {{"a", 2}, {"b", 3.5}});
  ASSERT_TRUE(r) << describe(r.error());
  EXPECT_EQ(text_of(r->content, 0), "The sum of 2 and 3.5 is 5.5.");
  auto big = call("get-sum", {{"a", 40}, {"b", -2}});
  ASSERT_TRUE(big) << describe(big.error());
  EXPECT_EQ(text_of(big->content, 0), "The sum of 40 and -2 is 38.");
}

TEST_F(EverythingServer, SamplingRequestIsAnsweredByOurHandler) {
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

TEST_F(EverythingServer, FormElicitationIsFilledFromTheRequestedSchema) {
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

TEST_F(EverythingServer, UrlElicitationByRequestAndByError) {
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

TEST_F(EverythingServer, RootsReachTheServer) {
  auto r = call("get-roots-list");
  ASSERT_TRUE(r) << describe(r.error());
  const std::string text = text_of(r->content, 0);
  EXPECT_TRUE(contains(text, "Current MCP Roots (1 total)")) << text;
  EXPECT_TRUE(contains(text, kRootName)) << text;
  EXPECT_TRUE(contains(text, kRootUri)) << text;
}

TEST_F(EverythingServer, ProgressNotificationsReachOurCallback) {
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

TEST_F(EverythingServer, TimeoutAndCancellationEndALongCall) {
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

TEST_F(EverythingServer, StructuredContentMatchesItsOutputSchema) {
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

TEST_F(EverythingServer, AnnotatedTextAndImageContent) {
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

TEST_F(EverythingServer, ResourceLinksAndEmbeddedResources) {
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

TEST_F(EverythingServer, GzipToolCreatesASessionResource) {
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

TEST_F(EverythingServer, ReadsStaticAndTemplatedResources) {
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

TEST_F(EverythingServer, SubscribeGetsUpdatesUntilUnsubscribed) {
  const std::string uri = "demo://resource/dynamic/text/5";
  ASSERT_TRUE(client->subscribe(uri));
  EXPECT_TRUE(rec->wait([&] { return rec->has_log_containing("Received Subscribe Resource request for URI: " + uri); }));

  // The toggle sends an update for every subscribed URI at once, then every 5 s; toggled off again
  // so that the server has no timer left when we close it.
  auto on = call("toggle-subscriber-updates");
  ASSERT_TRUE(on) << describe(on.error());
  EXPECT_TRUE(contains(text_of(on->content, 0), "Started simulated resource updated notifications"));
  EXPECT_TRUE(rec->wait([&] { return std::ranges::count(rec->resource_updates, uri) > 0; }))
      << "no notifications/resources/updated for " << uri;
  auto off = call("toggle-subscriber-updates");
  ASSERT_TRUE(off) << describe(off.error());
  EXPECT_TRUE(contains(text_of(off->content, 0), "Stopped simulated resource updates"));

  ASSERT_TRUE(client->unsubscribe(uri));
  EXPECT_TRUE(rec->wait([&] { return rec->has_log_containing("Received Unsubscribe Resource request: " + uri); }));
  std::lock_guard l(rec->mu);
  EXPECT_NE(std::ranges::find(rec->notifications, "notifications/resources/updated"), rec->notifications.end());
}

// --- prompts and completion ---------------------------------------------------------------------

TEST_F(EverythingServer, GetsPromptsWithAndWithoutArguments) {
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

TEST_F(EverythingServer, CompletesPromptAndTemplateArguments) {
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

TEST_F(EverythingServer, UnknownToolAndBadArgumentsAreCleanErrors) {
  auto r = call("no-such-tool", {{"x", 1}});
  // The TypeScript SDK reports an unknown tool as a tool error (isError); the specification also
  // allows a JSON-RPC -32602. Either way the name must be in the message and nothing else breaks.
  if (r) {
    EXPECT_EQ(r->is_error, true);
    const std::string text = all_text(*r);
    EXPECT_TRUE(contains(text, "no-such-tool") && contains(text, "not found")) << text;
  } else {
    EXPECT_EQ(r.error().code, error_code::kInvalidParams) << describe(r.error());
    EXPECT_TRUE(contains(r.error().message, "no-such-tool")) << describe(r.error());
  }

  auto bad = call("echo", {{"not-message", "x"}});
  ASSERT_TRUE(bad) << describe(bad.error());
  EXPECT_EQ(bad->is_error, true);
  EXPECT_TRUE(contains(all_text(*bad), "message")) << all_text(*bad);

  // A method the server does not know: its -32601, as sent.
  auto unknown = client->request("no/such/method", {}, bounded());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, error_code::kMethodNotFound) << describe(unknown.error());

  EXPECT_TRUE(client->ping());
  auto echo = call("echo", {{"message", "after errors"}});
  ASSERT_TRUE(echo) << describe(echo.error());
  EXPECT_EQ(text_of(echo->content, 0), "Echo: after errors");
}

TEST_F(EverythingServer, ConcurrentCallsFromManyThreads) {
  constexpr int kThreads = 6, kCalls = 8;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        const std::string msg = "thread " + std::to_string(t) + " call " + std::to_string(i);
        auto r = call("echo", {{"message", msg}});
        if (r && !r->content.empty() && std::holds_alternative<TextContent>(r->content[0]) &&
            std::get<TextContent>(r->content[0]).text == "Echo: " + msg)
          ++ok;
        else
          ADD_FAILURE() << msg << ": " << (r ? all_text(*r) : describe(r.error()));
      }
    });
  }
  // A server->client round trip (sampling) in the middle of it all.
  auto s = call("trigger-sampling-request", {{"prompt", "concurrent"}});
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), kThreads * kCalls);
  ASSERT_TRUE(s) << describe(s.error());
  EXPECT_TRUE(contains(text_of(s->content, 0), kCannedText));
}

// --- capabilities decide what the server offers ---------------------------------------------------

TEST_F(EverythingServer, WithoutClientCapabilitiesTheServerOffersNoClientDependentTools) {
  client.reset();
  EXPECT_EQ(transport->pid(), -1);
  start(/*with_handlers=*/false);
  if (HasFatalFailure()) return;
  auto tools = client->list_all_tools();
  ASSERT_TRUE(tools) << describe(tools.error());
  EXPECT_NE(find_named(*tools, "echo"), nullptr);
  for (const char* absent : {"get-roots-list", "trigger-elicitation-request", "trigger-url-elicitation",
                             "trigger-sampling-request"})
    EXPECT_EQ(find_named(*tools, absent), nullptr) << absent << " offered to a client that cannot serve it";
  // No roots/list comes to a client that did not declare roots.
  std::this_thread::sleep_for(600ms);
  std::lock_guard l(rec->mu);
  EXPECT_EQ(rec->roots_requests, 0);
  EXPECT_EQ(std::ranges::count(rec->notifications, "notifications/message"), 0);
}

// --- lifecycle ----------------------------------------------------------------------------------

TEST_F(EverythingServer, DestroyingTheClientClosesTheChildAndReapsIt) {
  const int pid = transport->pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, 0), 0) << "the server is not running";

  const auto start = std::chrono::steady_clock::now();
  client.reset();
  const auto took = std::chrono::steady_clock::now() - start;

  EXPECT_EQ(transport->pid(), -1);
  // Reaped by us: no zombie is left, and the pid is no longer our child.
  int status = 0;
  errno = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  // Closing stdin is enough for this server (it exits once its event loop is empty), so no
  // SIGTERM was needed: well under the 2 s grace period.
  EXPECT_LT(took, 1900ms);
  std::lock_guard l(rec->mu);
  ASSERT_EQ(rec->closes.size(), 1u);
  EXPECT_FALSE(rec->closes[0].has_value()) << "an orderly close reported " << describe(*rec->closes[0]);
}

TEST_F(EverythingServer, CallsAfterCloseFailFast) {
  client->close();
  EXPECT_EQ(transport->pid(), -1);  // close() waited for the child
  // The session learns of the close on the transport's reader thread, so closed() may lag close()
  // by a moment; it must not lag for long.
  for (int i = 0; i < 200 && !client->closed(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(client->closed());
  auto start = std::chrono::steady_clock::now();
  auto r = call("echo", {{"message", "too late"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kConnectionClosed) << describe(r.error());
  EXPECT_FALSE(client->ping());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

// --- a child that is not an MCP server ----------------------------------------------------------

ChildProcessOptions garbage_child(const std::shared_ptr<Recorder>& rec) {
  ChildProcessOptions o;
  o.program = "/bin/sh";
  o.args = {"-c", "echo garbage; echo 'not an MCP server' >&2; exit 3"};
  o.on_stderr = [rec](const std::string& line) { rec->update([&] { rec->stderr_lines.push_back(line); }); };
  return o;
}

ClientOptions short_client_options(const std::shared_ptr<Recorder>& rec) {
  auto o = make_client_options(rec, /*with_handlers=*/false);
  o.session.request_timeout = 5s;
  return o;
}

// connect() right after spawn(). Whether initialize is written before the child exits is a race, so
// this is tried several times: the answer must name the exit status either way.
//
// Known SDK bug (fails here intermittently, in the next test always): when the child is already gone
// as initialize is sent, the error is the bare "write failed: Broken pipe" of FdTransport::send
// (src/stdio/fd_transport.cpp), returned as is by Session::request (src/session/session.cpp, the
// `if (!sent)` branch); and if the reader saw end of file first, Session::request answers a bare
// "connection closed". The close reason that ChildProcessTransport computed ("... exited with status
// 3; last stderr lines: ...") only reaches pending requests and the on_closed callback.
TEST(GarbageChild, ConnectFailsSayingHowTheChildExited) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    SCOPED_TRACE("attempt " + std::to_string(attempt));
    auto rec = std::make_shared<Recorder>();
    auto t = ChildProcessTransport::spawn(garbage_child(rec));
    ASSERT_TRUE(t) << describe(t.error());
    Client client(short_client_options(rec));
    auto start = std::chrono::steady_clock::now();
    auto r = client.connect(*t);
    ASSERT_FALSE(r) << "connect succeeded against /bin/sh";
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << "connect waited for its timeout";
    EXPECT_TRUE(contains(r.error().message, "exited with status 3")) << describe(r.error());
    client.close();
    EXPECT_EQ((*t)->pid(), -1);
  }
}

// connect() once the child has certainly exited: the message must still say how it ended, whichever
// of "write to a dead pipe" and "read end of file" the client notices first.
TEST(GarbageChild, ConnectAfterTheChildExitedStillSaysHowItExited) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    SCOPED_TRACE("attempt " + std::to_string(attempt));
    auto rec = std::make_shared<Recorder>();
    auto t = ChildProcessTransport::spawn(garbage_child(rec));
    ASSERT_TRUE(t) << describe(t.error());
    ASSERT_TRUE(rec->wait([&] { return !rec->stderr_lines.empty(); })) << "the child never ran";
    std::this_thread::sleep_for(200ms);  // it has exited by now
    Client client(short_client_options(rec));
    auto r = client.connect(*t);
    ASSERT_FALSE(r) << "connect succeeded against /bin/sh";
    EXPECT_TRUE(contains(r.error().message, "exited with status 3")) << describe(r.error());
    client.close();
    EXPECT_EQ((*t)->pid(), -1);
  }
}

}  // namespace
