// The gateway's configuration file (src/gateway/config.hpp): the mcpServers shapes people have,
// the gateway section, and a clear error for each mistake that would otherwise weaken protection.
#include <gtest/gtest.h>

#include "gateway/config.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

std::string error_of(std::string_view text) {
  auto c = parse_config(text);
  EXPECT_FALSE(c) << text;
  return c ? std::string() : c.error().message;
}

TEST(GatewayConfig, ReadsStdioAndHttpServersWithTheirSettings) {
  auto c = parse_config(R"({"mcpServers": {
      "files": {"command": "npx", "args": ["-y", "server-filesystem", "/srv"], "env": {"A": "1"}, "cwd": "/tmp"},
      "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}}},
    "gateway": {"listen": "127.0.0.1:7801", "servers": {"remote": {"newItems": "quarantine"}}}})");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->upstreams.size(), 2u);
  const auto& files = c->upstreams[0];
  EXPECT_EQ(files.name, "files");
  EXPECT_TRUE(files.is_stdio());
  EXPECT_EQ(files.args, (std::vector<std::string>{"-y", "server-filesystem", "/srv"}));
  EXPECT_EQ(files.env.at("A"), "1");
  EXPECT_EQ(files.cwd, "/tmp");
  EXPECT_FALSE(files.new_items) << "unset: the command line's --new-items decides";
  const auto& remote = c->upstreams[1];
  EXPECT_FALSE(remote.is_stdio());
  EXPECT_EQ(remote.headers.at("Authorization"), "Bearer x");
  EXPECT_EQ(remote.new_items, NewItems::quarantine);
  EXPECT_EQ(c->listen, "127.0.0.1:7801");
  EXPECT_TRUE(c->warnings.empty());
}

TEST(GatewayConfig, TheCommandLinesNewItemsHoldsEveryServerWhoseEntryDoesNotSay) {
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}, "c": {"command": "z"}},
    "gateway": {"servers": {"b": {"newItems": "allow"}, "c": {"newItems": "quarantine"}}}})");
  ASSERT_TRUE(c) << c.error().message;
  with_new_items_default(*c, NewItems::quarantine);
  EXPECT_EQ(c->upstreams[0].new_items, NewItems::quarantine);
  EXPECT_EQ(c->upstreams[1].new_items, NewItems::allow) << "the server's own entry wins";
  EXPECT_EQ(c->upstreams[2].new_items, NewItems::quarantine);
  with_new_items_default(*c, NewItems::allow);  // a later default changes nothing already set
  EXPECT_EQ(c->upstreams[0].new_items, NewItems::quarantine);
}

TEST(GatewayConfig, VsCodesServersKeyAndOtherClientsKeysAreUnderstood) {
  auto c = parse_config(R"({"servers": {"a": {"type": "stdio", "command": "x", "autoApprove": []},
                                        "off": {"command": "y", "disabled": true},
                                        "h": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}})");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->upstreams.size(), 2u);  // the disabled one is skipped
  ASSERT_EQ(c->warnings.size(), 2u);
  EXPECT_NE(c->warnings[0].find("autoApprove"), std::string::npos) << c->warnings[0];
  EXPECT_NE(c->warnings[1].find("disabled"), std::string::npos) << c->warnings[1];
}

