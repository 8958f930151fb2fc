// mcp-inspect: start any stdio MCP server, show what it offers, optionally call one tool.
//
//   mcp-inspect [--call NAME [--args JSON]] [--timeout MS] [--protocol VERSION] (--url URL | -- COMMAND [ARGS...])
//
// It speaks MCP 2026-07-28 when the server does, and 2025-11-25 otherwise; --protocol 2025-11-25
// forces the handshake revision, --protocol 2026-07-28 refuses to fall back.
//
// Exit status: 0 on success, 1 when the server fails or misbehaves, 2 on a usage error.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/stdio/child_process.hpp"

namespace {

int usage(const char* why) {
  if (why) std::cerr << "mcp-inspect: " << why << "\n";
  std::cerr << "usage: mcp-inspect [--call NAME [--args JSON]] [--timeout MS] [--protocol VERSION] (--url URL | -- COMMAND [ARGS...])\n";
  return 2;
}

std::string one_line(const std::optional<std::string>& s) {
  if (!s) return "";
  std::string out = *s;
  for (auto& c : out) if (c == '\n') c = ' ';
  return out.size() > 100 ? out.substr(0, 97) + "..." : out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string call, args_text = "{}", url, protocol;
  long timeout_ms = 30000;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") { ++i; break; }
    if (a == "--help" || a == "-h") { usage(nullptr); return 0; }
    if (i + 1 >= argc) return usage(("missing value after " + a).c_str());
    if (a == "--call") call = argv[++i];
    else if (a == "--args") args_text = argv[++i];
    else if (a == "--url") url = argv[++i];
    else if (a == "--timeout") timeout_ms = std::strtol(argv[++i], nullptr, 10);
    else if (a == "--protocol") protocol = argv[++i];
    else return usage(("unknown option " + a).c_str());
  }
  if (i >= argc && url.empty()) return usage("give --url URL or a server command after --");
  boost::system::error_code ec;
  auto args = mcp::json::parse(args_text, ec);
  if (ec || !args.is_object()) return usage("--args must be a JSON object");
  if (!protocol.empty() && !mcp::is_stateless_protocol_version(protocol) && !mcp::is_supported_protocol_version(protocol)) {
    return usage(("--protocol " + protocol + " is not a revision this client speaks").c_str());
  }

  std::shared_ptr<mcp::Transport> transport;
  if (!url.empty()) {
    auto t = mcp::http::HttpClientTransport::create({.url = url});
    if (!t) return usage(t.error().message.c_str());
    transport = *t;
  } else {
    mcp::ChildProcessOptions child;
    child.program = argv[i];
    for (int k = i + 1; k < argc; ++k) child.args.emplace_back(argv[k]);
    auto t = mcp::ChildProcessTransport::spawn(child);
    if (!t) { std::cerr << "mcp-inspect: " << t.error().message << "\n"; return 1; }
    transport = *t;
  }

  mcp::ClientOptions opts;
  opts.info.name = "mcp-inspect";
  opts.session.request_timeout = std::chrono::milliseconds(timeout_ms);
  if (!protocol.empty()) {
    opts.protocol_version = protocol;
    opts.fallback = false;  // a revision asked for by name is that revision or nothing
  }
  mcp::Client client(opts);
  auto init = client.connect(transport);
  if (!init) { std::cerr << "mcp-inspect: initialize failed: " << init.error().message << "\n"; return 1; }
  std::cout << "server: " << init->server_info.name << " " << init->server_info.version
            << " (protocol " << init->protocol_version << ")\n";

  int status = 0;
  auto report = [&](const char* what, const mcp::Error& e) {
    std::cerr << "mcp-inspect: " << what << " failed: " << e.message << "\n";
    status = 1;
  };
  if (client.server_supports("tools")) {
    if (auto tools = client.list_all_tools()) {
      std::cout << "tools (" << tools->size() << "):\n";
      for (const auto& t : *tools) std::cout << "  " << t.name << "  " << one_line(t.description) << "\n";
    } else report("tools/list", tools.error());
  }
  if (client.server_supports("resources")) {
    if (auto res = client.list_all_resources()) {
      std::cout << "resources (" << res->size() << "):\n";
      for (const auto& r : *res) std::cout << "  " << r.uri << "  " << r.name << "\n";
    } else report("resources/list", res.error());
    if (auto tmpl = client.list_all_resource_templates()) {
      std::cout << "resource templates (" << tmpl->size() << "):\n";
      for (const auto& t : *tmpl) std::cout << "  " << t.uri_template << "  " << t.name << "\n";
    } else report("resources/templates/list", tmpl.error());
  }
  if (client.server_supports("prompts")) {
    if (auto prompts = client.list_all_prompts()) {
      std::cout << "prompts (" << prompts->size() << "):\n";
      for (const auto& p : *prompts) std::cout << "  " << p.name << "  " << one_line(p.description) << "\n";
    } else report("prompts/list", prompts.error());
  }
  if (!call.empty()) {
    auto r = client.call_tool(call, args.as_object());
    if (!r) report("tools/call", r.error());
    else {
      std::cout << "call " << call << (r->is_error.value_or(false) ? " (tool error)" : "") << ":\n";
      // What the tool returned, without what 2026-07-28 adds to every result.
      r->extra.erase("resultType");
      if (r->meta) {
        r->meta->erase("io.modelcontextprotocol/serverInfo");
        if (r->meta->empty()) r->meta.reset();
      }
      std::cout << mcp::json::serialize(mcp::to_json(*r)) << "\n";
      if (r->is_error.value_or(false)) status = 1;
    }
  }
  client.close();
  return status;
}
