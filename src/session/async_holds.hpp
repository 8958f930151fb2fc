// Private: a count of holders per key whose first hold and last release are asynchronous steps:
// an SDK server's resource watch hooks (a URI watched while any session subscribes to it), and a
// gateway's subscriptions at its upstream (a URI subscribed to there while any of its servers'
// sessions watch it).
//
// Why asynchronous: the step may wait on a peer (a gateway's upstream answering a subscribe). Done
// with blocking calls, every holder of a key waited on a thread of the shared pool, the first for
// the step and the others for the first, so a silent upstream took the pool's threads one
// subscribe at a time (the bounds that were kept against it refused subscriptions to every
// upstream). Here a holder waiting for its key is a callback in a list, and no thread waits.
//
// A key is off, starting, on or stopping. The first hold of an off key starts it: `turn(key,
// true)`, whose answer reaches every holder that came meanwhile (a refusal, all of them). The last
// release of an on key stops it: `turn(key, false)` (its error is only logged by the turn); a
// hold that comes while it stops waits, and the key starts again once it has stopped. So the turns
// of one key never overlap and alternate on, off, on, ... whatever the order of holds and
// releases, and keys do not wait for each other.
//
// Bounds: at most `max_waiting` holders wait (for a start, or behind a stop) over all keys; past
// that a hold is refused at once, saying why. A turn that answers twice is heard once.
//
// Callbacks (turns and holders' `done`) are called without the lock held, from the thread that
// made the step happen: a hold's or a release's, or the turn's answer's.
//
// Thread-safety: every member from any thread. Owned through a shared_ptr (make()): a turn's
// answer that comes after the owner is gone is dropped.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "mcp/error.hpp"

namespace mcp::detail {

class AsyncHolds : public std::enable_shared_from_this<AsyncHolds> {
 public:
  using Done = std::function<void(Result<void>)>;
  // Turns `key` on or off, and calls `done` once, from any thread, when it is (or with why not).
  using Turn = std::function<void(const std::string& key, bool on, Done done)>;

  // `refusal`: the error a hold past the bound gets (what waits, and what to do).
  static std::shared_ptr<AsyncHolds> make(std::size_t max_waiting, std::string refusal) {
    return std::shared_ptr<AsyncHolds>(new AsyncHolds(max_waiting, std::move(refusal)));
  }

  // One more holder of `key`: `done` is called with success once the key is on (at once when it
  // is), or with the start's error. `turn` starts it if this is the first holder, and stops it
  // when the last goes; a start after a stop uses the turn of the holder that came last.
  void hold(const std::string& key, Turn turn, Done done);
  // One holder of `key` gone: only after its hold's `done` said success. The last one stops it.
  void release(const std::string& key);
  // The keys on now (a gateway subscribing to them again at a restarted upstream).
  std::vector<std::string> keys_on() const;
  // Holders waiting now (for tests of the bound).
  std::size_t waiting() const;

 private:
  enum class Phase { starting, on, stopping };
  struct Entry {
    Phase phase = Phase::starting;
    std::size_t holders = 0;    // whose done said success
    std::vector<Done> waiters;  // for the start under way, or for the one after the stop
    Turn turn;                  // of the start under way or next; stops with it too
  };
  AsyncHolds(std::size_t max_waiting, std::string refusal) : max_waiting_(max_waiting), refusal_(std::move(refusal)) {}
  // Calls entry.turn for `key` (phase already set), its answer to started() or stopped().
  void run_turn(const std::string& key, const Turn& turn, bool on);
  void started(const std::string& key, Result<void> r);
  void stopped(const std::string& key);

  const std::size_t max_waiting_;
  const std::string refusal_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> keys_;  // off keys are absent
  std::size_t waiting_ = 0;                      // every entry's waiters
};

}  // namespace mcp::detail
