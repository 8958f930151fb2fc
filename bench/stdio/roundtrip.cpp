// stdio tools/call round trip, our client to our server, beside a bare pipe ping-pong of the same
// bytes to an echo child, in the same run. Prints p50/p99 of each and their ratio.
//
//   bench_stdio_roundtrip [--iterations N] [--server PATH]      (default: 20000, build/bin/everything-server)
//   bench_stdio_roundtrip --echo                                 (the echo child; reads lines, writes them back)
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/stdio/child_process.hpp"

namespace {

using Clock = std::chrono::steady_clock;

int echo_main() {
  std::string line;
  char buf[65536];
  std::string pending;
  for (;;) {
    ssize_t n = read(0, buf, sizeof buf);
    if (n <= 0) return 0;
    pending.append(buf, static_cast<std::size_t>(n));
    std::size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      std::string_view out(pending.data(), nl + 1);
      if (write(1, out.data(), out.size()) < 0) return 1;
      pending.erase(0, nl + 1);
    }
  }
}

struct Stats { double p50, p99, mean; };

Stats stats(std::vector<double> us) {
  std::sort(us.begin(), us.end());
  double sum = 0;
  for (double v : us) sum += v;
  return {us[us.size() / 2], us[std::min(us.size() - 1, us.size() * 99 / 100)], sum / static_cast<double>(us.size())};
}

// Bare pipe ping-pong: write the request line, read the echoed line back.
std::vector<double> pipe_floor(const std::string& self, const std::string& line, int iterations) {
  int to[2], from[2];
  if (pipe(to) || pipe(from)) { perror("pipe"); std::exit(1); }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[1]);
    close(from[0]);
    execl(self.c_str(), self.c_str(), "--echo", nullptr);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(iterations));
  std::string framed = line + "\n";
  char buf[65536];
  // The reader spins up to 50 us before blocking, exactly as mcp::Session::request waits, so the
  // floor and the SDK pay the same for CPU wake-ups (on an idle machine a blocking read costs
  // tens of microseconds of wake-up latency that the spin avoids).
  fcntl(from[0], F_SETFL, fcntl(from[0], F_GETFL) | O_NONBLOCK);
  for (int i = 0; i < iterations; ++i) {
    auto t0 = Clock::now();
    if (write(to[1], framed.data(), framed.size()) < 0) break;
    std::size_t got = 0;
    while (got < framed.size()) {
      ssize_t n = read(from[0], buf, sizeof buf);
      if (n < 0 && errno == EAGAIN) {
        if (Clock::now() - t0 > std::chrono::microseconds(50)) {
          pollfd pfd{from[0], POLLIN, 0};
          poll(&pfd, 1, -1);
        }
        continue;
      }
      if (n <= 0) { std::cerr << "echo child died\n"; std::exit(1); }
      got += static_cast<std::size_t>(n);
    }
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  close(to[1]);
  close(from[0]);
  waitpid(pid, nullptr, 0);
  return us;
}

std::vector<double> sdk_roundtrip(const std::string& server, int iterations) {
  auto t = mcp::ChildProcessTransport::spawn({.program = server});
  if (!t) { std::cerr << t.error().message << "\n"; std::exit(1); }
  mcp::Client client;
  if (auto init = client.connect(*t); !init) { std::cerr << init.error().message << "\n"; std::exit(1); }
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(iterations));
  for (int i = 0; i < iterations; ++i) {
    auto t0 = Clock::now();
    auto r = client.call_tool("test_simple_text");
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (!r) { std::cerr << r.error().message << "\n"; std::exit(1); }
  }
  client.close();
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  int iterations = 20000;
  std::string self = argv[0];
  std::string server = self.substr(0, self.rfind('/') + 1) + "everything-server";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--echo") return echo_main();
    if (a == "--iterations" && i + 1 < argc) iterations = std::stoi(argv[++i]);
    else if (a == "--server" && i + 1 < argc) server = argv[++i];
    else { std::cerr << "usage: bench_stdio_roundtrip [--iterations N] [--server PATH]\n"; return 2; }
  }
  mcp::json::object params{{"name", "test_simple_text"}, {"arguments", mcp::json::object{}}};
  std::string line = mcp::jsonrpc::encode_request(mcp::json::value(1), "tools/call", &params);
  // Warm both paths, then measure them alternately so drift on a shared machine hits both alike.
  (void)pipe_floor(self, line, 1000);
  (void)sdk_roundtrip(server, 1000);
  std::vector<double> floor_us, sdk_us;
  for (int round = 0; round < 4; ++round) {
    auto f = pipe_floor(self, line, iterations / 4);
    auto s = sdk_roundtrip(server, iterations / 4);
    floor_us.insert(floor_us.end(), f.begin(), f.end());
    sdk_us.insert(sdk_us.end(), s.begin(), s.end());
  }
  auto f = stats(floor_us), s = stats(sdk_us);
  std::printf("iterations per path: %zu\n", floor_us.size());
  std::printf("pipe ping-pong  p50 %7.1f us  p99 %7.1f us  mean %7.1f us\n", f.p50, f.p99, f.mean);
  std::printf("sdk tools/call  p50 %7.1f us  p99 %7.1f us  mean %7.1f us\n", s.p50, s.p99, s.mean);
  std::printf("ratio sdk/pipe  p50 %7.2fx      p99 %7.2fx\n", s.p50 / f.p50, s.p99 / f.p99);
  return 0;
}
