#include "http/workers.hpp"

#include <system_error>

#include "session/reaper.hpp"

namespace mcp::http {

std::optional<std::string> Workers::spawn(std::function<void()> body) {
  auto done = std::make_shared<std::atomic<bool>>(false);
  threads_.reserve(threads_.size() + 1);  // nothing throws once the thread runs
  try {
    threads_.push_back(Worker{std::thread([body = std::move(body), done] {
                                body();
                                done->store(true);
                              }),
                              done});
  } catch (const std::system_error& e) {
    return e.what();
  }
  return std::nullopt;
}

void Workers::reap() {
  std::erase_if(threads_, [](Worker& w) { return w.done->load() && (w.thread.join(), true); });
}

void Workers::join() noexcept {
  for (auto& w : threads_) detail::join_or_reap(w.thread);
  threads_.clear();
}

}  // namespace mcp::http
