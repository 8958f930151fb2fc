#include "http/conn_deadline.hpp"

#include <algorithm>
#include <cstdint>

namespace mcp::http {

namespace {
constexpr auto kNever = ConnDeadline::clock::time_point::max();
// The floor is at least this: a zero or tiny timeout would otherwise have the timer fire and re-arm
// itself at once, over and over, until a later deadline came. Shorter deadlines are kept all the
// same (each re-arms the timer for itself).
constexpr ConnDeadline::clock::duration kLeastFloor = std::chrono::milliseconds(100);
}  // namespace

struct ConnDeadline::State : std::enable_shared_from_this<State> {
  State(boost::asio::any_io_executor ex, std::function<void()> f) : timer(std::move(ex)), on_expire(std::move(f)) {}

  boost::asio::steady_timer timer;
  std::function<void()> on_expire;
  clock::time_point deadline = kNever;
  clock::time_point armed_for = kNever;  // when the timer fires; kNever while it is not armed
  clock::duration floor = clock::duration::max();
  std::uint64_t generation = 0;  // of the wait in progress: an older wait's handler does nothing
  bool expired = false;
  bool stopped = false;

  // Arms the timer for `at` (replacing a wait in progress, whose handler then finds its
  // generation old).
  void arm(clock::time_point at) {
    armed_for = at;
    timer.expires_at(at);
    timer.async_wait([self = shared_from_this(), g = ++generation](const boost::system::error_code&) { self->fired(g); });
  }

  void fired(std::uint64_t g) {
    if (stopped || g != generation) return;
    armed_for = kNever;
    if (deadline == kNever) return;  // nothing to watch: the next deadline arms it again
    const auto now = clock::now();
    if (deadline <= now) {
      deadline = kNever;
      expired = true;
      if (on_expire) on_expire();
      return;
    }
    arm(std::min(deadline, now + floor));  // early: the deadline moved on since it was armed
  }
};

ConnDeadline::ConnDeadline(boost::asio::any_io_executor ex, std::function<void()> on_expire)
    : state_(std::make_shared<State>(std::move(ex), std::move(on_expire))) {}

ConnDeadline::~ConnDeadline() { stop(); }

void ConnDeadline::expires_after(clock::duration d) {
  auto& s = *state_;
  if (s.stopped) return;
  const auto now = clock::now();
  s.expired = false;
  s.deadline = now + d;
  s.floor = std::min(s.floor, std::max(d, kLeastFloor));
  // Armed no later than the deadline: it re-arms for it when it fires. Whenever the timer is armed,
  // it is for at most `floor` after that moment, so this holds for every deadline at least `floor`
  // away, and only a shorter one than any before re-arms here.
  if (s.armed_for <= s.deadline) return;
  s.arm(std::min(s.deadline, now + s.floor));
}

void ConnDeadline::expires_never() {
  // The timer, if armed, finds nothing to do when it fires. `expired` stays: the step that just
  // ended asks it after this.
  state_->deadline = kNever;
}

bool ConnDeadline::expired() const { return state_->expired; }

void ConnDeadline::stop() {
  auto& s = *state_;
  if (s.stopped) return;
  s.stopped = true;
  s.on_expire = nullptr;
  s.timer.cancel();
}

}  // namespace mcp::http
