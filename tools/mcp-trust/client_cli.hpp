// Private to `mcp-trust client`: the state one run shares between its actions (cmd_client.cpp)
// and the watch loop (client_watch.cpp).
#pragma once

#include <condition_variable>
#include <mutex>
#include <set>
#include <string>

#include "cli_mcp.hpp"
#include "mcp/client/client.hpp"

namespace mcp::cli {

struct ClientRun {
  Client* client = nullptr;
  EnforcementMode mode = EnforcementMode::strict;
  bool json_output = false;

  // list_changed and close notifications, from the client's reader thread to the action.
  std::mutex mu;
  std::condition_variable cv;
  std::set<ListKind> changed;
  bool closed = false;
  std::optional<Error> close_reason;

  // Prints one line (text mode) or one JSON object per line (--json) to stdout.
  void emit(const std::string& text_line, const json::object& event) const;
  // A violation as it is found (permissive and advisory; strict reports the error at the end).
  void on_violation(const SignatureViolation& v) const;
  // Prints a list's items and, when there was a list before, what changed since; returns the keys.
  std::set<std::string> print_list(ListKind kind, const json::array& items,
                                   const std::optional<std::set<std::string>>& before) const;
};

// Lists `kind` completely (all pages) as the client checks it; the items as JSON.
Result<json::array> list_kind(Client& client, ListKind kind);
// The lists the server declared capabilities for.
std::vector<ListKind> supported_lists(const Client& client);

// Maps an error to the exit code and reports it: 4 for a signature violation, 1 otherwise.
int fail_with(const ClientRun& run, const Error& e);

// `watch --for DURATION`: stay connected, follow list_changed, check every list.
int run_watch(ClientRun& run, std::chrono::milliseconds duration);

// SEP-2093 (client_resources.cpp): `tree [URI] [--depth N]` walks the resource graph from URI (or
// the server's own list) and prints it indented; `meta URI` prints one resource's metadata.
int run_tree(ClientRun& run, const ClientAction& action);
int run_meta(ClientRun& run, const ClientAction& action);

}  // namespace mcp::cli
