// Helpers for the HTTP tests: a blocking plain-socket HTTP/1.1 client with a deadline on every
// read (so no test can hang), an SSE reader on top of it, and a loopback HttpServer fixture with a
// small mcp::Server whose tools exercise streaming (progress, logs, polling, sampling, slow work).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "http/sse.hpp"
#include "mcp/http/server.hpp"
#include "mcp/server/server.hpp"

namespace mcp::http::test {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// ---- raw HTTP over a plain socket ---------------------------------------------------------------

struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;                            // de-chunked
  bool chunked = false;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class RawConn {
 public:
  explicit RawConn(unsigned short port, const char* addr = "127.0.0.1") {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(port);
    ::inet_pton(AF_INET, addr, &sa.sin_addr);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RawConn() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }

  bool send_all(std::string_view data) {
    while (!data.empty()) {
      auto n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // Reads the status line and headers; nullopt on timeout or close.
  std::optional<RawResponse> read_head(std::chrono::milliseconds timeout = 5s) {
    auto deadline = Clock::now() + timeout;
    std::size_t end;
    while ((end = buf_.find("\r\n\r\n")) == std::string::npos) {
      if (!fill(deadline)) return std::nullopt;
    }
    RawResponse r;
    std::string head = buf_.substr(0, end);
    buf_.erase(0, end + 4);
    auto line_end = head.find("\r\n");
    std::string status_line = head.substr(0, line_end);
    if (status_line.size() < 12) return std::nullopt;
    r.status = std::stoi(status_line.substr(9, 3));
    std::size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
    while (pos < head.size()) {
      auto e = head.find("\r\n", pos);
      if (e == std::string::npos) e = head.size();
      std::string l = head.substr(pos, e - pos);
      auto c = l.find(':');
      if (c != std::string::npos) {
        std::string name = l.substr(0, c);
        for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        std::string v = l.substr(c + 1);
        while (!v.empty() && v.front() == ' ') v.erase(0, 1);
        r.headers[name] = v;
      }
      pos = e + 2;
    }
    r.chunked = r.header("transfer-encoding").find("chunked") != std::string::npos;
    return r;
  }

  // The next piece of body: for chunked bodies one chunk ("" after the last chunk, nullopt on
  // timeout or close); for Content-Length bodies the whole body.
  std::optional<std::string> next_chunk(const RawResponse& head, std::chrono::milliseconds timeout = 5s) {
    auto deadline = Clock::now() + timeout;
    if (!head.chunked) {
      auto cl = head.header("content-length");
      std::size_t n = cl.empty() ? 0 : std::stoul(cl);
      while (buf_.size() < n) {
        if (!fill(deadline)) return std::nullopt;
      }
      std::string out = buf_.substr(0, n);
      buf_.erase(0, n);
      return out;
    }
    std::size_t e;
    while ((e = buf_.find("\r\n")) == std::string::npos) {
      if (!fill(deadline)) return std::nullopt;
    }
    std::size_t size = std::stoul(buf_.substr(0, e), nullptr, 16);
    while (buf_.size() < e + 2 + size + 2) {
      if (!fill(deadline)) return std::nullopt;
    }
    std::string out = buf_.substr(e + 2, size);
    buf_.erase(0, e + 2 + size + 2);
    return out;
  }

  // Reads the whole body (chunked until the last chunk).
  bool read_body(RawResponse& r, std::chrono::milliseconds timeout = 5s) {
    auto deadline = Clock::now() + timeout;
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left <= 0ms) return false;
      auto c = next_chunk(r, left);
      if (!c) return false;
      r.body += *c;
      if (!r.chunked || c->empty()) return true;
    }
  }

  // SSE events from a chunked text/event-stream response until `pred` says stop (true), the body
  // ends (`ended` set) or the timeout passes.
  std::vector<SseEvent> read_events(const RawResponse& head, const std::function<bool(const SseEvent&)>& stop,
                                    std::chrono::milliseconds timeout = 5s, bool* ended = nullptr) {
    std::vector<SseEvent> out;
    auto deadline = Clock::now() + timeout;
    bool done = false;
    if (ended) *ended = false;
    while (!done) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left <= 0ms) break;
      auto c = next_chunk(head, left);
      if (!c) break;
      if (c->empty()) {
        if (ended) *ended = true;
        break;
      }
      sse_.feed(*c, [&](SseEvent e) {
        if (done) return;
        out.push_back(e);
        if (stop && stop(out.back())) done = true;
      });
    }
    return out;
  }

  // True if the peer closed the connection (or reset it) within the timeout.
  bool closed_by_peer(std::chrono::milliseconds timeout = 3s) {
    auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      if (!fill(deadline)) return eof_;
    }
    return false;
  }

 private:
  bool fill(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0 || fd_ < 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    char tmp[16384];
    auto n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    buf_.append(tmp, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  std::string buf_;
  bool eof_ = false;
  SseParser sse_;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

inline std::string make_request(std::string_view method, std::string_view target, unsigned short port,
                                const Headers& headers, std::string_view body, bool default_host = true) {
  std::string out = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\n";
  if (default_host) out += "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  for (const auto& [k, v] : headers) out += k + ": " + v + "\r\n";
  if (!body.empty() || method == "POST") out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  out += "\r\n";
  out += body;
  return out;
}

// Headers of a well-behaved MCP POST.
inline Headers mcp_post_headers(const std::string& session = {}, const std::string& version = "2025-11-25") {
  Headers h{{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  if (!session.empty()) h.emplace_back("Mcp-Session-Id", session);
  if (!version.empty()) h.emplace_back("MCP-Protocol-Version", version);
  return h;
}

// One request on a fresh connection, whole response read (SSE bodies until they end).
inline RawResponse raw_exchange(unsigned short port, std::string_view method, const Headers& headers,
                                std::string_view body = {}, std::string_view target = "/mcp",
                                std::chrono::milliseconds timeout = 5s, bool default_host = true) {
  RawConn c(port);
  RawResponse r;
  if (!c.ok() || !c.send_all(make_request(method, target, port, headers, body, default_host))) return r;
  auto head = c.read_head(timeout);
  if (!head) return r;
  r = *head;
  c.read_body(r, timeout);
  return r;
}

// The JSON-RPC messages (non-empty data) of an SSE body.
inline std::vector<boost::json::value> sse_messages(std::string_view body, std::vector<SseEvent>* all = nullptr) {
  std::vector<boost::json::value> out;
  SseParser p;
  p.feed(body, [&](SseEvent e) {
    if (all) all->push_back(e);
    if (e.event == "__meta" || e.data.empty()) return;
    boost::system::error_code ec;
    auto v = boost::json::parse(e.data, ec);
    if (!ec) out.push_back(v);
  });
  return out;
}

inline boost::json::value parse_json(std::string_view s) {
  boost::system::error_code ec;
  auto v = boost::json::parse(s, ec);
  return ec ? boost::json::value() : v;
}

inline std::string rpc(int id, std::string_view method, std::string_view params = "{}") {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) +
         R"(","params":)" + std::string(params) + "}";
}

inline const char* kInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}})";
inline const char* kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