TEST(GatewayConfig, MistakesAreClearErrors) {
  EXPECT_NE(error_of("not json").find("not JSON"), std::string::npos);
  EXPECT_NE(error_of("[]").find("object"), std::string::npos);
  EXPECT_NE(error_of(R"({"other": {}})").find("mcpServers"), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {}}})").find("either \"command\""), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x", "url": "http://h/mcp"}}})").find("either"), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x", "args": "-v"}}})").find("args"), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x", "env": {"A": 1}}}})").find("env"), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"url": "ftp://h/mcp"}}})").find("http://"), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}})").find("legacy"), std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"type": "http", "command": "x"}}})").find("\"command\" is given"), std::string::npos);
  // The policy of a disabled server is no mistake: it applies when the server is enabled again.
  EXPECT_TRUE(parse_config(R"({"mcpServers": {"a": {"command": "x", "disabled": true}, "b": {"command": "y"}},
                              "gateway": {"servers": {"a": {"newItems": "quarantine"}}}})"));
  // Names become URL paths and tool prefixes.
  for (const char* bad : {"", "a b", "a/b", "a__b", "a_", "..", "x%2f"}) {
    const std::string text = std::string(R"({"mcpServers": {")") + bad + R"(": {"command": "x"}}})";
    EXPECT_NE(error_of(text).find("a name is"), std::string::npos) << bad;
  }
  // A misspelt policy is an error, never the permissive default.
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {"newItems": "deny"}}}})")
                .find("newItems"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {"newitems": "allow"}}}})")
                .find("unknown key"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"b": {}}}})").find("names no server"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"listen": "127.0.0.1:99999"}})").find("port"),
            std::string::npos);
}

TEST(GatewayConfig, ABoundedFile) {
  std::string many = R"({"mcpServers": {)";
  for (int i = 0; i < 257; ++i) many += (i ? "," : "") + std::string("\"s") + std::to_string(i) + R"(": {"command": "x"})";
  many += "}}";
  EXPECT_NE(error_of(many).find("256"), std::string::npos);
  EXPECT_NE(error_of(std::string(kMaxConfigBytes + 1, ' ')).find("1 MiB"), std::string::npos);
  // Nesting deeper than the parser's limit is refused, not recursed into.
  EXPECT_NE(error_of(std::string(10000, '[') + std::string(10000, ']')).find("not JSON"), std::string::npos);
}

TEST(GatewayConfig, ListenAddresses) {
  auto v4 = parse_listen("127.0.0.1:0");
  ASSERT_TRUE(v4);
  EXPECT_EQ(v4->first, "127.0.0.1");
  EXPECT_EQ(v4->second, 0);
  auto v6 = parse_listen("[::1]:7800");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->first, "::1");
  EXPECT_EQ(v6->second, 7800);
  EXPECT_FALSE(parse_listen("7800"));
  EXPECT_FALSE(parse_listen("host:"));
  EXPECT_FALSE(parse_listen("host:80x"));
}

TEST(GatewayConfig, TrustSpokenForAndAskedOfAnUpstream) {
  const std::string key = trust::Ed25519SecretKey::generate().public_key().hex();
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {
      "signature": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]},
      "profiles": [{"profileURL": "https://mcp-trust.dev/profiles/signed/1.0", "default": true, "minMcpVersion": "2025-11-25"}],
      "signatureMode": "permissive", "manifestKey": ")" + key + R"(", "manifestMode": "advisory"}}}})");
  ASSERT_TRUE(c) << c.error().message;
  const auto& a = c->upstreams.front();
  ASSERT_TRUE(a.signature);
  ASSERT_EQ(a.signature->tools.size(), 1u);
  EXPECT_EQ(a.signature->tools.front().tool.name, "t");
  ASSERT_EQ(a.profiles.size(), 1u);
  EXPECT_TRUE(a.profiles.front().default_);
  EXPECT_EQ(a.upstream_signature, EnforcementMode::permissive);
  ASSERT_TRUE(a.manifest_key);
  EXPECT_EQ(a.manifest_key->hex(), key);
  EXPECT_EQ(a.manifest_mode, EnforcementMode::advisory);
  // Unset: nothing asked of the upstream, the signature derived.
  auto plain = parse_config(R"({"mcpServers": {"a": {"command": "x"}}})");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->upstreams.front().signature);
  EXPECT_FALSE(plain->upstreams.front().upstream_signature);
  EXPECT_FALSE(plain->upstreams.front().manifest_key);
}

