// Memory per idle Streamable HTTP session: RSS of this process before and after opening N sessions
// (initialize + notifications/initialized over loopback, each on a connection closed afterwards,
// so only what a session keeps is counted), at several N, against the goal of 16 KB per session.
//   bench_session_memory [N ...]     (default: 1 1000 10000)
//   bench_session_memory --stateless N: instead, N keep-alive connections each sending one stateless
//   (2026-07-28) tools/list and staying open: what each idle connection then keeps (its socket,
//   coroutine and buffers, and the server session its stateless requests share).
// The server is in-process so that its resident memory is what is measured; the client side of
// each exchange allocates and frees as it goes (its steady state is in the "before" figure after
// a warm-up session).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "mcp/http/server.hpp"

namespace {

long rss_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// A TCP connection to 127.0.0.1:port; -1 if it cannot be made.
int connect_loopback(unsigned short port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One request on a fresh connection; returns the response (head and body) or "".
std::string exchange(unsigned short port, const std::string& headers, const std::string& body) {
  const int fd = connect_loopback(port);
  if (fd < 0) return {};
  std::string req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                    "Accept: application/json, text/event-stream\r\n" + headers +
                    "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  (void)::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

bool open_session(unsigned short port) {
  const std::string init =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"m","version":"1"}}})";
  auto r = exchange(port, "", init);
  auto at = r.find("Mcp-Session-Id: ");
  if (at == std::string::npos) return false;
  auto sid = r.substr(at + 16, r.find("\r\n", at) - at - 16);
  auto n = exchange(port, "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: 2025-11-25\r\n",
                    R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  return n.rfind("HTTP/1.1 202", 0) == 0;
}

// A connection that sent one stateless tools/list and got its answer, left open; -1 on failure.
int stateless_connection(unsigned short port) {
  const int fd = connect_loopback(port);
  if (fd < 0) return -1;
  const std::string body =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"m","version":"1"}}}})";
  std::string req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    "Mcp-Method: tools/list\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  (void)::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  // The answer is small: read until its head and a JSON body's end have arrived.
  while (out.find("\r\n\r\n") == std::string::npos || out.back() != '}') {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  if (out.rfind("HTTP/1.1 200", 0) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int stateless_connections(mcp::http::HttpServer& http, std::size_t n) {
  std::vector<int> fds;
  if (int fd = stateless_connection(http.port()); fd >= 0) fds.push_back(fd);  // warm-up
  const long before = rss_kib();
  for (std::size_t i = 0; i < n; ++i) {
    const int fd = stateless_connection(http.port());
    if (fd < 0) {
      std::cerr << "connection " << i << " failed\n";
      return 1;
    }
    fds.push_back(fd);
  }
  const long after = rss_kib();
  std::cout << "| " << n << " idle connections (" << http.stateless_session_count() << " stateless sessions) | " << before
            << " | " << after << " | " << (after - before) * 1024 / static_cast<long>(n) << " |\n";
  for (int fd : fds) ::close(fd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> counts;
  std::size_t stateless = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--stateless" && i + 1 < argc) stateless = std::stoul(argv[++i]);
    else counts.push_back(std::stoul(argv[i]));
  }
  if (counts.empty()) counts = {1, 1000, 10000};
  mcp::ServerOptions so;
  so.info.name = "memory";
  auto server = std::make_shared<mcp::Server>(so);
  mcp::http::HttpServerOptions ho;
  ho.max_sessions = 1'000'000;
  ho.initialize_timeout = std::chrono::hours(1);
  mcp::http::HttpServer http(server, ho);
  if (auto r = http.start(); !r) {
    std::cerr << r.error().message << "\n";
    return 1;
  }
  if (stateless > 0) {
    std::cout << "| connections | RSS before (KiB) | RSS after (KiB) | per connection (bytes) |\n|---|---|---|---|\n";
    const int rc = stateless_connections(http, stateless);
    http.stop();
    return rc;
  }
  if (!open_session(http.port())) {  // warm-up: the first session pays for one-time allocations
    std::cerr << "cannot open a session\n";
    return 1;
  }
  std::cout << "| sessions | RSS before (KiB) | RSS after (KiB) | per session (bytes) |\n|---|---|---|---|\n";
  std::size_t opened = 1;
  for (std::size_t n : counts) {
    const long before = rss_kib();
    const std::size_t start = opened;
    while (opened < start + n) {
      if (!open_session(http.port())) {
        std::cerr << "session " << opened << " failed\n";
        return 1;
      }
      ++opened;
    }
    const long after = rss_kib();
    std::cout << "| " << n << " (" << http.session_count() << " open) | " << before << " | " << after << " | "
              << (after - before) * 1024 / static_cast<long>(n) << " |\n";
  }
  http.stop();
  return 0;
}