// Waits (polling) until `pred` holds or the timeout passes; returns pred().
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout = 5s) {
  auto deadline = Clock::now() + timeout;
  while (!pred()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// A TCP socket listening on 127.0.0.1 at a free port: its fd and the port (-1 and 0 on failure).
inline std::pair<int, unsigned short> loopback_listener() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(fd, 16) != 0) {
    if (fd >= 0) ::close(fd);
    return {-1, 0};
  }
  socklen_t len = sizeof sa;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  return {fd, ntohs(sa.sin_port)};
}

// A TCP listener that accepts connections and never reads from them nor answers: a server that
// hangs after the connection is established (what a client sends waits in the kernel's buffers).
struct SilentServer {
  int fd = -1;
  unsigned short port = 0;
  std::vector<int> accepted;            // the acceptor's own until it is joined
  std::atomic<int> accepted_count{0};   // for a test to wait on meanwhile
  std::thread acceptor;
  std::atomic<bool> stop{false};
  SilentServer() {
    std::tie(fd, port) = loopback_listener();  // fd -1 (and port 0) if none: the test's connect fails
    acceptor = std::thread([this] {
      while (!stop) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) > 0) {
          int c = ::accept(fd, nullptr, nullptr);
          if (c >= 0) {
            accepted.push_back(c);
            ++accepted_count;
          }
        }
      }
    });
  }
  ~SilentServer() {
    stop = true;
    acceptor.join();
    for (int c : accepted) ::close(c);
    ::close(fd);
  }
};