TEST(GatewayConfig, AMistakeInTrustSettingsIsAnErrorNotAWeakerDefault) {
  auto with = [](const std::string& server) {
    return R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": )" + server + "}}}";
  };
  EXPECT_NE(error_of(with(R"({"signatureMode": "lenient"})")).find("signatureMode"), std::string::npos);
  EXPECT_NE(error_of(with(R"({"manifestKey": "abc"})")).find("manifestKey"), std::string::npos);
  EXPECT_NE(error_of(with(R"({"manifestMode": "advisory"})")).find("needs \"manifestKey\""), std::string::npos);
  // "a" is a stdio server: it has no card to verify.
  EXPECT_NE(error_of(with(R"({"cardKey": ")" + trust::Ed25519SecretKey::generate().public_key().hex() + R"("})"))
                .find("\"cardKey\" is for an HTTP server"),
            std::string::npos);
  EXPECT_NE(error_of(with(R"({"signature": {"tools": "no"}})")).find("signature"), std::string::npos);
  // Two defaults break the proposal's rule.
  EXPECT_NE(error_of(with(R"({"profiles": [{"profileURL": "https://a.example/p/1.0", "default": true, "minMcpVersion": "2025-11-25"},
                                           {"profileURL": "https://b.example/q/1.0", "default": true, "minMcpVersion": "2025-11-25"}]})"))
                .find("profiles"),
            std::string::npos);
}

