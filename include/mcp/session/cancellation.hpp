// mcp/session/cancellation.hpp — a cancellation flag shared between who cancels and who works.
//
// A handler polls `cancelled()` or registers a callback; the session cancels the token when the peer
// sends notifications/cancelled for the request, when the session closes, or on timeout.
//
// Thread-safety: all members are thread-safe. Callbacks run on the cancelling thread, exactly once,
// immediately if the token is already cancelled when they are added.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp {

class CancellationToken {
 public:
  CancellationToken() : state_(std::make_shared<State>()) {}

  // Whether `other` is this token (a copy shares its state).
  bool same_as(const CancellationToken& other) const { return state_ == other.state_; }

  bool cancelled() const {
    std::lock_guard lock(state_->mu);
    return state_->cancelled;
  }
  std::string reason() const {
    std::lock_guard lock(state_->mu);
    return state_->reason;
  }
  void cancel(std::string reason = "cancelled") const {
    std::vector<std::function<void()>> run;
    {
      std::lock_guard lock(state_->mu);
      if (state_->cancelled) return;
      state_->cancelled = true;
      state_->reason = std::move(reason);
      run.swap(state_->callbacks);
    }
    for (auto& f : run) f();
  }
  void on_cancel(std::function<void()> f) const {
    {
      std::lock_guard lock(state_->mu);
      if (!state_->cancelled) {
        state_->callbacks.push_back(std::move(f));
        return;
      }
    }
    f();
  }
  // The same, handing the callback the reason. Prefer it to capturing the token in its own
  // callback, which would make a reference cycle that keeps the token's state alive forever.
  void on_cancel_with_reason(std::function<void(const std::string& reason)> f) const {
    std::weak_ptr<State> weak = state_;
    on_cancel([weak, f = std::move(f)] {
      auto s = weak.lock();
      f(s ? s->reason : std::string("cancelled"));
    });
  }

 private:
  struct State {
    mutable std::mutex mu;
    bool cancelled = false;
    std::string reason{};
    std::vector<std::function<void()>> callbacks;
  };
  std::shared_ptr<State> state_;
};

}  // namespace mcp
