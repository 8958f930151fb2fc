// support/process.hpp — run a program as a user would and collect its exit status and output, for
// the tests of our command-line programs. The test waits for the program's exit itself (blocking
// waitid, no polling); a watchdog thread kills it only if it is still running after a generous
// bound, so that a hang fails the test instead of blocking CI.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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

// Runs `program` with `args`, stdin from /dev/null, stdout and stderr into files in `dir`.
inline ProgramOutcome run_program(const std::string& program, const std::vector<std::string>& args,
                                  const std::filesystem::path& dir,
                                  std::chrono::milliseconds bound = std::chrono::seconds(60)) {
  ProgramOutcome r;
  const auto out = dir / "stdout", err = dir / "stderr";
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

  // The watchdog kills the child only while it is certainly not reaped (we reap after joining it),
  // so it can never signal a recycled pid.
  Event exited;
  bool killed = false;
  std::thread watchdog([&] {
    if (!exited.wait(bound)) {
      killed = true;
      ::kill(pid, SIGKILL);
    }
  });
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  exited.set();
  watchdog.join();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.timed_out = killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  r.out = slurp_file(out);
  r.err = slurp_file(err);
  return r;
}

}  // namespace mcp::test
