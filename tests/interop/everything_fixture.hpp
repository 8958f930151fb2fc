// Shared by the interop tests of our C++ client against the reference TypeScript server
// @modelcontextprotocol/server-everything (client_*_test.cpp): where Node is, helpers, and the
// fixture that starts one server per test.
//
// Our C++ client (mcp::Client over mcp::ChildProcessTransport) against the reference
// TypeScript server @modelcontextprotocol/server-everything, run in stdio mode with the Node 22 of
// .deps/node (or MCP_NODE_DIR). Each test starts its own server process.
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
#pragma once

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
#include "mcp/stdio/child_process.hpp"
#include "support/source_root.hpp"

using namespace mcp;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

// Unnamed inside: each test file gets its own copy of these helpers (test code, header-only).
namespace interop_test {
namespace {

constexpr auto kCallTimeout = 15s;     // one request
constexpr auto kEventTimeout = 5s;     // waiting for a server-initiated request or notification
constexpr const char* kCannedText = "Canned reply from the mcp-trust C++ client";
constexpr const char* kCannedModel = "mcp-trust-canned-model";
constexpr const char* kRootUri = "file:///tmp/mcp-trust-interop-root";
constexpr const char* kRootName = "interop-root";

// --- where things are ---------------------------------------------------------------------------

using mcp::test::node_dir;
fs::path node_modules() { return node_dir() / "node_modules"; }
fs::path node_binary() { return node_modules() / ".bin" / "node"; }
fs::path everything_dir() { return node_modules() / "@modelcontextprotocol" / "server-everything"; }
// package.json: "bin": {"mcp-server-everything": "dist/index.js"}, "start:stdio": "node dist/index.js stdio".
fs::path everything_entry() { return everything_dir() / "dist" / "index.js"; }

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// --- small helpers ------------------------------------------------------------------------------

inline CallOptions bounded(std::chrono::milliseconds t = kCallTimeout) {
  CallOptions o;
  o.timeout = t;
  return o;
}

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

inline std::string base64_decode(std::string_view in) {
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
inline std::string text_of(const std::vector<ContentBlock>& content, std::size_t i) {
  if (i >= content.size()) {
    ADD_FAILURE() << "no content block " << i << " (only " << content.size() << ")";
    return {};
  }
  if (const auto* t = std::get_if<TextContent>(&content[i])) return t->text;
  ADD_FAILURE() << "content block " << i << " is \"" << content_type(content[i]) << "\", not text";
  return {};
}

// All text blocks, joined by newlines.
inline std::string all_text(const CallToolResult& r) {
  std::string out;
  for (const auto& b : r.content)
    if (const auto* t = std::get_if<TextContent>(&b)) out += t->text + "\n";
  return out;
}

inline std::string describe(const Error& e) {
  std::string s = std::to_string(e.code) + ": " + e.message;
  if (e.data) s += " data=" + mcp::to_string(*e.data);
  return s;
}

// Fills a form-mode elicitation from its schema: the property's default if it has one, else a
// simple value of the right kind (honouring enum / oneOf / anyOf / format / minimum).
inline json::object fill_form(const RequestedSchema& schema) {
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

inline ClientOptions make_client_options(const std::shared_ptr<Recorder>& rec, bool with_handlers = true) {
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

inline ChildProcessOptions everything_process(const std::shared_ptr<Recorder>& rec) {
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
    // A missing peer fails the test: the README's test command installs it, so its absence is a
    // broken set-up, never a reason to pass.
    ASSERT_TRUE(fs::is_directory(node_modules()))
        << node_modules() << " does not exist (run scripts/setup.sh to install Node 22 and "
        << "@modelcontextprotocol/server-everything, or set MCP_NODE_DIR)";
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

}  // namespace
}  // namespace interop_test
