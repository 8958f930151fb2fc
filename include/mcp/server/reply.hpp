// mcp/server/reply.hpp — how an asynchronous handler answers: later, from any thread, exactly once.
//
// A Reply is a cheap copyable handle. The first call answers (it then runs the chain's on_result
// stages and sends); later calls return false and do nothing. If every copy, and the handler's
// RequestContext, are dropped without an answer, the client gets -32603 rather than silence.
//
// The server makes the Reply each asynchronous tool, reader, prompt handler and completer gets; a
// test may make one around its own `send` to call such a handler directly.
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "mcp/error.hpp"

namespace mcp {

template <class T>
class Reply {
 public:
  // Typed, not JSON: the server adjusts some answers before sending them (a completion is capped
  // at 100 values), whichever way the handler answered.
  using Send = std::function<bool(Result<T>)>;
  explicit Reply(Send send) : send_(std::make_shared<const Send>(std::move(send))) {}

  // Answers with a result, or with a protocol error (a JSON-RPC error to the client).
  bool operator()(Result<T> answer) const { return (*send_)(std::move(answer)); }

 private:
  std::shared_ptr<const Send> send_;
};

}  // namespace mcp
