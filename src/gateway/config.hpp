// Private to the gateway: its configuration file. The `mcpServers` object people already have
// (Claude Desktop; VS Code's mcp.json calls it `servers`), each entry a stdio upstream
// (`command`, `args`, `env`, `cwd`) or a Streamable HTTP one (`url`, `headers`), plus an optional
// `gateway` section for the gateway's own settings and per-server policy:
//
//   { "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv"] },
//                     "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ..." } } },
//     "gateway": { "listen": "127.0.0.1:7800", "ioThreads": 4,
//                  "audit": { "keepRecords": 1000000, "keepDays": 90 },
//                  "servers": { "remote": { "newItems": "quarantine", "timeoutSeconds": 30,
//                                           "deny": ["*delete*"], "denyHints": ["destructiveHint"] } } } }
//
// Parsing is strict where a mistake would weaken protection (a misspelt policy is an error, not
// the default) and lenient where other clients put their own keys in an entry (ignored, with a
// warning). The file is bounded (1 MiB, 256 servers).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/audit_retention.hpp"
#include "gateway/pin_store.hpp"
#include "gateway/policy.hpp"
#include "mcp/error.hpp"
#include "mcp/protocol/logging.hpp"
#include "mcp/protocol/profiles.hpp"
#include "mcp/protocol/roots.hpp"
#include "mcp/signature/checker.hpp"
#include "mcp/signature/signature.hpp"
#include "mcp/trust/ed25519.hpp"

namespace mcp::gateway {

inline constexpr std::size_t kMaxConfigBytes = 1024 * 1024;
inline constexpr std::size_t kMaxUpstreams = 256;
inline constexpr std::size_t kMaxRoots = 256;  // per upstream
inline constexpr double kMaxKeepRecords = 1e12;  // gateway.audit.keepRecords

struct UpstreamConfig {
  std::string name;  // [A-Za-z0-9_-]{1,64}: it is a URL path segment and a tool-name prefix
  // stdio: command non-empty. HTTP: url non-empty.
  std::string command;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
  std::string cwd;
  std::string url;
  std::map<std::string, std::string> headers;
  // The gateway section's servers.NAME. "newItems"; unset: the command line's --new-items
  // (with_new_items_default), allow if that says nothing either.
  std::optional<NewItems> new_items;
  std::chrono::milliseconds timeout{60'000};  // "timeoutSeconds": each request to the upstream
  std::chrono::milliseconds ask_timeout{120'000};  // "askTimeoutSeconds": a call the policy asks about waits this long
  ItemPolicy policy;                          // "allow", "deny", "denyHints", "allowHinted" (policy.hpp)
  // Trust spoken on the upstream's behalf (docs/gateway.md, "Trust"):
  std::optional<ServerSignature> signature;  // "signature": served as is; unset: derived from what is approved
  std::vector<ProfileSpec> profiles;         // "profiles": ProfileSpecs, as /.well-known/mcp-profiles holds them
  // ... and asked of it: its own capability signature held in this mode ("signatureMode"), its
  // signed tools/manifest verified with this key ("manifestKey", hex or PEM) in "manifestMode".
  std::optional<EnforcementMode> upstream_signature;
  // "cardKey" (HTTP upstreams): its server card is fetched before each connection and its proof
  // verified with this key; the card's signature is then the one it is held to (signatureMode,
  // default strict). A card that cannot be fetched or does not verify refuses the upstream.
  std::optional<trust::Ed25519PublicKey> card_key;
  std::optional<trust::Ed25519PublicKey> manifest_key;
  EnforcementMode manifest_mode = EnforcementMode::strict;
  // What the gateway, as the upstream's client, says of itself (docs/gateway.md, "What the
  // upstream is told"): "roots", the roots it answers roots/list with (file:// URIs; none: it does
  // not declare roots), and "logLevel", the level it asks the upstream's notifications/message at
  // ("off": none asked for). They go to the gateway's log, not to clients.
  std::vector<Root> roots;
  std::optional<LoggingLevel> log_level = LoggingLevel::info;

  // Its entries in the file (mcpServers.NAME and gateway.servers.NAME) as written: a reload keeps
  // an upstream running when this is unchanged.
  std::string fingerprint;

  bool is_stdio() const { return !command.empty(); }
};

// The gateway section's "ui": the review page (review_page.hpp, review_access.hpp).
struct ReviewConfig {
  bool enabled = true;                     // "enabled"
  bool remote = false;                     // "remote": served to peers other than loopback
  std::vector<std::string> allowed_hosts;  // "allowedHosts": Host names besides loopback ones
  bool operator==(const ReviewConfig&) const = default;
};

struct GatewayConfig {
  std::vector<UpstreamConfig> upstreams;  // in the file's order
  std::optional<std::string> listen;      // "HOST:PORT"
  // "ioThreads": the HTTP front's event-loop threads, 1 to 64 (unset: HttpServerOptions' default,
  // 2). Calls to HTTP upstreams run on the same loops (HttpClientOptions::run_on_server_loops), so
  // this is the gateway's HTTP parallelism; a machine with more cores to give it wants more.
  std::optional<std::size_t> io_threads;
  ReviewConfig ui;
  RetentionPolicy audit;                  // "audit": what the gateway prunes of its audit log itself
  std::vector<std::string> warnings;      // ignored keys, skipped (disabled) servers
  std::vector<std::string> disabled;      // names of the servers skipped ("disabled": true)
};

// Parses the file's text. Errors name the server and key at fault.
[[nodiscard]] Result<GatewayConfig> parse_config(std::string_view text);
// Reads and parses FILE (at most kMaxConfigBytes).
[[nodiscard]] Result<GatewayConfig> load_config(const std::filesystem::path& file);

// Every server whose entry does not say "newItems" gets `fallback` (mcp-trust gateway's
// --new-items). Applied after each load, the first and each reload's, so both see the same.
void with_new_items_default(GatewayConfig& config, NewItems fallback);

// What the file's gateway.audit does not say, from the command line (--audit-keep-records,
// --audit-keep-days), after each load as with_new_items_default.
void with_retention_default(GatewayConfig& config, const RetentionPolicy& fallback);

// "HOST:PORT" (a bracketed IPv6 host too) into its parts.
[[nodiscard]] Result<std::pair<std::string, unsigned short>> parse_listen(std::string_view listen);

}  // namespace mcp::gateway
