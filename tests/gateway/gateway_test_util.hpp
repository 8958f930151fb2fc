// Shared by the tests of the gateway program: where the built programs are, starting
// `mcp-trust gateway --config`, and what a client sees of a result or a list.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "support/process.hpp"
#include "support/source_root.hpp"

namespace mcp::gateway_test {

// A program of the build (its bin folder, or MCP_BIN).
inline std::string bin(const std::string& program) {
  const char* b = std::getenv("MCP_BIN");
  return std::string(b ? b : MCP_GATEWAY_BIN_FALLBACK) + "/" + program;
}

// The reference TypeScript servers' folder (the project's .deps/node, or MCP_NODE_DIR).
using mcp::test::node_dir;

// The entry point of a reference server package (its package.json "bin" is dist/index.js).
inline std::string reference_server(const std::string& package) {
  return (node_dir() / "node_modules" / "@modelcontextprotocol" / package / "dist" / "index.js").string();
}

// `s` as a JSON string literal, for configuration files written by tests.
inline std::string json_string(const std::string& s) { return json::serialize(json::value(s)); }

// The URL of each upstream from the gateway's "NAME URL" lines ("(all)" for /mcp), adding to `urls`.
inline void take_urls(const test::BackgroundProgram& gateway, std::map<std::string, std::string>& urls) {
  for (const auto& line : gateway.lines()) {
    const auto sp = line.find(' ');
    if (sp != std::string::npos && line.find("://") != std::string::npos && !line.starts_with("listening")) {
      urls[line.substr(0, sp)] = line.substr(sp + 1);
    }
  }
}

// `mcp-trust gateway --config CONFIG --listen 127.0.0.1:0 --state STATE [EXTRA...]`, run in `dir`
// (its stderr there), once it says it is listening; null, with `error` set, if it did not.
inline std::unique_ptr<test::BackgroundProgram> start_gateway(const std::filesystem::path& config, const std::string& state,
                                                              const std::filesystem::path& dir,
                                                              std::map<std::string, std::string>& urls, std::string& error,
                                                              const std::vector<std::string>& extra = {}) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> args{"gateway", "--config", config.string(), "--listen", "127.0.0.1:0", "--state", state};
  args.insert(args.end(), extra.begin(), extra.end());
  auto gateway = std::make_unique<test::BackgroundProgram>(bin("mcp-trust"), args, dir);
  if (gateway->wait_for_line("listening on ", std::chrono::seconds(60)).empty()) {
    error = "the gateway did not start: " + gateway->err();
    return nullptr;
  }
  take_urls(*gateway, urls);
  return gateway;
}

// A client connected over Streamable HTTP to `url` with `co` (a failed connect fails the test).
inline std::unique_ptr<Client> connected_client(const std::string& url, ClientOptions co) {
  http::HttpClientOptions ho;
  ho.url = url;
  auto t = http::HttpClientTransport::create(ho);
  EXPECT_TRUE(t);
  auto c = std::make_unique<Client>(std::move(co));
  if (!t) return c;
  auto r = c->connect(*t);
  EXPECT_TRUE(r) << r.error().message;
  return c;
}

// Every text block of a result, joined.
inline std::string text_of(const CallToolResult& r) {
  std::string out;
  for (const auto& block : r.content)
    if (const auto* t = std::get_if<TextContent>(&block)) out += t->text;
  return out;
}

// Whether `c` lists `tool` now (a failed list fails the test).
inline bool lists(Client& c, const std::string& tool) {
  auto tools = c.list_all_tools();
  EXPECT_TRUE(tools) << tools.error().message;
  if (!tools) return false;
  return std::any_of(tools->begin(), tools->end(), [&](const Tool& t) { return t.name == tool; });
}

}  // namespace mcp::gateway_test
