// Runs `body` in a forked child that acknowledges numbers on a pipe (`ack(n)`, after what n stands
// for is durable), and kills it with SIGKILL once it has acknowledged `until`: what the gateway's
// kill -9 promise is tested with. Returns the last number acknowledged, or an error if the child
// stopped on its own (its exit status says where: the body's _exit codes).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>

#include "mcp/error.hpp"

namespace mcp::test {

inline Result<std::int64_t> kill_nine_after(std::int64_t until, const std::function<void(const std::function<void(std::int64_t)>& ack)>& body) {
  int acks[2];
  if (::pipe(acks) != 0) return fail(Error::internal("pipe"));
  const pid_t child = ::fork();
  if (child < 0) return fail(Error::internal("fork"));
  if (child == 0) {
    ::close(acks[0]);
    body([fd = acks[1]](std::int64_t n) {
      if (::write(fd, &n, sizeof n) != static_cast<ssize_t>(sizeof n)) ::_exit(5);
    });
    ::_exit(0);
  }
  ::close(acks[1]);
  std::int64_t last = 0, n = 0;
  while (last < until && ::read(acks[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n)) last = n;
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(acks[0]);
  if (!WIFSIGNALED(status)) return fail(Error::internal("the child stopped on its own: exit " + std::to_string(WEXITSTATUS(status))));
  return last;
}

}  // namespace mcp::test
