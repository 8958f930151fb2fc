// Private: libsodium initialisation, once per process.
#pragma once

namespace mcp::trust::detail {

// True once libsodium is ready. sodium_init() picks the fastest implementations for this CPU and
// opens the random source; it is idempotent and thread-safe, and the static makes it run once.
bool sodium_ready() noexcept;

}  // namespace mcp::trust::detail
