// mcp/server/stage.hpp — the server's middleware chain: ordered stages every request passes through.
//
// Each request after initialize goes peer -> stage 1 -> ... -> stage n -> the method's handler, and
// its answer comes back the same way in reverse. A stage may refuse or answer a request before it
// reaches the handler, hide or rewrite each item a list (or a signed manifest) shows, and rewrite the
// answer. The server's own policies are stages (docs/design.md, "The chain"):
//
//   ...            stages added with Server::use(stage, StagePlace::outermost), in the order added:
//                  they see every request that reaches the chain and every answer as it leaves,
//                  the built-in refusals included (an audit of refused calls, say), and the answer
//                  of a request refused before the chain (malformed params, a retry whose request
//                  state does not hold), whose on_request they never saw
//   "log"          one debug line per request and its outcome
//   "signature"    the self-check: refuses items outside the session's capability signature and
//                  drops list items that break it (it sees items last, after every rewrite)
//   ...            stages added with Server::use(), in the order added
//   "availability" innermost: the AvailabilityHooks (per-request visibility, annotation variants)
//
// A stage runs on the thread serving the request (a worker, or the reader thread for requests that
// never block): keep it quick and never wait on the peer. Stages are shared by every session and
// request, so they must be thread-safe.
//
// Example, a stage that denies one tool by name (hidden from lists and manifests, refused as
// unknown when called; exactly how the server treats a tool that does not exist):
//
//   server->use(mcp::make_stage("deny-rm", {
//       .on_request = [](mcp::Call& call) -> std::optional<mcp::Result<mcp::json::value>> {
//         if (call.target && call.target->kind == mcp::ListKind::tools && call.target->key == "rm")
//           return mcp::fail(mcp::Error::invalid_params("Unknown tool: rm"));
//         return std::nullopt;
//       },
//       .on_list_item = [](const mcp::Call&, mcp::ListedItem& item) {
//         return !(item.kind == mcp::ListKind::tools && item.key == "rm");
//       }}));
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"
#include "mcp/json.hpp"
#include "mcp/protocol/list_kind.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/server/context.hpp"

namespace mcp {

// The registered item a request uses (tools/call, prompts/get, resources/read), found before the
// chain runs; absent when nothing registered matches. For a templated resource, `key` is the
// template and `uri` the URI read.
struct Target {
  ListKind kind = ListKind::tools;
  std::string key{};
  std::string uri{};
  const Tool* tool = nullptr;  // tools only
};

// One request as the chain sees it.
struct Call {
  std::string_view method;
  json::object& params;  // a stage may rewrite them before the handler sees them
  RequestContext& context;
  const Target* target = nullptr;
  // When the server took the request in (a stage measuring how long it took).
  std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now();
  // Set once a handler the application registered for the request's item (a tool's, a prompt's,
  // a resource's or template's, the completer) started. False in on_result: the server answered
  // it itself: a stage refused it, nothing of that name exists, its params were wrong.
  bool handled = false;
};

// One item a list or a signed manifest is about to show this request, as JSON (a stage may rewrite it).
struct ListedItem {
  ListKind kind = ListKind::tools;
  const std::string& key;  // name, uri or uriTemplate
  json::object& item;
  const Tool* tool = nullptr;  // the registered tool, for tools
};

// Where Server::use puts a stage.
enum class StagePlace {
  inside,     // inside the stages added before it and the signature self-check, outside availability
  outermost,  // outside log and the signature self-check, inside the outermost stages added before
};

class Stage {
 public:
  virtual ~Stage() = default;
  // Shown in logs.
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Before the handler, in chain order: std::nullopt passes the request on; a value answers it
  // here (an error refuses it), and the stages before this one still see that answer.
  virtual std::optional<Result<json::value>> on_request(Call& call) {
    (void)call;
    return std::nullopt;
  }
  // Each item about to be listed, innermost stage first (before paging): false hides it.
  virtual bool on_list_item(const Call& call, ListedItem& item) {
    (void)call;
    (void)item;
    return true;
  }
  // After the handler, innermost stage first: may rewrite or replace the answer. For an
  // asynchronous handler this runs on the thread that answered.
  virtual void on_result(const Call& call, Result<json::value>& answer) {
    (void)call;
    (void)answer;
  }
};

// A stage from functions; an unset one passes everything through.
struct StageFunctions {
  std::function<std::optional<Result<json::value>>(Call&)> on_request{};
  std::function<bool(const Call&, ListedItem&)> on_list_item{};
  std::function<void(const Call&, Result<json::value>&)> on_result{};
};
[[nodiscard]] std::shared_ptr<Stage> make_stage(std::string name, StageFunctions functions);

}  // namespace mcp
