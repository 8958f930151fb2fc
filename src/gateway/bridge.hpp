// Private to the gateway: an upstream's requests to its client (sampling/createMessage,
// elicitation/create), bridged to the client whose call they serve.
//
// The gateway holds one session per upstream, shared by all of its clients. While a forwarded call
// (tools/call, prompts/get, resources/read) is in flight, the upstream may ask its client for
// input. The Proxy enters each forwarded call here as a Flight while the upstream works on it; the
// upstream's request (answered on one of its session's worker threads, ask()) is routed to the call
// it belongs to, which it makes a PendingCall (Flight::promote), and waits there. The Proxy then
// answers our client with the SDK's multi round-trip result (RequestContext::input_required): a
// 2026-07-28 client gets an InputRequiredResult and sends its answers in a retry; for a 2025-11-25
// session the SDK sends the request in the session itself. Either way the handler runs again with
// the answers, which go back to the waiting upstream request, and the round repeats until the
// upstream's call ends.
//
// Which call an upstream request belongs to: a 2026-07-28 upstream's input requests come with the
// call they answer (its cancellation token), and go there. A 2025-11-25 session does not say: the
// bridge routes such a request to the only call of that upstream in flight; with none, or several,
// it is refused (an error to the upstream naming why) rather than shown to a client it may not
// concern.
//
// Bounded: at most kMaxCalls calls in flight per upstream (the next is refused), at most kMaxAsks
// unanswered requests per call; an upstream request waits at most `timeout` for its answer; a call
// that ended without its client coming back for the answer is forgotten after kForgetAfter, and
// at most kMaxUnclaimed such answers are kept (the oldest go first).
//
// Thread-safety: every member from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mcp/protocol/input_required.hpp"
#include "mcp/session/cancellation.hpp"

namespace mcp::gateway {

class PendingCall : public std::enable_shared_from_this<PendingCall> {
 public:
  // `upstream`: the token of the upstream's request, cancelled when the client never answers.
  explicit PendingCall(std::string id, CancellationToken upstream = {})
      : id_(std::move(id)), upstream_(std::move(upstream)) {}
  const std::string& id() const { return id_; }
  // What the forwarding side keeps with the call (its typed answer; proxy.cpp).
  void set_payload(std::shared_ptr<void> payload) {
    std::lock_guard lock(mu_);
    payload_ = std::move(payload);
  }
  std::shared_ptr<void> payload() const {
    std::lock_guard lock(mu_);
    return payload_;
  }

  // The round's continuation: called once, when the upstream's call has ended (`ended` true) or
  // the upstream asked for input (`asks`: the requests not yet passed on, by key). Immediately if
  // either happened already. False (and `next` dropped) if another round's continuation waits: two
  // requests may not continue one call at once.
  using Next = std::function<void(bool ended, InputRequests asks)>;
  [[nodiscard]] bool next(Next next);
  // The client's answer to `key` (or an error: the request is refused at the upstream).
  void answer(const std::string& key, Result<json::value> answer);
  // Keys passed on to the client and not yet answered.
  std::vector<std::string> awaiting() const;
  // Those are passed on again with the next round (a retry that left one unanswered is asked again).
  void ask_again();
  // The upstream's call ended: pending asks are refused, a waiting continuation runs.
  void end();
  bool ended() const;
  std::chrono::steady_clock::time_point ended_at() const;

  // From the upstream's side: adds a request and waits for its answer (at most `timeout`, or
  // until `cancel`, or until the call ends). Errors say which. A client that did not answer in
  // time has left: the upstream's request for the call is cancelled too.
  Result<json::value> ask(InputRequest request, const CancellationToken& cancel, std::chrono::milliseconds timeout);

  static constexpr std::size_t kMaxAsks = 16;

 private:
  struct Ask {
    InputRequest request;
    bool passed = false;  // handed to a continuation
    std::optional<Result<json::value>> answer;
  };
  // Takes the continuation if there is something for it (under mu_); the caller runs it unlocked.
  Next ready_locked(bool& ended, InputRequests& asks);

