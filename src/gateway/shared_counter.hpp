// Private to the gateway: a counter in a file of the state folder, mapped into every process that
// uses the folder, so that one process's change is seen by the others with a memory read.
//
// Why: a call's pin lookup is a SQLite read (~5 µs, most of it the WAL's file locks); the pins
// rarely change. PinStore caches states while the counter it read is unchanged, and bumps the
// counter after each change it commits, in whichever process commits it (the gateway's own
// quarantine, `mcp-trust gateway approve` or the review page), so the next lookup after a
// committed change reads the database again. A change that bumped nothing (its process killed
// between commit and bump, or the database edited behind PinStore's back) is seen within
// PinStore's time bound on the cache (one second).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "mcp/error.hpp"

namespace mcp::gateway {

class SharedCounter {
 public:
  // Creates the file (8 bytes, mode 0600) if needed and maps it.
  static Result<std::unique_ptr<SharedCounter>> open(const std::filesystem::path& file);
  ~SharedCounter();
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;

  std::uint64_t load() const;
  void bump();

 private:
  explicit SharedCounter(void* map) : map_(map) {}
  void* map_;
};

}  // namespace mcp::gateway
