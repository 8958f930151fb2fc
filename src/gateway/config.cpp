#include "gateway/config.hpp"

#include <charconv>
#include <fstream>
#include <set>

#include "mcp/json.hpp"

namespace mcp::gateway {

namespace {

Error bad(const std::string& where, const std::string& what) {
  return Error::invalid_params("gateway config: " + where + ": " + what);
}

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  // NAME__tool is how /mcp names an upstream's items: a name holding "__" or ending with "_" would
  // make that ambiguous ("a_" + "x" and "a" + "_x" would both be a___x).
  return name.find("__") == std::string_view::npos && name.back() != '_';
}

Result<std::string> string_member(const json::object& o, std::string_view key, const std::string& where) {
  const auto* v = o.if_contains(key);
  if (!v) return std::string();
  if (!v->is_string()) return fail(bad(where, "\"" + std::string(key) + "\" must be a string"));
  return std::string(v->as_string());
}

Result<std::map<std::string, std::string>> string_map(const json::object& o, std::string_view key, const std::string& where) {
  std::map<std::string, std::string> out;
  const auto* v = o.if_contains(key);
  if (!v) return out;
  if (!v->is_object()) return fail(bad(where, "\"" + std::string(key) + "\" must be an object of strings"));
  for (const auto& [k, value] : v->as_object()) {
    if (!value.is_string()) return fail(bad(where, "\"" + std::string(key) + "\"." + std::string(k) + " must be a string"));
    out.emplace(std::string(k), std::string(value.as_string()));
  }
  return out;
}

Result<UpstreamConfig> parse_upstream(const std::string& name, const json::value& entry, std::vector<std::string>& warnings) {
  const std::string where = "server \"" + name + "\"";
  if (!entry.is_object()) return fail(bad(where, "must be an object"));
  const auto& o = entry.as_object();
  UpstreamConfig u;
  u.name = name;
  u.fingerprint = json::serialize(entry);
  static const std::set<std::string_view> known{"command", "args", "env", "cwd", "url", "headers", "type", "disabled"};
  for (const auto& [k, v] : o) {
    if (!known.contains(k)) warnings.push_back(where + ": \"" + std::string(k) + "\" is not used by the gateway (ignored)");
  }
  auto command = string_member(o, "command", where);
  auto cwd = string_member(o, "cwd", where);
  auto url = string_member(o, "url", where);
  auto type = string_member(o, "type", where);
  auto env = string_map(o, "env", where);
  auto headers = string_map(o, "headers", where);
  for (const auto* r : {&command, &cwd, &url, &type}) if (!*r) return fail(r->error());
  if (!env) return fail(env.error());
  if (!headers) return fail(headers.error());
  u.command = *command;
  u.cwd = *cwd;
  u.url = *url;
  u.env = *env;
  u.headers = *headers;
  if (const auto* args = o.if_contains("args")) {
    if (!args->is_array()) return fail(bad(where, "\"args\" must be an array of strings"));
    for (const auto& a : args->as_array()) {
      if (!a.is_string()) return fail(bad(where, "\"args\" must be an array of strings"));
      u.args.emplace_back(a.as_string());
    }
  }
  if (u.command.empty() == u.url.empty()) {
    return fail(bad(where, "give either \"command\" (a stdio server) or \"url\" (a Streamable HTTP server)"));
  }
  if (*type == "sse") return fail(bad(where, "the legacy HTTP+SSE transport is not supported; use its Streamable HTTP URL"));
  if (!type->empty() && *type != "stdio" && *type != "http" && *type != "streamable-http") {
    return fail(bad(where, "unknown \"type\" \"" + peer_text(*type, 64) + "\" (stdio or http)"));
  }
  if ((*type == "stdio" && u.command.empty()) || ((*type == "http" || *type == "streamable-http") && u.url.empty())) {
    return fail(bad(where, "\"type\" is \"" + *type + "\" but " + (u.command.empty() ? "\"url\"" : "\"command\"") + " is given"));
  }
  if (!u.url.empty() && !u.url.starts_with("http://") && !u.url.starts_with("https://")) {
    return fail(bad(where, "\"url\" must be an http:// or https:// URL"));
  }
  return u;
}

// The keys of servers.NAME about signatures, manifests and profiles: true if `key` is one of them.
Result<bool> read_trust_key(std::string_view key, const json::value& v, UpstreamConfig& u, const std::string& where) {
  const std::string k(key);
  if (k == "signature") {
    auto signature = parse_server_signature(v);
    if (!signature) return fail(bad(where, "\"signature\": " + signature.error().message));
    u.signature = std::move(*signature);
  } else if (k == "profiles") {
    auto profiles = parse_profiles_document(v);
    if (!profiles) return fail(bad(where, "\"profiles\": " + profiles.error().message));
    u.profiles = std::move(*profiles);
  } else if (k == "signatureMode" || k == "manifestMode") {
    auto mode = v.is_string() ? parse_enforcement_mode(v.as_string()) : std::nullopt;
    if (!mode) return fail(bad(where, "\"" + k + "\" is \"strict\", \"permissive\" or \"advisory\""));
    if (k == "signatureMode") u.upstream_signature = *mode;
    else u.manifest_mode = *mode;
  } else if (k == "manifestKey" || k == "cardKey") {
    auto public_key = v.is_string() ? trust::Ed25519PublicKey::parse(v.as_string())
                                    : Result<trust::Ed25519PublicKey>(fail(Error::invalid_params("not a string")));
    if (!public_key) {
      return fail(bad(where, "\"" + k + "\" is an Ed25519 public key (64 hex digits or PEM): " + public_key.error().message));
    }
    if (k == "cardKey" && u.is_stdio()) return fail(bad(where, "\"cardKey\" is for an HTTP server (a stdio server has no card)"));
    (k == "manifestKey" ? u.manifest_key : u.card_key) = *public_key;
  } else {
    return false;
  }
  return true;
}

// The keys of servers.NAME about what the gateway says of itself to the upstream: true if `key`
// is one of them.
Result<bool> read_client_key(std::string_view key, const json::value& v, UpstreamConfig& u, const std::string& where) {
  if (key == "logLevel") {
    auto level = v.is_string() ? parse_logging_level(v.as_string()) : std::nullopt;
    if (v == "off") u.log_level.reset();
    else if (!level) return fail(bad(where, "\"logLevel\" is \"off\" or an MCP logging level (debug, info, notice, warning, error, critical, alert, emergency)"));
    else u.log_level = *level;
    return true;
  }
  if (key != "roots") return false;
  const auto wrong = [&](const std::string& what) { return fail(bad(where, "\"roots\"" + what)); };
  if (!v.is_array()) return wrong(" must be an array of {\"uri\": \"file:///...\", \"name\"?}");
  if (v.as_array().size() > kMaxRoots) return wrong(" has more than " + std::to_string(kMaxRoots) + " entries");
  for (const auto& entry : v.as_array()) {
    const std::string at = "[" + std::to_string(u.roots.size()) + "]";
    auto root = entry.is_object() ? from_json<Root>(entry) : Result<Root>(fail(Error::invalid_params("not an object")));
    if (!root) return wrong(at + ": " + root.error().message);
    // The spec's roots are file:// URIs; a server reads them as directories it may use.
    if (!root->uri.starts_with("file://")) return wrong(at + ".uri must be a file:// URI");
    if (!root->extra.empty()) return wrong(at + ": unknown key \"" + peer_text(std::string(root->extra.begin()->key()), 64) + "\"");
    u.roots.push_back(std::move(*root));
  }
  return true;
}

// gateway.ui: {"enabled", "remote", "allowedHosts"}.
Result<void> read_review_section(const json::value& v, ReviewConfig& ui) {
  if (!v.is_object()) return fail(bad("gateway.ui", "must be an object"));
  for (const auto& [k, value] : v.as_object()) {
    if (k == "enabled" || k == "remote") {
      if (!value.is_bool()) return fail(bad("gateway.ui", "\"" + std::string(k) + "\" is true or false"));
      (k == "enabled" ? ui.enabled : ui.remote) = value.as_bool();
    } else if (k == "allowedHosts") {
      if (!value.is_array()) return fail(bad("gateway.ui", "\"allowedHosts\" must be an array of host names"));
      for (const auto& h : value.as_array()) {
        if (!h.is_string() || h.as_string().empty()) return fail(bad("gateway.ui", "\"allowedHosts\" must be an array of host names"));
        ui.allowed_hosts.emplace_back(h.as_string());
      }
    } else {
      return fail(bad("gateway.ui", "unknown key \"" + peer_text(std::string(k), 64) + "\" (enabled, remote, allowedHosts)"));
    }
  }
  return {};
}

// gateway.audit: {"keepRecords", "keepDays"} (audit_retention.hpp).
Result<void> read_audit_section(const json::value& v, RetentionPolicy& r) {
  if (!v.is_object()) return fail(bad("gateway.audit", "must be an object"));
  for (const auto& [k, value] : v.as_object()) {
    if (k == "keepRecords") {
      // An integer, as JSON writes one (1e6 is a double to the parser, and welcome if whole).
      const double n = value.is_number() ? value.to_number<double>() : 0.0;
      if (!(n >= 1 && n <= kMaxKeepRecords) || n != static_cast<double>(static_cast<std::int64_t>(n))) {
        return fail(bad("gateway.audit", "\"keepRecords\" is a whole number from 1 to 1e12"));
      }
      r.keep_records = static_cast<std::int64_t>(n);
    } else if (k == "keepDays") {
      const double days = value.is_number() ? value.to_number<double>() : 0.0;
      if (!(days > 0 && days <= kMaxKeepDays))
        return fail(bad("gateway.audit", "\"keepDays\" is a number of days above 0, up to 36500"));
      r.keep_for = keep_for_days(days);
    } else {
      return fail(
          bad("gateway.audit", "unknown key \"" + peer_text(std::string(k), 64) + "\" (keepRecords, keepDays)"));
    }
  }
  return {};
}

Result<void> apply_gateway_section(const json::value& section, GatewayConfig& config) {
  if (!section.is_object()) return fail(bad("\"gateway\"", "must be an object"));
  const auto& g = section.as_object();
  for (const auto& [k, v] : g) {
    if (k != "listen" && k != "ioThreads" && k != "servers" && k != "ui" && k != "audit") {
      return fail(bad("\"gateway\"",
                      "unknown key \"" + peer_text(std::string(k), 64) + "\" (listen, ioThreads, servers, ui, audit)"));
    }
  }
  if (const auto* audit = g.if_contains("audit")) {
    if (auto ok = read_audit_section(*audit, config.audit); !ok) return fail(ok.error());
  }
  if (const auto* ui = g.if_contains("ui")) {
    if (auto ok = read_review_section(*ui, config.ui); !ok) return fail(ok.error());
  }
  if (const auto* listen = g.if_contains("listen")) {
    if (!listen->is_string()) return fail(bad("gateway.listen", "must be a string HOST:PORT"));
    config.listen = std::string(listen->as_string());
    if (auto ok = parse_listen(*config.listen); !ok) return fail(ok.error());
  }
  if (const auto* threads = g.if_contains("ioThreads")) {
    // 64: past the cores of any machine this runs on; each thread is a loop with its own stack.
    const double n = threads->is_number() ? threads->to_number<double>() : 0.0;
    if (!(n >= 1 && n <= 64) || n != static_cast<double>(static_cast<int>(n))) {
      return fail(bad("gateway.ioThreads", "must be a whole number from 1 to 64"));
    }
    config.io_threads = static_cast<std::size_t>(n);
  }
  const auto* servers = g.if_contains("servers");
  if (!servers) return {};
  if (!servers->is_object()) return fail(bad("gateway.servers", "must be an object"));
  for (const auto& [name, policy] : servers->as_object()) {
    const std::string where = "gateway.servers." + peer_text(std::string(name), 64);
    auto it = std::find_if(config.upstreams.begin(), config.upstreams.end(), [&](const auto& u) { return u.name == name; });
    if (it == config.upstreams.end()) {
      if (std::find(config.disabled.begin(), config.disabled.end(), name) != config.disabled.end()) continue;
      return fail(bad(where, "names no server of mcpServers"));
    }
    if (!policy.is_object()) return fail(bad(where, "must be an object"));
    it->fingerprint += "\n" + json::serialize(policy);
    for (const auto& [k, v] : policy.as_object()) {
      auto policy_key = read_policy_key(k, v, it->policy, where);
      if (!policy_key) return fail(policy_key.error());
      if (*policy_key) continue;
      if (k == "newItems") {
        if (v == "allow") it->new_items = NewItems::allow;
        else if (v == "quarantine") it->new_items = NewItems::quarantine;
        else return fail(bad(where, "\"newItems\" is \"allow\" or \"quarantine\""));
      } else if (k == "timeoutSeconds" || k == "askTimeoutSeconds") {
        const auto seconds = v.is_number() ? v.to_number<double>() : -1.0;
        if (!(seconds >= 0.1 && seconds <= 86400)) return fail(bad(where, "\"" + std::string(k) + "\" is a number from 0.1 to 86400"));
        (k == "timeoutSeconds" ? it->timeout : it->ask_timeout) = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
      } else if (auto trust = read_trust_key(k, v, *it, where); !trust) {
        return fail(trust.error());
      } else if (*trust) {
        continue;
      } else if (auto client = read_client_key(k, v, *it, where); !client) {
        return fail(client.error());
      } else if (!*client) {
        return fail(bad(where, "unknown key \"" + peer_text(std::string(k), 64) + "\""));
      }
    }
    if (it->manifest_mode != EnforcementMode::strict && !it->manifest_key) {
      return fail(bad(where, "\"manifestMode\" needs \"manifestKey\" (the key the upstream signs its manifest with)"));
    }
  }
  return {};
}

}  // namespace

