// everything-client: the official conformance suite's client under test.
//
//   everything-client [--scenario NAME] URL
//
// The suite appends the server URL as the last argument and names the scenario in
// MCP_CONFORMANCE_SCENARIO (MCP_CONFORMANCE_CONTEXT carries JSON for the scenarios that need it).
// Implemented: initialize, tools_call, elicitation-sep1034-client-defaults, sse-retry,
// json-schema-2020-12-preservation. Any other scenario runs the initialize flow and lists tools.
// Exit status 0 when the scenario's steps all succeeded, 1 otherwise, 2 on a usage error.
#include <cstdlib>
#include <iostream>
#include <string>

#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"

namespace {

using namespace mcp;

int failed(const std::string& what, const Error& e) {
  std::cerr << "everything-client: " << what << " failed: " << e.message << "\n";
  return 1;
}

// An elicitation answer that accepts every field with its schema default (SEP-1034).
Result<json::value> accept_with_defaults(const json::object& params, const CancellationToken&) {
  json::object content;
  if (auto schema = params.if_contains("requestedSchema"); schema && schema->is_object()) {
    if (auto props = schema->get_object().if_contains("properties"); props && props->is_object()) {
      for (const auto& [name, prop] : props->get_object()) {
        if (prop.is_object()) {
          if (auto d = prop.get_object().if_contains("default")) content[name] = *d;
        }
      }
    }
  }
  return json::object{{"action", "accept"}, {"content", std::move(content)}};
}

int run(const std::string& scenario, const std::string& url) {
  http::HttpClientOptions ho;
  ho.url = url;
  auto transport = http::HttpClientTransport::create(ho);
  if (!transport) return failed("transport", transport.error());

  ClientOptions co;
  co.info.name = "mcp-trust-everything-client";
  co.info.version = "0.1.0";
  co.session.request_timeout = std::chrono::seconds(20);
  if (scenario == "elicitation-sep1034-client-defaults") co.on_elicitation = accept_with_defaults;
  Client client(co);
  auto init = client.connect(*transport);
  if (!init) return failed("initialize", init.error());

  std::vector<Tool> listed;
  if (client.server_supports("tools")) {
    auto tools = client.list_all_tools();
    if (!tools) return failed("tools/list", tools.error());
    listed = std::move(*tools);
  }
  const auto* tools = &listed;

  if (scenario == "tools_call") {
    auto r = client.call_tool("add_numbers", {{"a", 2}, {"b", 3}});
    if (!r) return failed("tools/call add_numbers", r.error());
  } else if (scenario == "elicitation-sep1034-client-defaults") {
    auto r = client.call_tool("test_client_elicitation_defaults");
    if (!r) return failed("tools/call test_client_elicitation_defaults", r.error());
  } else if (scenario == "sse-retry") {
    auto r = client.call_tool("test_reconnection");
    if (!r) return failed("tools/call test_reconnection", r.error());
  } else if (scenario == "json-schema-2020-12-preservation") {
    const Tool* tool = nullptr;
    for (const auto& t : *tools) {
      if (t.name == "json_schema_2020_12_tool") tool = &t;
    }
    if (!tool) return failed("finding json_schema_2020_12_tool", Error::internal("not listed"));
    // The schema goes back exactly as received: unknown keywords included.
    auto r = client.call_tool("json_schema_echo", {{"schema", tool->input_schema}});
    if (!r) return failed("tools/call json_schema_echo", r.error());
  }
  client.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenario, url;
  if (const char* s = std::getenv("MCP_CONFORMANCE_SCENARIO")) scenario = s;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << "usage: everything-client [--scenario NAME] URL  (or MCP_CONFORMANCE_SCENARIO=NAME)\n";
      return 0;
    }
    if (a == "--scenario" && i + 1 < argc) scenario = argv[++i];
    else url = a;
  }
  if (url.empty()) {
    std::cerr << "everything-client: no server URL (it is the last argument)\n";
    return 2;
  }
  return run(scenario, url);
}
