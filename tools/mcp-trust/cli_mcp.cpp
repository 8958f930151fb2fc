#include "cli_mcp.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "cli_io.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/log.hpp"
#include "mcp/signature/reduction.hpp"
#include "mcp/stdio/child_process.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp::cli {

namespace {

Error usage(std::string message) { return Error::invalid_params(std::move(message)); }

void pretty_into(const json::value& v, std::string& out, int indent) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  const std::string inner(static_cast<std::size_t>(indent + 1) * 2, ' ');
  switch (v.kind()) {
    case json::kind::object: {
      const auto& o = v.get_object();
      if (o.empty()) { out += "{}"; return; }
      std::vector<std::string_view> keys;
      for (const auto& kv : o) keys.push_back(kv.key());
      std::sort(keys.begin(), keys.end(), [](auto a, auto b) { return trust::utf16_less(a, b); });
      out += "{\n";
      for (std::size_t i = 0; i < keys.size(); ++i) {
        out += inner + json::serialize(json::string(keys[i])) + ": ";
        pretty_into(o.at(keys[i]), out, indent + 1);
        out += i + 1 < keys.size() ? ",\n" : "\n";
      }
      out += pad + "}";
      return;
    }
    case json::kind::array: {
      const auto& a = v.get_array();
      if (a.empty()) { out += "[]"; return; }
      out += "[\n";
      for (std::size_t i = 0; i < a.size(); ++i) {
        out += inner;
        pretty_into(a[i], out, indent + 1);
        out += i + 1 < a.size() ? ",\n" : "\n";
      }
      out += pad + "]";
      return;
    }
    case json::kind::double_:
      if (!trust::append_number(out, v.get_double())) out += "null";
      return;
    default: out += json::serialize(v); return;
  }
}

}  // namespace

Result<ClientInvocation> parse_client_tokens(const std::vector<std::string>& tokens, bool allow_empty_command) {
  const std::size_t n = tokens.size();
  ClientInvocation inv;
  std::size_t cut = n;  // where the action starts
  // tree [URI] [--depth N]: the longest form is tried first, so a URI is never taken for the action.
  auto depth_of = [&](const std::string& text) -> std::optional<std::size_t> {
    if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return static_cast<std::size_t>(std::stoul(text));
  };
  const bool tree_depth_uri = n >= 4 && tokens[n - 4] == "tree" && tokens[n - 2] == "--depth";
  const bool tree_depth = !tree_depth_uri && n >= 3 && tokens[n - 3] == "tree" && tokens[n - 2] == "--depth";
  if (tree_depth_uri || tree_depth) {
    auto d = depth_of(tokens[n - 1]);
    if (!d) return fail(usage("tree --depth: not a depth from 0 to 999: \"" + tokens[n - 1] + "\""));
    inv.action.kind = ClientAction::Kind::tree;
    inv.action.depth = *d;
    if (tree_depth_uri) inv.action.uri = tokens[n - 3];
    cut = n - (tree_depth_uri ? 4 : 3);
  } else if (n >= 2 && (tokens[n - 2] == "tree" || tokens[n - 2] == "meta")) {
    inv.action.kind = tokens[n - 2] == "tree" ? ClientAction::Kind::tree : ClientAction::Kind::meta;
    inv.action.uri = tokens[n - 1];
    cut = n - 2;
  } else if (n >= 1 && tokens[n - 1] == "tree") {
    inv.action.kind = ClientAction::Kind::tree;
    cut = n - 1;
  } else if (n >= 1 && tokens[n - 1] == "tools") {
    inv.action.kind = ClientAction::Kind::tools;
    cut = n - 1;
  } else if (n >= 3 && tokens[n - 3] == "watch" && tokens[n - 2] == "--for") {
    auto ms = parse_duration_ms(tokens[n - 1]);
    if (!ms) return fail(usage("watch --for: not a duration: \"" + tokens[n - 1] + "\" (e.g. 500ms, 10s, 5m)"));
    inv.action.kind = ClientAction::Kind::watch;
    inv.action.duration = std::chrono::milliseconds(*ms);
    cut = n - 3;
  } else if (n >= 3 && tokens[n - 3] == "call" && !tokens[n - 1].empty() && tokens[n - 1].front() == '{') {
    boost::system::error_code ec;
    json::value args = json::parse(tokens[n - 1], ec);
    if (ec || !args.is_object()) return fail(usage("call: the arguments must be a JSON object: " + tokens[n - 1]));
    inv.action.kind = ClientAction::Kind::call;
    inv.action.tool = tokens[n - 2];
    inv.action.arguments = std::move(args.as_object());
    cut = n - 3;
  } else if (n >= 2 && tokens[n - 2] == "call") {
    inv.action.kind = ClientAction::Kind::call;
    inv.action.tool = tokens[n - 1];
    cut = n - 2;
  } else if (n >= 1 && (tokens[n - 1] == "watch" || tokens[n - 1] == "call" || tokens[n - 1] == "meta")) {
    return fail(usage(tokens[n - 1] == "watch"  ? "watch needs --for DURATION"
                      : tokens[n - 1] == "meta" ? "meta needs a resource URI"
                                                : "call needs a tool NAME"));
  } else {
    return fail(usage("give an action after the server command: tools, call NAME [JSON], watch --for DURATION, "
                      "tree [URI] [--depth N], or meta URI"));
  }
  inv.command.assign(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(cut));
  if (inv.command.empty() && !allow_empty_command)
    return fail(usage("give the server to run after --: mcp-trust client [OPTIONS] -- COMMAND ARGS... ACTION"));
  return inv;
}

std::optional<std::string> take_trailing_out(std::vector<std::string>& tokens) {
  const std::size_t n = tokens.size();
  if (n >= 2 && tokens[n - 2] == "--out") {
    std::string out = tokens[n - 1];
    tokens.resize(n - 2);
    return out;
  }
  return std::nullopt;
}

Result<InitializeResult> connect_child(Client& client, const std::vector<std::string>& command) {
  if (command.empty()) return fail(Error::invalid_params("no server command"));
  ChildProcessOptions co;
  co.program = command.front();
  co.args.assign(command.begin() + 1, command.end());
  const std::string prefix = "[" + command.front().substr(command.front().find_last_of('/') + 1) + "] ";
  co.on_stderr = [prefix](const std::string& line) { std::cerr << prefix << line << "\n"; };
  auto child = ChildProcessTransport::spawn(std::move(co));
  if (!child) return fail(child.error());
  return client.connect(*child);
}

Result<InitializeResult> connect_url(Client& client, const std::string& url) {
  auto t = http::HttpClientTransport::create({.url = url});
  if (!t) return fail(t.error());
  return client.connect(*t);
}

void quiet_sdk_logs() {
  const char* v = std::getenv("MCP_LOG");
  if (v == nullptr || *v == '\0') set_log_level("off");
}

std::string pretty_json(const json::value& v) {
  std::string out;
  pretty_into(v, out, 0);
  out += "\n";
  return out;
}

std::string describe_hints(const std::optional<ToolAnnotations>& annotations) {
  const EffectiveHints h = annotations ? effective_hints(*annotations) : EffectiveHints{};
  std::string s = h.read_only ? "read-only" : (h.destructive ? "destructive" : "additive");
  if (!h.read_only && h.idempotent) s += ", idempotent";
  s += h.open_world ? ", open-world" : ", closed-world";
  return s;
}

}  // namespace mcp::cli