TEST(GatewayConfig, WhatTheGatewaySaysOfItselfToAnUpstream) {
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}, "gateway": {"servers": {
      "a": {"roots": [{"uri": "file:///srv/data", "name": "data"}, {"uri": "file:///tmp"}], "logLevel": "warning"},
      "b": {"logLevel": "off"}}}})");
  ASSERT_TRUE(c) << c.error().message;
  const auto& a = c->upstreams.at(0);
  ASSERT_EQ(a.roots.size(), 2u);
  EXPECT_EQ(a.roots[0].uri, "file:///srv/data");
  EXPECT_EQ(a.roots[0].name, "data");
  EXPECT_FALSE(a.roots[1].name);
  EXPECT_EQ(a.log_level, LoggingLevel::warning);
  EXPECT_FALSE(c->upstreams.at(1).log_level);
  EXPECT_TRUE(c->upstreams.at(1).roots.empty());
  // Unset: no roots declared, messages asked for at info.
  auto plain = parse_config(R"({"mcpServers": {"a": {"command": "x"}}})");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->upstreams.front().log_level, LoggingLevel::info);

  auto with = [](const std::string& server) {
    return R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": )" + server + "}}}";
  };
  EXPECT_NE(error_of(with(R"({"logLevel": "loud"})")).find("\"logLevel\" is \"off\" or"), std::string::npos);
  EXPECT_NE(error_of(with(R"({"roots": "/srv"})")).find("\"roots\" must be an array"), std::string::npos);
  EXPECT_NE(error_of(with(R"({"roots": [{"uri": "/srv"}]})")).find("[0].uri must be a file:// URI"), std::string::npos);
  EXPECT_NE(error_of(with(R"({"roots": [{"url": "file:///srv"}]})")).find("[0]"), std::string::npos);
  EXPECT_NE(error_of(with(R"({"roots": [{"uri": "file:///srv", "nmae": "x"}]})")).find("unknown key \"nmae\""), std::string::npos);
}

TEST(GatewayConfig, TheReviewPageAndTheAskPolicy) {
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {
      "ui": {"remote": true, "allowedHosts": ["gw.internal"]},
      "servers": {"a": {"ask": ["send_*"], "askTimeoutSeconds": 30}}}})");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->ui.enabled);
  EXPECT_TRUE(c->ui.remote);
  EXPECT_EQ(c->ui.allowed_hosts, std::vector<std::string>{"gw.internal"});
  const auto& a = c->upstreams.at(0);
  EXPECT_TRUE(a.policy.asks("send_mail"));
  EXPECT_FALSE(a.policy.asks("read_mail"));
  EXPECT_TRUE(a.policy.empty()) << "asking denies nothing";
  EXPECT_EQ(a.ask_timeout, std::chrono::milliseconds(30'000));
  // Unset: the page on loopback, a call asked about waits two minutes.
  auto plain = parse_config(R"({"mcpServers": {"a": {"command": "x"}}})");
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->ui.enabled);
  EXPECT_FALSE(plain->ui.remote);
  EXPECT_EQ(plain->upstreams.at(0).ask_timeout, std::chrono::milliseconds(120'000));

  auto gateway_with = [](const std::string& section) {
    return R"({"mcpServers": {"a": {"command": "x"}}, "gateway": )" + section + "}";
  };
  EXPECT_NE(error_of(gateway_with(R"({"ui": {"remote": "yes"}})")).find("\"remote\" is true or false"), std::string::npos);
  EXPECT_NE(error_of(gateway_with(R"({"ui": {"port": 1}})")).find("unknown key \"port\""), std::string::npos);
  EXPECT_NE(error_of(gateway_with(R"({"ui": {"allowedHosts": [""]}})")).find("allowedHosts"), std::string::npos);
  EXPECT_NE(error_of(gateway_with(R"({"servers": {"a": {"ask": "send"}}})")).find("array of strings"), std::string::npos);
  EXPECT_NE(error_of(gateway_with(R"({"servers": {"a": {"askTimeoutSeconds": 0}}})")).find("\"askTimeoutSeconds\" is a number"),
            std::string::npos);
}

TEST(GatewayConfig, TheNumberOfIoThreads) {
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"ioThreads": 4}})");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->io_threads, 4u);
  auto plain = parse_config(R"({"mcpServers": {"a": {"command": "x"}}})");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->io_threads) << "unset: the HTTP server's default";
  for (const char* bad : {"0", "65", "2.5", "-1", "\"4\"", "1e300", "true"}) {
    const auto error = error_of(std::string(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"ioThreads": )") + bad + "}}");
    EXPECT_NE(error.find("gateway.ioThreads: must be a whole number from 1 to 64"), std::string::npos) << bad << ": " << error;
  }
}

TEST(GatewayConfig, TheAuditLogsRetention) {
  auto c = parse_config(
      R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"audit": {"keepRecords": 1e6, "keepDays": 0.5}}})");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->audit.keep_records, 1'000'000);
  EXPECT_EQ(c->audit.keep_for, std::chrono::hours(12));
  // The command line fills in what the file does not say, and only that.
  with_retention_default(*c, RetentionPolicy{.keep_records = 5, .keep_for = std::chrono::hours(1)});
  EXPECT_EQ(c->audit.keep_records, 1'000'000);
  auto plain = parse_config(R"({"mcpServers": {"a": {"command": "x"}}})");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->audit.any()) << "unset: pruned only by a person";
  with_retention_default(*plain, RetentionPolicy{.keep_records = 5});
  EXPECT_EQ(plain->audit.keep_records, 5);
  EXPECT_FALSE(plain->audit.keep_for);

  auto audit = [](std::string_view section) {
    return error_of(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"audit": )" + std::string(section) + "}}");
  };
  EXPECT_NE(audit(R"({"keepRecords": 0})").find("\"keepRecords\" is a whole number"), std::string::npos);
  EXPECT_NE(audit(R"({"keepRecords": 10.5})").find("\"keepRecords\" is a whole number"), std::string::npos);
  EXPECT_NE(audit(R"({"keepRecords": "100"})").find("\"keepRecords\" is a whole number"), std::string::npos);
  EXPECT_NE(audit(R"({"keepRecords": 1e13})").find("\"keepRecords\" is a whole number"), std::string::npos);
  EXPECT_NE(audit(R"({"keepDays": 0})").find("\"keepDays\" is a number of days"), std::string::npos);
  EXPECT_NE(audit(R"({"keepDays": 40000})").find("\"keepDays\" is a number of days"), std::string::npos);
  EXPECT_NE(audit(R"({"keepdays": 3})").find("unknown key \"keepdays\""), std::string::npos);
  EXPECT_NE(audit(R"([])").find("gateway.audit"), std::string::npos);
}

}  // namespace
