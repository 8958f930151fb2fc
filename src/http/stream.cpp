#include "http/stream.hpp"

namespace mcp::http {

void Stream::wake(std::unique_lock<std::mutex>& lock) {
  signaled_ = true;
  auto w = waker_;
  lock.unlock();
  if (w) w();
}

Stream::~Stream() {
  if (budget_) budget_->fetch_sub(bytes_);
}

void Stream::drop_front() {
  bytes_ -= events_.front().data.size();
  if (budget_) budget_->fetch_sub(events_.front().data.size());
  events_.pop_front();
}

void Stream::push(std::string data, bool final) {
  std::unique_lock lock(mu_);
  if (finished_) return;
  StoredEvent e;
  e.seq = next_seq_++;
  e.id = id_ + "_" + std::to_string(e.seq);
  bytes_ += data.size();
  if (budget_) budget_->fetch_add(data.size());
  e.data = std::move(data);
  events_.push_back(std::move(e));
  while (events_.size() > max_events_) drop_front();
  if (final) finished_ = answered_ = true;
  wake(lock);
}

void Stream::cut() {
  std::unique_lock lock(mu_);
  // Also before a writer attaches: a handler may ask for the cut before the POST's response has
  // started; the first writer then ends right after what is already there.
  cut_ = true;
  wake(lock);
}

void Stream::finish() {
  std::unique_lock lock(mu_);
  finished_ = true;
  wake(lock);
}

Stream::Batch Stream::take_after(std::uint64_t after_seq) {
  std::lock_guard lock(mu_);
  return take_after_locked(after_seq);
}

Stream::Batch Stream::take_after_locked(std::uint64_t after_seq) {
  Batch b;
  for (const auto& e : events_) {
    if (e.seq > after_seq) b.events.push_back(e);
  }
  if (!b.events.empty()) taken_ = std::max(taken_, b.events.back().seq);
  b.finished = finished_;
  b.answered = answered_;
  b.done = finished_ || cut_;
  signaled_ = false;
  return b;
}

bool Stream::consume_signal() {
  std::lock_guard lock(mu_);
  bool s = signaled_;
  signaled_ = false;
  return s;
}

bool Stream::attach(std::function<void()> waker) {
  std::lock_guard lock(mu_);
  if (attached_) return false;
  attached_ = true;
  ++generation_;
  waker_ = std::move(waker);
  return true;
}

std::uint64_t Stream::take_over(std::function<void()> waker) {
  std::unique_lock lock(mu_);
  auto old = std::move(waker_);
  attached_ = true;
  cut_ = false;
  waker_ = std::move(waker);
  auto gen = ++generation_;
  lock.unlock();
  if (old) old();  // the superseded writer wakes, finds itself superseded and ends
  return gen;
}

std::uint64_t Stream::generation() const {
  std::lock_guard lock(mu_);
  return generation_;
}

Stream::Batch Stream::take_after(std::uint64_t after_seq, std::uint64_t writer_generation) {
  std::lock_guard lock(mu_);
  if (writer_generation != generation_) {
    // Superseded: the new writer sends the events, and the wake-up signal is the new writer's
    // too (consuming it here left the new writer asleep until its next keep-alive).
    Batch b;
    b.done = true;
    b.finished = finished_;
    b.answered = answered_;
    return b;
  }
  return take_after_locked(after_seq);
}

void Stream::detach(std::uint64_t writer_generation) {
  std::lock_guard lock(mu_);
  if (writer_generation != generation_) return;
  attached_ = false;
  cut_ = false;
  waker_ = nullptr;
}

void Stream::detach() {
  std::lock_guard lock(mu_);
  attached_ = false;
  cut_ = false;
  waker_ = nullptr;
}

std::size_t Stream::evict(std::size_t want) {
  std::lock_guard lock(mu_);
  std::size_t freed = 0;
  while (freed < want && events_.size() > 1 && (!attached_ || events_.front().seq <= taken_)) {
    freed += events_.front().data.size();
    drop_front();
  }
  return freed;
}

std::size_t Stream::stored_bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

bool Stream::attached() const {
  std::lock_guard lock(mu_);
  return attached_;
}

bool Stream::finished() const {
  std::lock_guard lock(mu_);
  return finished_;
}

std::uint64_t Stream::last_seq() const {
  std::lock_guard lock(mu_);
  return next_seq_ - 1;
}

std::string Stream::position_id() const {
  std::lock_guard lock(mu_);
  return id_ + "_" + std::to_string(next_seq_ - 1);
}

}  // namespace mcp::http
