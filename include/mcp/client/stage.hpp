// mcp/client/stage.hpp — the client's middleware chain: ordered stages around every exchange.
//
// Each call goes application -> stage 1 -> ... -> stage n -> server, and its answer comes back the
// same way in reverse. The client's own policies are stages, innermost (nearest the server), so
// they judge what the server sent before any stage of yours sees it:
//
//   ...                 stages in ClientOptions::stages, in order
//   "manifest"          signed tool manifests (ClientOptions::manifest)
//   "signature"         capability signatures (ClientOptions::signature_policy), innermost
//
// A stage that refuses the session (on_initialize, on_connected, or a list in on_list) ends it:
// the client closes the connection and every later call fails with that stage's error.
//
// Hooks run on the calling thread, except on_notification (the reader thread: never block there).
// Stages may be shared by several clients, so they must be thread-safe.
#pragma once

#include <string_view>

#include "mcp/error.hpp"
#include "mcp/json.hpp"
#include "mcp/jsonrpc/message.hpp"
#include "mcp/protocol/list_kind.hpp"

namespace mcp {

// What a stage may do with the connection it belongs to.
class ClientStageHost {
 public:
  virtual ~ClientStageHost() = default;
  // Sends a request straight to the server, past every stage (a stage fetching what it checks).
  [[nodiscard]] virtual Result<json::value> send_direct(std::string_view method, json::object params) = 0;
};

class ClientStage {
 public:
  virtual ~ClientStage() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // The initialize result, before notifications/initialized (no request may be sent yet). An error
  // refuses the session.
  [[nodiscard]] virtual Result<void> on_initialize(const json::object& result) {
    (void)result;
    return {};
  }
  // Once notifications/initialized is sent. An error refuses the session.
  [[nodiscard]] virtual Result<void> on_connected(const json::object& initialize_result, ClientStageHost& host) {
    (void)initialize_result;
    (void)host;
    return {};
  }
  // Before a request is sent, outermost first: an error fails the call without sending it.
  [[nodiscard]] virtual Result<void> on_request(std::string_view method, json::object& params) {
    (void)method;
    (void)params;
    return {};
  }
  // Each answer, innermost first: may rewrite it; an error fails the call.
  [[nodiscard]] virtual Result<void> on_result(std::string_view method, json::value& result) {
    (void)method;
    (void)result;
    return {};
  }
  // Each list result, innermost first: one page, or every page joined (`complete`: the whole
  // list). An error ends the session.
  [[nodiscard]] virtual Result<void> on_list(ListKind kind, const json::value& result, bool complete, ClientStageHost& host) {
    (void)kind;
    (void)result;
    (void)complete;
    (void)host;
    return {};
  }
  // Each page of children of the listable resource `parent` (SEP-2093 resources/list with a uri),
  // innermost first. Not part of any list of `on_list`: children come and go. An error ends the
  // session.
  [[nodiscard]] virtual Result<void> on_children(const std::string& parent, const json::value& result) {
    (void)parent;
    (void)result;
    return {};
  }
  // Each notification from the server, in arrival order, on the reader thread.
  virtual void on_notification(const jsonrpc::Notification& notification) { (void)notification; }
};

}  // namespace mcp