// A loopback HTTP/1.1 server whose every answer a test scripts: it accepts on a thread of its own
// and serves each connection on another, kept alive, calling `respond` once per request with the
// request's head and body and a `send` that writes to the connection. Every read is polled, so
// destroying it never waits on a peer.
struct ScriptedRequest {
  std::string head;  // request line and headers, without the blank line
  std::string body;
};
class ScriptedHttpServer {
 public:
  using Send = std::function<void(std::string_view)>;
  using Respond = std::function<void(const ScriptedRequest&, const Send&)>;

  explicit ScriptedHttpServer(Respond respond) : respond_(std::move(respond)) {
    std::tie(fd_, port) = loopback_listener();
    acceptor_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0) continue;
        ++connections;
        std::lock_guard l(mu_);
        conns_.emplace_back([this, c] {
          serve(c);
          ::close(c);
        });
      }
    });
  }
  ~ScriptedHttpServer() {
    stop_ = true;
    acceptor_.join();
    std::lock_guard l(mu_);
    for (auto& t : conns_) t.join();
    ::close(fd_);
  }
  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  unsigned short port = 0;
  std::atomic<int> connections{0};

 private:
  // Reads until `n` bytes are buffered; false once the peer is gone or the server stops.
  bool fill(int c, std::string& buf, std::size_t n) {
    char tmp[4096];
    while (buf.size() < n && !stop_) {
      pollfd p{c, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      auto got = ::recv(c, tmp, sizeof tmp, 0);
      if (got <= 0) return false;
      buf.append(tmp, static_cast<std::size_t>(got));
    }
    return buf.size() >= n;
  }
  void serve(int c) {
    const Send send = [c](std::string_view s) {
      while (!s.empty()) {
        auto n = ::send(c, s.data(), s.size(), MSG_NOSIGNAL);
        if (n <= 0) return;
        s.remove_prefix(static_cast<std::size_t>(n));
      }
    };
    std::string buf;
    for (;;) {
      std::size_t end;
      while ((end = buf.find("\r\n\r\n")) == std::string::npos)
        if (!fill(c, buf, buf.size() + 1)) return;
      ScriptedRequest r{buf.substr(0, end), {}};
      std::size_t length = 0;
      if (auto at = r.head.find("Content-Length: "); at != std::string::npos) length = std::stoul(r.head.substr(at + 16));
      if (!fill(c, buf, end + 4 + length)) return;
      r.body = buf.substr(end + 4, length);
      buf.erase(0, end + 4 + length);
      respond_(r, send);
    }
  }

  Respond respond_;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> conns_;
};

// ---- server fixture -----------------------------------------------------------------------------

// Gates for the tools that wait: `release()` lets every waiting "block" call finish.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  std::atomic<int> entered{0};
  std::atomic<int> saw_cancel{0};  // "stuck" ended because its request was cancelled
  void release() {
    std::lock_guard l(mu);
    open = true;
    cv.notify_all();
  }
  bool wait(std::chrono::milliseconds timeout) {
    std::unique_lock l(mu);
    return cv.wait_for(l, timeout, [&] { return open; });
  }
};

