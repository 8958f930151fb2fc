// Private: which callbacks the calling thread is inside of.
//
// An object whose teardown waits until none of its callbacks runs (a session waits for its close
// to be delivered, a Client for its asynchronous answers) would wait forever if its last reference
// went inside one of those callbacks: the callback it waits for is the caller. That happens in
// ordinary code, e.g. a gateway's upstream Client released by a call's answer arriving on the
// Client's own reader thread. Callbacks mark the thread while they run; such an owner asks here
// first and, when it would wait on itself, hands its teardown to the pool (ServerSessionImpl's
// deleter, ~Client).
#pragma once

namespace mcp::detail {

// Marks the calling thread as inside a callback of `owner` for its lifetime. Marks nest (a
// callback of one session may run another's on the same thread): each is a link on the stack,
// nothing is allocated.
class Inside {
 public:
  explicit Inside(const void* owner) noexcept : owner_(owner), outer_(top_) { top_ = this; }
  ~Inside() { top_ = outer_; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

  // True on a thread inside a callback of `owner`.
  static bool here(const void* owner) noexcept {
    for (const Inside* mark = top_; mark != nullptr; mark = mark->outer_) {
      if (mark->owner_ == owner) return true;
    }
    return false;
  }

 private:
  const void* owner_;
  Inside* outer_;
  static constinit inline thread_local Inside* top_ = nullptr;
};

}  // namespace mcp::detail
