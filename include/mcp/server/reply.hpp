// mcp/server/reply.hpp — how an asynchronous handler answers: later, from any thread, exactly once.
//
// A Reply is a cheap copyable handle. The first call answers (it then runs the chain's on_result
// stages and sends); later calls return false and do nothing. If every copy, and the handler's
// RequestContext, are dropped without an answer, the client gets -32603 rather than silence.
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "mcp/error.hpp"
#include "mcp/json.hpp"

namespace mcp {

template <class T>
class Reply {
 public:
  using Send = std::function<bool(Result<json::value>)>;
  explicit Reply(Send send) : send_(std::make_shared<Send>(std::move(send))) {}

  // Answers with a result, or with a protocol error (a JSON-RPC error to the client).
  bool operator()(Result<T> answer) const {
    if (!answer) return (*send_)(fail(std::move(answer.error())));
    return (*send_)(to_json(*answer));
  }

 private:
  std::shared_ptr<Send> send_;
};

}  // namespace mcp
