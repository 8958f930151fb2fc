// mcp/session/responder.hpp — the answer to one inbound request, given now or later, from any thread.
//
// Why a responder rather than a return value: a handler that waits on something slow (a nested
// sampling request, another server, a timer) should not hold a thread while it waits. It keeps the
// Responder and calls it when the answer is ready; the session then sends it (or drops it, if the
// peer cancelled meanwhile, as the specification asks).
//
// A Responder is a cheap, copyable handle to one request's answer slot. The first call answers;
// later calls are ignored. If every copy is destroyed without an answer, the peer is told so with
// -32603 instead of being left waiting forever.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <memory>

#include "mcp/error.hpp"
#include "mcp/json.hpp"
#include "mcp/jsonrpc/message.hpp"

namespace mcp {

class Responder {
 public:
  // The session's side of one request (session.cpp).
  struct Slot {
    virtual ~Slot() = default;
    // Sends `result` unless answered already; false then.
    virtual bool answer(Result<json::value> result) = 0;
    // The peer cancelled the request or the connection closed: an answer would be dropped.
    virtual bool abandoned() const = 0;
    virtual const jsonrpc::Id& id() const = 0;
  };

  Responder() = default;
  explicit Responder(std::shared_ptr<Slot> slot) : slot_(std::move(slot)) {}

  // Answers the request; false if it was answered already (or this Responder is empty).
  bool operator()(Result<json::value> result) const;
  // True once the peer no longer wants the answer (cancelled, or gone): stop working early.
  [[nodiscard]] bool abandoned() const { return !slot_ || slot_->abandoned(); }
  [[nodiscard]] const jsonrpc::Id& id() const;
  explicit operator bool() const { return slot_ != nullptr; }

 private:
  std::shared_ptr<Slot> slot_;
};

}  // namespace mcp
