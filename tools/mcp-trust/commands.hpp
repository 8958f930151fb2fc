// The mcp-trust command line: one registration function per command, each in its own cmd_*.cpp,
// so a new command (client, card, scan, gateway) is a new file plus one line in main.cpp.
//
// Exit codes, shared by every command:
//   0  success (for verify: the manifest is valid)
//   1  any other error (unreadable file, malformed input to canonicalize/hash/sign, I/O failure)
//   2  usage error (unknown option, missing argument, invalid option value)
//   4  verification failed, for any reason (verify); a capability signature or signed manifest
//      violation in strict mode (client)
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace mcp::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitVerifyFailed = 4;

// A registered command: its CLI11 subcommand, and what to run once the command line has parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_keygen(CLI::App& parent);
Command add_canonicalize(CLI::App& parent);
Command add_hash(CLI::App& parent);
Command add_sign(CLI::App& parent);
Command add_verify(CLI::App& parent);
Command add_client(CLI::App& parent);
Command add_scan(CLI::App& parent);
Command add_card(CLI::App& parent);
Command add_profiles(CLI::App& parent);
Command add_gateway(CLI::App& parent);
Command add_audit(CLI::App& parent);

}  // namespace mcp::cli