inline CallToolResult text_result(std::string s) {
  CallToolResult r;
  r.content.push_back(TextContent{.text = std::move(s)});
  return r;
}

inline Tool named_tool(std::string name) {
  Tool t;
  t.name = std::move(name);
  t.description = "test tool";
  return t;
}

// Tools: echo {text}, slow {ms}, progress, poll (close_stream, then answers after 600 ms), block
// (waits for the gate, 10 s at most), stuck (waits for cancellation, 10 s at most), sample
// (sampling/createMessage round trip).
inline std::shared_ptr<Server> make_test_server(std::shared_ptr<Gate> gate) {
  auto s = std::make_shared<Server>();
  s->add_tool(named_tool("echo"), [](const json::object& a, RequestContext&) -> Result<CallToolResult> {
    auto it = a.find("text");
    return text_result(it != a.end() && it->value().is_string() ? std::string(it->value().get_string()) : "");
  });
  s->add_tool(named_tool("slow"), [gate](const json::object& a, RequestContext&) -> Result<CallToolResult> {
    ++gate->entered;
    auto it = a.find("ms");
    std::this_thread::sleep_for(std::chrono::milliseconds(it != a.end() && it->value().is_int64() ? it->value().as_int64() : 500));
    return text_result("slow done");
  });
  s->add_tool(named_tool("progress"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    ctx.progress(1, 3, "one");
    ctx.log("info", "working");
    ctx.progress(2, 3, "two");
    return text_result("progress done");
  });
  s->add_tool(named_tool("poll"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    ctx.close_stream();
    std::this_thread::sleep_for(600ms);
    return text_result("polled");
  });
  s->add_tool(named_tool("block"), [gate](const json::object&, RequestContext&) -> Result<CallToolResult> {
    ++gate->entered;
    gate->wait(10s);
    return text_result("unblocked");
  });
  s->add_tool(named_tool("stuck"), [gate](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    ++gate->entered;
    auto deadline = Clock::now() + 10s;
    while (!ctx.cancelled() && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
    if (ctx.cancelled()) ++gate->saw_cancel;
    return text_result("stuck ended");
  });
  s->add_tool(named_tool("sample"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    json::object p{{"messages", json::array{json::object{{"role", "user"},
                                                          {"content", json::object{{"type", "text"}, {"text", "hi"}}}}}},
                   {"maxTokens", 10}};
    auto r = ctx.create_message(std::move(p));
    if (!r) return text_result("sampling failed: " + r.error().message);
    auto* o = r->if_object();
    if (!o || !o->contains("content")) return text_result("sampling: no content");
    return text_result("sampled: " + std::string(o->at("content").at("text").as_string()));
  });
  return s;
}

struct TestServer {
  std::shared_ptr<Gate> gate = std::make_shared<Gate>();
  std::shared_ptr<Server> server;
  std::unique_ptr<HttpServer> http;
  unsigned short port = 0;
  bool started = false;

  explicit TestServer(HttpServerOptions o = {}) : server(make_test_server(gate)) {
    o.port = 0;
    if (o.sse_retry == std::chrono::milliseconds(1000)) o.sse_retry = 100ms;
    http = std::make_unique<HttpServer>(server, std::move(o));
    auto r = http->start();
    started = r.has_value();
    if (started) port = http->port();
  }
  ~TestServer() {
    gate->release();
    http->stop();
  }
  std::string url(std::string_view path = "/mcp") const {
    return "http://127.0.0.1:" + std::to_string(port) + std::string(path);
  }

  // initialize + notifications/initialized over raw HTTP; the session id ("" on failure).
  std::string open_session() {
    auto r = raw_exchange(port, "POST", mcp_post_headers(), kInitialize);
    auto sid = r.header("mcp-session-id");
    if (r.status != 200 || sid.empty()) return {};
    auto n = raw_exchange(port, "POST", mcp_post_headers(sid), kInitialized);
    return n.status == 202 ? sid : std::string();
  }
};

}  // namespace mcp::http::test
