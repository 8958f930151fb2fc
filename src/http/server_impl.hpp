// Private: the state of an HttpServer, shared by the accept loop and its connections.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "http/host_check.hpp"
#include "http/session_transport.hpp"
#include "mcp/http/server.hpp"

namespace mcp::http {

namespace net = boost::asio;

struct HttpSessionEntry {
  std::shared_ptr<SessionTransport> transport;
  std::shared_ptr<ServerSession> session;
};

struct ServerState {
  ServerState(std::shared_ptr<Server> s, HttpServerOptions o) : server(std::move(s)), opts(std::move(o)) {}

  std::shared_ptr<Server> server;
  HttpServerOptions opts;
  HostPolicy host_policy;
  net::io_context ioc;
  std::optional<net::ssl::context> tls;
  std::atomic<bool> stopping{false};
  std::atomic<int> active_requests{0};

  std::mutex mu;
  std::map<std::string, HttpSessionEntry> sessions;
  std::size_t creating = 0;  // sessions between the max_sessions check and their insertion

  // New session for an initialize request; error if at max_sessions.
  Result<HttpSessionEntry> create_session();
  std::optional<HttpSessionEntry> find_session(const std::string& id);
  // Ends a session (DELETE, idle timeout, shutdown). Returns false if unknown.
  bool end_session(const std::string& id);
};

// Serves one accepted connection until it closes (connection.cpp).
void spawn_connection(ServerState& state, net::ip::tcp::socket socket);

}  // namespace mcp::http
