// Private: joins a thread whose owner was destroyed on that very thread.
//
// An object that runs a std::thread joins it in its destructor. When the object's last reference
// goes on that thread (a transport released by its own callback, or by its last exchange),
// the thread cannot join itself. Detaching it let it outlive main(): it went on running the rest of
// the destructor while exit() tore down the libraries it still used (ThreadSanitizer caught the
// HTTP client transport's request thread inside OpenSSL's locks as exit freed them). Such a thread
// is handed here instead. One reaper thread joins each as it ends, so their stacks are given back,
// and at exit the reaper joins those still ending before the libraries initialised ahead of it
// (OpenSSL, say) are torn down; one that has not ended within two seconds is left running then.
#pragma once

#include <chrono>
#include <thread>

namespace mcp::detail {

// Takes `self`, the std::thread the caller is running on, and joins it after it ends. With no thread
// left to start the reaper on, `self` is detached, as before. `self` must not be the reaper's own.
void reap(std::thread self) noexcept;

// What an owner's destructor does with its thread: joins `t`, or, when called on `t` itself (the
// owner's last reference went there), hands it to reap(). Nothing if `t` is not joinable.
void join_or_reap(std::thread& t) noexcept;

// Waits up to `bound` until every thread handed in so far is joined; false if some is not by then
// (for tests).
bool wait_reaped(std::chrono::milliseconds bound);

}  // namespace mcp::detail
