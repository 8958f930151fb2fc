// Private: the threads an HTTP client transport runs its exchanges on.
//
// Each request's exchange, and the standalone GET stream, runs on a thread of its own: an answer
// may stream for as long as the server likes. The transport starts them here, joins the finished
// ones as it starts more (a long-lived client does not pile them up), and joins the rest when it
// closes. Not thread-safe: the transport calls it under its own lock, and joins what it took out.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace mcp::http {

class Workers {
 public:
  Workers() = default;
  Workers(Workers&&) = default;
  Workers& operator=(Workers&& other) noexcept {
    join();  // threads are never dropped unjoined (std::thread would end the process)
    threads_ = std::move(other.threads_);
    return *this;
  }
  ~Workers() { join(); }

  // Starts `body` on a thread of its own; why not, when no thread can be started (the system is
  // out of them): the caller reports that, nothing throws.
  std::optional<std::string> spawn(std::function<void()> body);
  // Joins the threads whose body has returned.
  void reap();
  // Every thread, taken out to be joined without the transport's lock.
  [[nodiscard]] Workers take() { return std::exchange(*this, Workers{}); }
  // Joins them all. The calling thread, if it is one of them (the transport's last reference went
  // on it), cannot join itself: it is handed to the process's reaper (session/reaper.hpp).
  void join() noexcept;

 private:
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;  // the body returned
  };
  std::vector<Worker> threads_;
};

}  // namespace mcp::http
