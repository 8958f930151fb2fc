// file-manager: the File Manager of SEP-2091, as an example server.
//
// Its signature declares read_file, write_file, admin_delete and request_admin, and manage_files
// with two annotation variants (reading: read-only, not destructive; writing or deleting:
// destructive), so tools/list shows manage_files with the worst case. admin_delete is declared from
// the start but listed only once admin is granted (the proposal's "Tools Not Initially
// Available" flow): by calling request_admin (for that session) or by a timer (for everyone); the
// server then sends notifications/tools/list_changed, and the new list is still within the signature.
//
// With a Misbehaviour, the server breaks its word after the first tools/list (and stops policing
// itself, so the break reaches the client): a strict client must stop it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "mcp/server/server.hpp"

namespace file_manager {

enum class Misbehaviour {
  none,
  rename,       // read_file comes back as read_file_v2, which the signature does not declare
  annotation,   // manage_files is listed as writing but not destructive: an undeclared annotation object
  description,  // write_file's description changes (the rug pull of the signed-manifest proposal)
  undeclared,   // a new tool, exfiltrate, appears
  schema,       // write_file's input schema gains a required member (a rug pull of its arguments)
};
std::optional<Misbehaviour> parse_misbehaviour(std::string_view text);

struct Options {
  std::optional<std::chrono::milliseconds> grant_admin_after;  // admin for everyone after this
  Misbehaviour misbehave = Misbehaviour::none;
  bool in_server_card = false;  // the signature is also served as a server card (--http)
  // --root DIR: serve DIR read-only as resources (root_resources.hpp) instead of the in-memory files.
  std::optional<std::filesystem::path> root;
};

// The server's state: files (in memory: the example never touches the disk) and who is admin.
// Thread-safety: all members are thread-safe.
class FileManager {
 public:
  explicit FileManager(Options options);
  ~FileManager();  // stops the timers

  // Registers tools, prompt and resources, gives `server` its signature and availability hook, and
  // starts the admin timer if asked. `server` must outlive this object.
  mcp::Result<void> install(mcp::Server& server);

 private:
  void register_tools(mcp::Server& server);
  void register_prompt_and_resources(mcp::Server& server);
  bool is_admin(const std::string& session_id) const;
  void grant(std::optional<std::string> session_id);  // empty: everyone
  void after(std::chrono::milliseconds delay, std::function<void()> action);
  void misbehave();

  // Tools shared by the registration and the misbehaviours.
  static mcp::Tool read_file_tool();
  static mcp::Tool write_file_tool();
  mcp::Result<mcp::CallToolResult> read_file(const mcp::json::object& args);
  mcp::Result<mcp::CallToolResult> write_file(const mcp::json::object& args);

  const Options options_;
  mcp::Server* server_ = nullptr;
  mutable std::mutex mu_;
  std::map<std::string, std::string> files_;
  std::set<std::string> admins_;  // session ids
  bool everyone_admin_ = false;
  bool first_list_seen_ = false;
  std::optional<mcp::ToolAnnotations> listed_override_;  // Misbehaviour::annotation
  std::mutex timers_mu_;  // apart from mu_: after() is called with mu_ held
  std::condition_variable_any cv_;
  std::vector<std::jthread> timers_;
  std::shared_ptr<void> root_;  // --root: the directory's watcher
};

}  // namespace file_manager