Result<GatewayConfig> parse_config(std::string_view text) {
  if (text.size() > kMaxConfigBytes) return fail(bad("the file", "larger than 1 MiB"));
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);  // Boost.JSON's default depth limit (32) bounds nesting
  if (ec) return fail(bad("the file", "not JSON: " + ec.message()));
  if (!doc.is_object()) return fail(bad("the file", "must be a JSON object"));
  const auto& root = doc.as_object();
  const json::value* servers = root.if_contains("mcpServers");
  if (!servers) servers = root.if_contains("servers");  // VS Code's mcp.json
  if (!servers || !servers->is_object()) return fail(bad("the file", "needs an \"mcpServers\" object"));
  GatewayConfig config;
  if (servers->as_object().size() > kMaxUpstreams) return fail(bad("mcpServers", "more than 256 servers"));
  for (const auto& [key, entry] : servers->as_object()) {
    const std::string name(key);
    if (!valid_name(name)) {
      return fail(bad("server \"" + peer_text(name, 64) + "\"",
                      "a name is 1 to 64 letters, digits, '-' or '_' (no \"__\", not ending with '_'): it becomes a URL path and a tool prefix"));
    }
    if (const auto* disabled = entry.is_object() ? entry.as_object().if_contains("disabled") : nullptr;
        disabled && *disabled == true) {
      config.warnings.push_back("server \"" + name + "\" is disabled (skipped)");
      config.disabled.push_back(name);
      continue;
    }
    auto u = parse_upstream(name, entry, config.warnings);
    if (!u) return fail(u.error());
    config.upstreams.push_back(std::move(*u));
  }
  if (const auto* section = root.if_contains("gateway")) {
    if (auto ok = apply_gateway_section(*section, config); !ok) return fail(ok.error());
  }
  return config;
}

void with_new_items_default(GatewayConfig& config, NewItems fallback) {
  for (auto& u : config.upstreams) {
    if (!u.new_items) u.new_items = fallback;
  }
}

void with_retention_default(GatewayConfig& config, const RetentionPolicy& fallback) {
  if (!config.audit.keep_records) config.audit.keep_records = fallback.keep_records;
  if (!config.audit.keep_for) config.audit.keep_for = fallback.keep_for;
}

Result<GatewayConfig> load_config(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail(bad(file.string(), "cannot be read"));
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  auto config = parse_config(text);
  if (!config) return fail(Error::invalid_params(file.string() + ": " + config.error().message));
  return config;
}

Result<std::pair<std::string, unsigned short>> parse_listen(std::string_view listen) {
  const auto colon = listen.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return fail(bad("listen", "give HOST:PORT, e.g. 127.0.0.1:7800"));
  std::string host(listen.substr(0, colon));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const auto port_text = listen.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535) {
    return fail(bad("listen", "the port of \"" + peer_text(std::string(listen), 64) + "\" is not a number up to 65535"));
  }
  return std::pair{host, static_cast<unsigned short>(port)};
}

}  // namespace mcp::gateway
