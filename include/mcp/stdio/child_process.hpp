// mcp/stdio/child_process.hpp — the client side of stdio: spawn a server and talk to it.
//
// The child gets a pipe as stdin, a pipe as stdout (the protocol) and a pipe as stderr, which a
// dedicated thread drains line by line so a chatty server can never block on a full pipe.
//
// Shutdown, as the specification recommends: close the child's stdin, wait `shutdown_grace`; then
// SIGTERM and wait again; then SIGKILL. When the child dies on its own, the transport closes with an
// error that says how it ended ("exited with status 3", "killed by signal 11") and quotes its last
// stderr lines, so the user sees why.
//
// Thread-safety: as Transport.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/stdio/stdio.hpp"

namespace mcp {

// How much of each of the child's last stderr lines its exit error quotes (peer_text: cut, and
// control characters escaped), so that error stays a few KiB whatever the child wrote.
inline constexpr std::size_t kMaxStderrTailLineBytes = 512;

struct ChildProcessOptions {
  std::string program{};                     // looked up in PATH if it has no '/'
  std::vector<std::string> args{};           // argv[1..]
  std::map<std::string, std::string> env{};  // added to (and overriding) the inherited environment
  bool inherit_env = true;
  std::string cwd{};                         // empty: ours
  // Each stderr line of the child; default: copied to our stderr prefixed with "[<program>] ".
  std::function<void(const std::string& line)> on_stderr;
  std::chrono::milliseconds shutdown_grace{2000};  // per step: stdin closed, then SIGTERM
  std::size_t stderr_tail_lines = 20;              // quoted in the error when the child dies,
                                                   // each cut to kMaxStderrTailLineBytes, escaped
  FdTransportOptions framing{};
};

class ChildProcessTransport : public Transport {
 public:
  // Starts the process. Fails with a clear error if it cannot be started (not found, not executable).
  [[nodiscard]] static Result<std::shared_ptr<ChildProcessTransport>> spawn(ChildProcessOptions options);

  // The child's pid, or -1 after it has been reaped.
  [[nodiscard]] virtual int pid() const = 0;
  // How the child ended, as waitpid() reported it (test with WIFEXITED / WIFSIGNALED), once it
  // has been reaped; empty while it runs.
  [[nodiscard]] virtual std::optional<int> wait_status() const = 0;
};

}  // namespace mcp
