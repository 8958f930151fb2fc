// Private to the gateway: the review page at /ui (issue 13). It shows the upstreams and their
// state, the pins (each with forget), every quarantined change as a side-by-side difference of the
// approved and the new definition with approve and reject, the calls waiting for a person (the "ask" policy) with
// allow and deny, and the tail of the audit log with the state of its chain; the page reads the
// state every second, so it follows changes without reloading.
//
// The page is static (review/: HTML, CSS and script, compiled in; nothing from a CDN); what it shows
// comes from the JSON API beside it, and everything an upstream or a client chose is put in the
// page as text, never as markup (the script only ever sets textContent). Access:
// review_access.hpp.
//
//   GET  /ui, /ui/app.js, /ui/app.css      the page
//   GET  /ui/api/state                     everything the page shows (token)
//   POST /ui/api/pins   {"server","kind","key","decision":"approve"|"reject"|"forget"}   (token, same origin)
//   POST /ui/api/calls  {"id","decision":"allow"|"deny"}                        (token, same origin)
//
// Decisions are recorded as made by "review page (PEER)". Bounded: at most kMaxQuarantined changes
// and kMaxPins pins in one state, kMaxShownBytes of definitions and arguments, the last kAuditTail
// audit records; the chain is verified in full
// at most every kFullVerifyEvery and only for what is new in between.
//
// Thread-safety: the routes run on the HTTP server's I/O threads, concurrently.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gateway/review_access.hpp"
#include "gateway/state.hpp"
#include "mcp/http/server.hpp"

namespace mcp::gateway {

inline constexpr std::string_view kReviewPath = "/ui";

// What the page needs of the running gateway.
struct ReviewSource {
  // [{"name", "status" ("connected", "restarting: why"), "restarts", "path"}]
  std::function<json::array()> upstreams;
  // An item of `server` was approved or rejected here: its clients are told to list again.
  std::function<void(const std::string& server)> decided;
};

class ReviewPage : public std::enable_shared_from_this<ReviewPage> {
 public:
  static std::shared_ptr<ReviewPage> make(State state, ReviewAccess access, ReviewSource source);
  // The routes to serve (they hold the page).
  std::map<std::string, http::RouteHandler> routes();
  // What GET /ui/api/state answers.
  json::object snapshot();

  static constexpr std::size_t kMaxQuarantined = 200;
  static constexpr std::size_t kMaxPins = 1000;
  static constexpr std::size_t kMaxPending = 1000;  // calls waiting, over every gateway sharing the state
  static constexpr std::size_t kMaxShownBytes = 4 << 20;  // of keys, definitions and arguments in one state
  static constexpr std::size_t kMaxShownRecord = 2048;     // of one audit record's body
  static constexpr std::size_t kAuditTail = 25;
  static constexpr std::chrono::seconds kFullVerifyEvery{60};

 private:
  ReviewPage(State state, ReviewAccess access, ReviewSource source)
      : state_(std::move(state)), access_(std::move(access)), source_(std::move(source)) {}
  http::PlainResponse decide_pin(const http::PlainRequest& req);
  http::PlainResponse decide_call(const http::PlainRequest& req);
  // decide_pin's "forget": the pin dropped, the upstream listed again.
  http::PlainResponse forget_pin(const http::PlainRequest& req, const std::string& server, const std::string& key,
                                 ListKind kind);
  json::object chain();

  const State state_;
  const ReviewAccess access_;
  const ReviewSource source_;
  std::mutex chain_mu_;
  ChainCheck chain_;  // what was verified so far (chain_mu_)
  std::chrono::steady_clock::time_point full_verify_{};
};

}  // namespace mcp::gateway
