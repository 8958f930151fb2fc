// everything-client: the official conformance suite's client under test.
//
//   everything-client [--scenario NAME] URL
//
// The suite appends the server URL as the last argument, names the scenario in
// MCP_CONFORMANCE_SCENARIO and the revision in MCP_CONFORMANCE_PROTOCOL_VERSION (the client asks
// for that one; 2026-07-28 when unset), and passes JSON in MCP_CONFORMANCE_CONTEXT for the
// scenarios that need it. Every scenario connects and lists the tools; then, by scenario:
//   tools_call                         calls add_numbers
//   elicitation-sep1034-client-defaults, sse-retry   call their one tool
//   json-schema-2020-12-preservation   echoes the tool's schema back, verbatim
//   http-custom-headers                makes the calls the context lists
//   sep-2322-client-request-state, http-invalid-tool-headers, http-standard-headers
//                                      call every listed tool (arguments made from its schema);
//                                      the last also reads every resource and gets every prompt
// Elicitations are accepted with each field's default, or a plain value of its type.
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

// A value of the JSON Schema `property`: its default, else a plain value of its type.
json::value value_for(const json::value& property) {
  const json::object* p = property.if_object();
  if (!p) return "test";
  if (const json::value* d = p->if_contains("default")) return *d;
  const json::value* type = p->if_contains("type");
  const std::string_view t = type && type->is_string() ? std::string_view(type->get_string()) : "string";
  if (t == "boolean") return true;
  if (t == "integer" || t == "number") return 1;
  return "test";
}

// An elicitation answer that accepts every field: its default (SEP-1034), or a value of its type.
Result<json::value> accept_form(const json::object& params, const CancellationToken&) {
  json::object content;
  if (auto schema = params.if_contains("requestedSchema"); schema && schema->is_object()) {
    if (auto props = schema->get_object().if_contains("properties"); props && props->is_object()) {
      for (const auto& [name, prop] : props->get_object()) {
        content[name] = value_for(prop);
      }
    }
  }
  return json::object{{"action", "accept"}, {"content", std::move(content)}};
}

// Arguments for a tool from its inputSchema: every required property given a value of its type.
json::object arguments_for(const Tool& tool) {
  json::object args;
  const json::value* required = tool.input_schema.if_contains("required");
  const json::value* props = tool.input_schema.if_contains("properties");
  if (!required || !required->is_array() || !props || !props->is_object()) return args;
  for (const auto& name : required->get_array()) {
    if (!name.is_string()) continue;
    const json::value* prop = props->get_object().if_contains(name.get_string());
    args[name.get_string()] = prop ? value_for(*prop) : json::value("test");
  }
  return args;
}

// The calls MCP_CONFORMANCE_CONTEXT lists ({"toolCalls": [{"name", "arguments"}]}).
std::vector<std::pair<std::string, json::object>> context_calls() {
  std::vector<std::pair<std::string, json::object>> calls;
  const char* text = std::getenv("MCP_CONFORMANCE_CONTEXT");
  if (!text) return calls;
  boost::system::error_code ec;
  auto context = json::parse(text, ec);
  const json::value* list = !ec && context.is_object() ? context.get_object().if_contains("toolCalls") : nullptr;
  if (!list || !list->is_array()) return calls;
  for (const auto& c : list->get_array()) {
    const json::object* o = c.if_object();
    const json::value* name = o ? o->if_contains("name") : nullptr;
    const json::value* args = o ? o->if_contains("arguments") : nullptr;
    if (!name || !name->is_string()) continue;
    calls.emplace_back(std::string(name->get_string()), args && args->is_object() ? args->get_object() : json::object{});
  }
  return calls;
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
  if (const char* v = std::getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"); v && *v) co.protocol_version = v;
  co.on_elicitation = accept_form;
  Client client(co);
  auto init = client.connect(*transport);
  if (!init) return failed("connect", init.error());

  std::vector<Tool> tools;
  if (client.server_supports("tools")) {
    auto listed = client.list_all_tools();
    if (!listed) return failed("tools/list", listed.error());
    tools = std::move(*listed);
  }
  auto call = [&](const std::string& name, json::object args) -> int {
    auto r = client.call_tool(name, std::move(args));
    return r ? 0 : failed("tools/call " + name, r.error());
  };

  int status = 0;
  if (scenario == "tools_call") {
    status = call("add_numbers", {{"a", 2}, {"b", 3}});
  } else if (scenario == "elicitation-sep1034-client-defaults") {
    status = call("test_client_elicitation_defaults", {});
  } else if (scenario == "sse-retry") {
    status = call("test_reconnection", {});
  } else if (scenario == "json-schema-2020-12-preservation") {
    const Tool* tool = nullptr;
    for (const auto& t : tools) {
      if (t.name == "json_schema_2020_12_tool") tool = &t;
    }
    if (!tool) return failed("finding json_schema_2020_12_tool", Error::internal("not listed"));
    // The schema goes back exactly as received: unknown keywords included.
    status = call("json_schema_echo", {{"schema", tool->input_schema}});
  } else if (scenario == "http-custom-headers") {
    for (auto& [name, args] : context_calls()) status |= call(name, std::move(args));
  } else if (scenario == "sep-2322-client-request-state" || scenario == "http-invalid-tool-headers" ||
             scenario == "http-standard-headers") {
    for (const auto& t : tools) status |= call(t.name, arguments_for(t));
  }
  if (scenario == "http-standard-headers") {
    if (client.server_supports("resources")) {
      auto resources = client.list_all_resources();
      if (!resources) return failed("resources/list", resources.error());
      for (const auto& r : *resources) {
        if (auto read = client.read_resource(r.uri); !read) status |= failed("resources/read " + r.uri, read.error());
      }
    }
    if (client.server_supports("prompts")) {
      auto prompts = client.list_all_prompts();
      if (!prompts) return failed("prompts/list", prompts.error());
      for (const auto& p : *prompts) {
        if (auto got = client.get_prompt(p.name); !got) status |= failed("prompts/get " + p.name, got.error());
      }
    }
  }
  client.close();
  return status;
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
