// Private to the gateway: calls that wait for a person (the "ask" policy, issue 13). A call to an
// item the policy marks "ask" is parked here (recorded in the AskStore, so `mcp-trust gateway
// pending` and the review page show it) and goes on only once a person allows it, on the page or
// with `mcp-trust gateway decide ID allow|deny` from another process; a denial, a timeout or the
// client going away ends it with an error saying which. No thread waits per call: one thread
// notices decisions made elsewhere (by reading the store every kPoll while calls wait), deadlines,
// and when to tell each waiting client that it still waits (a progress notification every
// kProgressEvery, if it asked for progress).
//
// Bounded: at most kMaxWaiting calls wait at once (the next is refused, saying so); each waits at
// most its timeout.
//
// Thread-safety: every member from any thread. `done` and `progress` are called without locks
// held, on the approvals thread or the thread that decided.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "gateway/ask_store.hpp"

namespace mcp::gateway {

class Approvals {
 public:
  // Denies what stopped gateways left undecided (AskStore::abandon_orphans).
  static Result<std::shared_ptr<Approvals>> start(std::shared_ptr<AskStore> store);
  ~Approvals();
  Approvals(const Approvals&) = delete;
  Approvals& operator=(const Approvals&) = delete;

  // Where a person decides, for the messages clients get ("http://127.0.0.1:7800/ui").
  void set_review_url(std::string url);

  using Progress = std::function<void(std::chrono::seconds waited, const std::string& message)>;
  using Done = std::function<void(Result<void>)>;
  // Parks `ask` for at most `timeout`. `done` is called once: with nothing when allowed, with an
  // error naming who denied it, the timeout, or the withdrawal. Returns the ask as recorded (its
  // id), or an error (too many waiting, the store failed) without calling `done`.
  [[nodiscard]] Result<Ask> ask(Ask ask, std::chrono::milliseconds timeout, Progress progress, Done done);
  // A decision made in this process (the review page): recorded, and the call woken at once.
  [[nodiscard]] Result<Ask> decide(std::int64_t id, bool allow, const std::string& who);
  // The client went away (it cancelled, or its session ended): denied, saying `why`.
  void withdraw(std::int64_t id, const std::string& why);
  std::size_t waiting() const;
  const std::shared_ptr<AskStore>& store() const { return store_; }

  static constexpr std::size_t kMaxWaiting = 256;
  static constexpr std::chrono::milliseconds kPoll{200};
  static constexpr std::chrono::seconds kProgressEvery{5};
  static constexpr std::chrono::seconds kSweepEvery{10};  // AskStore::abandon_orphans

 private:
  explicit Approvals(std::shared_ptr<AskStore> store);
  struct Waiter {
    Ask ask;
    std::chrono::steady_clock::time_point since, deadline, told;
    std::chrono::milliseconds timeout;
    Progress progress;
    Done done;
  };
  // Ends the wait of `id` with `a`'s decision, if it still waits.
  void resolve(std::int64_t id, const Ask& a);
  // Denies `id` for `why` (not a person), or, decided meanwhile, ends it with that decision.
  void deny(std::int64_t id, const std::string& why);
  void run(std::stop_token stop);
  std::string message(const Ask& a) const;  // for the waiting client
  std::string how(const Ask& a) const;      // for the operator's log (under mu_)

  const std::shared_ptr<AskStore> store_;
  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  std::map<std::int64_t, Waiter> waiting_;
  std::size_t reserved_ = 0;  // places taken by asks being recorded
  std::string review_url_;
  std::jthread thread_;  // last
};

}  // namespace mcp::gateway
