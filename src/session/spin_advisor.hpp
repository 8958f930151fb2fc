// Private to the session: whether a caller blocked on a request's answer spins for it first.
//
// Spinning up to kWindow before sleeping saves a futex sleep and wake-up (tens of microseconds on
// a VM) when the answer comes within that time, as it does from a peer in the same process or on
// a local pipe. When answers take longer (a peer across a network, a slow tool, or a peer whose
// threads share this machine's cores with many waiting callers), the spin is CPU burnt for
// nothing, and taken from the threads that would produce the answer: on two cores, four callers
// spinning for a gateway's answers took half of all CPU (bench/RESULTS.md, 2026-11-27).
//
// So a session keeps, for its last kHistory answers to blocking requests, whether each came
// within the window, and its callers spin only while at least half of them did. A caller that
// sleeps still teaches it: an answer's time is taken when the reader receives it, not when the
// caller wakes, so the wake-up does not count against spinning, and the session spins again once
// its peer answers quickly again. One slow answer among quick ones changes nothing.
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
  static constexpr int kHistory = 16;

  // Whether the next caller should spin (for up to kWindow) before sleeping.
  bool spin() const { return std::popcount(recent_.load(std::memory_order_relaxed)) * 2 >= kHistory; }

  // A blocking request's answer arrived `waited` after the request was sent.
  void answered(std::chrono::steady_clock::duration waited) {
    const std::uint32_t quick = waited <= kWindow ? 1u : 0u;
    std::uint32_t bits = recent_.load(std::memory_order_relaxed);
    while (!recent_.compare_exchange_weak(bits, ((bits << 1) | quick) & kMask, std::memory_order_relaxed)) {
    }
  }

 private:
  static constexpr std::uint32_t kMask = (1u << kHistory) - 1;
  std::atomic<std::uint32_t> recent_{kMask};  // a new session spins, as every session did before
};

}  // namespace mcp::detail