  const std::string id_;
  const CancellationToken upstream_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Ask> asks_;
  std::uint64_t next_key_ = 1;
  bool ended_ = false;
  std::chrono::steady_clock::time_point ended_at_{};
  Next next_;
  std::shared_ptr<void> payload_;
};

class Bridge;

// One forwarded call while the upstream works on it (the Proxy's Forwarded). It becomes a
// PendingCall only when the upstream asks its client something for it: most calls never do, and
// making the PendingCall, its id, its map entry and its round's continuation for every call cost
// ~2-3 points of the HTTP throughput share (bench/RESULTS.md, "2026-11-28").
class Flight : public std::enable_shared_from_this<Flight> {
 public:
  // `upstream`: the token of the upstream's request; it cancels that request and names the call
  // (a 2026-07-28 upstream's input requests come under it).
  explicit Flight(CancellationToken upstream = {}) : upstream_(std::move(upstream)) {}
  virtual ~Flight() = default;
  Flight(const Flight&) = delete;
  Flight& operator=(const Flight&) = delete;

  const CancellationToken& upstream_token() const { return upstream_; }
  // The call's PendingCall: made the first time (registered in `bridge`, so a retry finds it by
  // its id, then handed to promoted()), the same one after. Nothing once the call has landed.
  std::shared_ptr<PendingCall> promote(Bridge& bridge);
  // The upstream answered: nothing more is asked for the call (Bridge::land, which also takes it
  // out of the bridge; this alone once the bridge is gone). The PendingCall if one was made (the
  // caller ends it and its round answers the client), else nothing (the caller answers the
  // client itself).
  std::shared_ptr<PendingCall> land();

 protected:
  // The upstream's first request for this call: start the round that passes it on to the client.
  // Called once, with no lock held; the call may land meanwhile (the round then sees it ended).
  virtual void promoted(const std::shared_ptr<PendingCall>& call) = 0;

 private:
  friend class Bridge;
  static constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);

  const CancellationToken upstream_;
  std::mutex mu_;
  bool landed_ = false;
  bool promoted_ = false;
  std::shared_ptr<PendingCall> call_;  // from its promotion until it lands
  std::size_t slot_ = kNoSlot;         // its place in Bridge::flights_ (guarded by Bridge::mu_)
};

class Bridge {
 public:
  // `name`: the upstream's, for errors.
  explicit Bridge(std::string name);

  // A forwarded call is in flight at the upstream; an error when kMaxCalls are in flight or wait
  // for their clients. Takes no allocation once the bridge has seen as many at once.
  Result<void> enter(std::shared_ptr<Flight> flight);
  // Its upstream answered: it no longer takes the upstream's requests, and is landed
  // (Flight::land: what it returns).
  std::shared_ptr<PendingCall> land(Flight& flight);
  // A PendingCall under a new id, found by find() until finish() (Flight::promote).
  std::shared_ptr<PendingCall> open(CancellationToken upstream);
  // The call a retry names; nothing if it ended and was forgotten, or never was.
  std::shared_ptr<PendingCall> find(const std::string& id) const;
  // Forgets a call whose result went to its client.
  void finish(const std::string& id);
  // The upstream's request `method` with `params`: routed to the call it belongs to, answered with
  // that call's client's answer. `cancel` names the call when it is that call's own token (a
  // 2026-07-28 upstream's input requests are answered under it); else the one call in flight.
  Result<json::value> ask(std::string_view method, const json::object& params, const CancellationToken& cancel,
                          std::chrono::milliseconds timeout);

  static constexpr std::size_t kMaxCalls = 1024;
  static constexpr std::size_t kMaxUnclaimed = 64;
  static constexpr std::chrono::seconds kForgetAfter{60};

 private:
  // Forgets what nobody came back for; returns how many ended calls are still kept.
  std::size_t sweep_locked();
  void leave(Flight& flight);

  const std::string name_;
  const std::string prefix_;
  mutable std::mutex mu_;
  std::uint64_t counter_ = 0;
  std::vector<std::shared_ptr<Flight>> flights_;               // in flight at the upstream, unordered
  std::map<std::string, std::shared_ptr<PendingCall>> calls_;  // promoted, until finished or forgotten
};

}  // namespace mcp::gateway
