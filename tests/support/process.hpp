// support/process.hpp — run a program as a user would and collect its exit status and output, for
// the tests of our command-line programs. The test waits for the program's exit itself (blocking
// waitid, no polling); a watchdog thread kills it only if it is still running after a generous
// bound, so that a hang fails the test instead of blocking CI.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "support/event.hpp"

extern char** environ;

namespace mcp::test {

struct ProgramOutcome {
  int code = -1;  // the exit status, or -signal if it was killed
  std::string out, err;
  bool timed_out = false;  // killed by the watchdog
  bool spawned = false;
};

inline std::string slurp_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Reaped {
  int status = 0;       // as waitpid() gives it
  bool killed = false;  // by the watchdog, after `bound`
};

// Waits for child `pid` to exit (blocking waitid, no polling) and reaps it; a watchdog thread kills
// it if it is still running after `bound`. The watchdog kills only while the child is certainly not
// reaped (it is reaped after the watchdog is joined), so it can never signal a recycled pid.
inline Reaped reap_within(pid_t pid, std::chrono::milliseconds bound) {
  Event exited;
  Reaped r;
  std::thread watchdog([&] {
    if (!exited.wait(bound)) {
      r.killed = true;
      ::kill(pid, SIGKILL);
    }
  });
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  exited.set();
  watchdog.join();
  while (::waitpid(pid, &r.status, 0) < 0 && errno == EINTR) {
  }
  return r;
}

// The exit status, or -signal if the process was killed.
inline int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status); }

// Runs `program` with `args`, stdin from /dev/null, stdout and stderr into files in `dir`, each
// run's of its own (removed once read): a run in the folder of a BackgroundProgram, or beside
// another run, never writes over their files.
inline ProgramOutcome run_program(const std::string& program, const std::vector<std::string>& args,
                                  const std::filesystem::path& dir,
                                  std::chrono::milliseconds bound = std::chrono::seconds(60)) {
  ProgramOutcome r;
  static std::atomic<unsigned> runs{0};
  const std::string tag = ".run-" + std::to_string(::getpid()) + "-" + std::to_string(++runs);
  const auto out = dir / (tag + ".stdout"), err = dir / (tag + ".stderr");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_s = {program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return r;
  r.spawned = true;

  const Reaped reaped = reap_within(pid, bound);
  r.timed_out = reaped.killed && WIFSIGNALED(reaped.status) && WTERMSIG(reaped.status) == SIGKILL;
  r.code = exit_code(reaped.status);
  r.out = slurp_file(out);
  r.err = slurp_file(err);
  std::error_code ignored;
  std::filesystem::remove(out, ignored);
  std::filesystem::remove(err, ignored);
  return r;
}

// A program left running while the test talks to it (a server): stdout is a pipe the test reads
// lines from, stderr a file. The destructor asks it to stop (SIGTERM), then kills it if it has not
// exited within `stop_bound`, and reaps it.
class BackgroundProgram {
 public:
  BackgroundProgram(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& dir)
      : err_path_(dir / "stderr") {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> argv_s = {program};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, program.c_str(), &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    out_fd_ = fds[0];
  }
  ~BackgroundProgram() {
    stop();
    if (out_fd_ >= 0) ::close(out_fd_);
  }
  BackgroundProgram(const BackgroundProgram&) = delete;
  BackgroundProgram& operator=(const BackgroundProgram&) = delete;

  bool started() const { return pid_ > 0; }
  int pid() const { return pid_; }
  // The next stdout line starting with `prefix` (earlier lines are kept in lines()), or "" if the
  // program closed stdout or `bound` passed first.
  std::string wait_for_line(std::string_view prefix, std::chrono::milliseconds bound = std::chrono::seconds(30)) {
    const auto deadline = std::chrono::steady_clock::now() + bound;
    for (;;) {
      for (auto nl = buffer_.find('\n'); nl != std::string::npos; nl = buffer_.find('\n')) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        lines_.push_back(line);
        if (line.starts_with(prefix)) return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || out_fd_ < 0) return {};
      pollfd p{out_fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const auto n = ::read(out_fd_, chunk, sizeof chunk);
      if (n <= 0) return {};
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  const std::vector<std::string>& lines() const { return lines_; }
  std::string err() const { return slurp_file(err_path_); }
  // SIGTERM, wait up to `stop_bound` (on the exit itself, via a watchdog), then SIGKILL. Returns
  // the exit status as run_program's `code`.
  int stop(std::chrono::milliseconds stop_bound = std::chrono::seconds(20)) {
    if (pid_ <= 0) return code_;
    ::kill(pid_, SIGTERM);
    code_ = exit_code(reap_within(pid_, stop_bound).status);
    pid_ = -1;
    return code_;
  }

 private:
  std::filesystem::path err_path_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int code_ = -1;
  std::string buffer_;
  std::vector<std::string> lines_;
};

}  // namespace mcp::test
