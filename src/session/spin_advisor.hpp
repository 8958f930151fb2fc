// Private to the session: whether a caller blocked on a request's answer spins for it first.
//
// Spinning up to kWindow before sleeping saves a futex sleep and wake-up (tens of microseconds on
// a VM, more when its virtual CPU has halted) when the answer comes within that time or a little
// after, as it does from a peer in the same process or on a local pipe. When answers take longer
// (a peer across a network, a slow tool, or a peer whose threads share this machine's cores with
// many waiting callers), the spins are CPU burnt for nothing, and taken from the threads that
// would produce the answers: on two cores, four callers spinning for a gateway's answers used
// half of all CPU, and the gateway's thread got less of it (bench/RESULTS.md, 2026-11-27).
//
// So a session keeps, for its last kHistory answers to blocking requests, whether each came
// within kQuick, and a caller spins if it is the session's only caller waiting (it then takes at
// most one core for 50 µs, and a lone caller's latency is what spinning is for), or if at least
// half of those answers were quick. A caller that sleeps still teaches it: an answer's time is
// taken when the reader receives it, not when the caller wakes, so the wake-up does not count
// against spinning, and the session's callers spin again once its peer answers quickly again.
// One slow answer among quick ones changes nothing.
//
// Thread-safety: every member from any thread (answers of one session may arrive on several
// threads, as the HTTP client transport's do).
#pragma once

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>

namespace mcp::detail {

class SpinAdvisor {
 public:
  static constexpr std::chrono::microseconds kWindow{50};
  // An answer this quick is worth spinning for: one that comes a little after the spin has ended
  // still finds its caller's CPU awake. Measured (bench/RESULTS.md, 2026-11-27): with answers
  // counted quick only within the window itself, a lone caller whose answers took ~80 µs slept
  // at once and got them ~40 µs later than a caller that had spun first.
  static constexpr std::chrono::microseconds kQuick = 2 * kWindow;
  static constexpr int kHistory = 16;

  // Whether at least half of the last kHistory answers came within kQuick.
  bool quick() const { return std::popcount(recent_.load(std::memory_order_relaxed)) * 2 >= kHistory; }

  // One caller waiting for its answer, from construction to destruction; spin() says whether it
  // should spin (for up to kWindow) before sleeping: when it is alone, or answers are quick.
  class Waiting {
   public:
    explicit Waiting(SpinAdvisor& a) : a_(a), alone_(a.waiting_.fetch_add(1, std::memory_order_relaxed) == 0) {}
    ~Waiting() { a_.waiting_.fetch_sub(1, std::memory_order_relaxed); }
    Waiting(const Waiting&) = delete;
    Waiting& operator=(const Waiting&) = delete;
    bool spin() const { return alone_ || a_.quick(); }

   private:
    SpinAdvisor& a_;
    bool alone_;
  };

  // A blocking request's answer arrived `waited` after the request was sent.
  void answered(std::chrono::steady_clock::duration waited) {
    const std::uint32_t bit = waited <= kQuick ? 1u : 0u;
    std::uint32_t bits = recent_.load(std::memory_order_relaxed);
    while (!recent_.compare_exchange_weak(bits, ((bits << 1) | bit) & kMask, std::memory_order_relaxed)) {
    }
  }

 private:
  static constexpr std::uint32_t kMask = (1u << kHistory) - 1;
  std::atomic<std::uint32_t> recent_{kMask};  // a new session spins, as every session did before
  std::atomic<int> waiting_{0};               // callers between Waiting's construction and destruction
};

}  // namespace mcp::detail
