// Private: one SSE stream of a Streamable HTTP session — a POST's answer stream or the standalone
// GET stream — as a bounded, replayable log of events. No I/O: an HTTP connection attaches as the
// writer, drains what it has not sent yet, and is woken when more arrives.
//
// Event ids are "<stream id>_<sequence>", so a Last-Event-ID names both the stream to resume and
// the point to resume from. The log keeps the last `max_events` events, and its bytes count
// against the session's budget (`budget`, shared by all streams of a session), which the session
// enforces with evict(); a resumption from before what is left replays what is left.
//
// Thread-safety: all members are thread-safe. The waker runs on the pushing thread and must only
// schedule work (it is called with no lock held).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp::http {

struct StoredEvent {
  std::uint64_t seq = 0;
  std::string id;    // "<stream>_<seq>"
  std::string data;  // one JSON-RPC message
};

class Stream {
 public:
  // `budget` counts the bytes of stored events of every stream sharing it (may be null).
  Stream(std::string id, std::size_t max_events, std::shared_ptr<std::atomic<std::size_t>> budget = nullptr)
      : id_(std::move(id)), max_events_(max_events), budget_(std::move(budget)) {}
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  const std::string& id() const { return id_; }

  // Appends a message; `final` marks the answer that completes a POST stream.
  void push(std::string data, bool final);
  // Ends the current (or next) writer's response without finishing the stream (SSE polling).
  void cut();
  // Finishes the stream (session closing): writers end, nothing more is accepted.
  void finish();

  struct Batch {
    std::vector<StoredEvent> events;
    bool done = false;  // the writer should end its response after writing `events`
    bool finished = false;
    bool answered = false;  // finished by its final answer (the last event), not by a close or drop
  };
  // Events after `after_seq`, and whether the writer is done. Clears the wake-up signal.
  Batch take_after(std::uint64_t after_seq);
  // True (and cleared) if something happened since the last take_after: check before sleeping.
  bool consume_signal();

  // Attaches a writer: its waker is called on every push/cut/finish. Returns false if a writer is
  // already attached. Detach when the response ends.
  bool attach(std::function<void()> waker);
  void detach();
  // Attaches a writer even if one is attached (a client resuming with Last-Event-ID after its
  // connection dropped: the old writer may not have noticed yet). Returns the new writer's
  // generation; the superseded writer is woken and sees `done` from take_after(after, its gen).
  std::uint64_t take_over(std::function<void()> waker);
  std::uint64_t generation() const;
  Batch take_after(std::uint64_t after_seq, std::uint64_t writer_generation);
  // Detaches only if `writer_generation` is still the attached writer.
  void detach(std::uint64_t writer_generation);

  // Drops the oldest stored events until `want` bytes are freed or nothing more may go, and returns
  // the bytes freed. Never dropped: the newest event (a final answer must reach its writer), and,
  // while a writer is attached, events it has not taken yet.
  std::size_t evict(std::size_t want);
  std::size_t stored_bytes() const;

  bool finished() const;
  bool attached() const;
  std::uint64_t last_seq() const;
  // The event id a priming event carries: the current position, so resuming from it replays only
  // what comes after.
  std::string position_id() const;

 private:
  void wake(std::unique_lock<std::mutex>& lock);

  void drop_front();  // requires mu_
  Batch take_after_locked(std::uint64_t after_seq);  // requires mu_

  const std::string id_;
  const std::size_t max_events_;
  const std::shared_ptr<std::atomic<std::size_t>> budget_;
  mutable std::mutex mu_;
  std::deque<StoredEvent> events_;
  std::size_t bytes_ = 0;     // of events_' data
  std::uint64_t taken_ = 0;   // the highest sequence a writer has taken
  std::uint64_t next_seq_ = 1;
  bool finished_ = false;  // the final answer was pushed, or the session closed
  bool answered_ = false;  // the final answer was pushed
  bool cut_ = false;       // the current writer should end now
  bool signaled_ = false;
  bool attached_ = false;
  std::uint64_t generation_ = 0;  // of the attached writer
  std::function<void()> waker_;
};

}  // namespace mcp::http
