#include "gateway/review_page.hpp"

#include "log/log.hpp"

namespace mcp::gateway {

// review/ (page.html, app.js, app.css), compiled in by CMakeLists.txt.
extern const std::string_view kReviewAsset_page_html;
extern const std::string_view kReviewAsset_app_js;
extern const std::string_view kReviewAsset_app_css;

namespace {

std::string who(const http::PlainRequest& req) { return "review page (" + (req.peer.empty() ? "?" : req.peer) + ")"; }

// A pin's stored canonical definition, back as JSON (null if absent or unreadable).
json::value definition(const std::optional<std::string>& text) {
  if (!text) return nullptr;
  boost::system::error_code ec;
  auto v = json::parse(*text, ec);
  return ec ? json::value(nullptr) : v;
}

Result<json::object> body_of(const http::PlainRequest& req) {
  boost::system::error_code ec;
  auto v = json::parse(req.body, ec);  // bounded by the server's body limit; Boost.JSON bounds depth
  if (ec || !v.is_object()) return fail(Error::invalid_params("the body must be a JSON object"));
  return std::move(v.as_object());
}

std::string string_at(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

std::shared_ptr<ReviewPage> ReviewPage::make(State state, ReviewAccess access, ReviewSource source) {
  return std::shared_ptr<ReviewPage>(new ReviewPage(std::move(state), std::move(access), std::move(source)));
}

json::object ReviewPage::chain() {
  std::lock_guard lock(chain_mu_);
  const auto now = std::chrono::steady_clock::now();
  // In full now and then (a record changed after it was checked shows then), else what is new.
  const bool full = now - full_verify_ >= kFullVerifyEvery;
  auto check = full ? state_.audit->verify() : state_.audit->verify(chain_);
  if (!check) return json::object{{"intact", false}, {"why", "cannot read the audit log: " + check.error().message}};
  if (full) {
    full_verify_ = now;
    // A whole chain shorter than one verified before lost its last records (a removed tail
    // leaves an intact chain): that stays said.
    if (!check->first_broken && check->records < chain_.records) {
      check->first_broken = check->records + 1;
      check->why = "the log reached record " + std::to_string(chain_.records) + " when last verified and ends at " +
                   std::to_string(check->records) + " now: its last records were removed";
    }
  }
  if (chain_.first_broken && !check->first_broken) check = chain_;  // a break seen once stays shown
  chain_ = *check;
  json::object o{{"intact", !chain_.first_broken}, {"records", chain_.records}, {"head", chain_.head}};
  if (chain_.pruned_through > 0) o["prunedThrough"] = chain_.pruned_through;  // by a person or the retention
  if (chain_.first_broken) {
    o["firstBroken"] = *chain_.first_broken;
    o["why"] = chain_.why;
  }
  return o;
}

json::object ReviewPage::snapshot() {
  json::object out;
  out["upstreams"] = source_.upstreams ? source_.upstreams() : json::array{};
  // What upstreams and clients chose (definitions, arguments) fills the answer up to kMaxShownBytes
  // in all; past that it is named but not shown, so a page polled every second never costs more.
  std::size_t budget = kMaxShownBytes;
  const auto within = [&budget](std::size_t bytes) {
    if (bytes > budget) return false;
    budget -= bytes;
    return true;
  };
  const auto shown = [&](const std::optional<std::string>& text) -> json::value {
    if (!text) return nullptr;
    if (!within(text->size())) {
      return json::object{{"(not shown)", "this definition is " + std::to_string(text->size()) +
                                              " bytes, more than the page shows at once; decide the others first"}};
    }
    return definition(text);
  };
  json::array quarantined, pins;
  std::size_t total = 0, not_shown = 0;
  // Only what the page shows is read: a store an upstream filled with thousands of pins (and their
  // definitions) costs each poll no more than this page.
  if (auto page = state_.pins->page(kMaxQuarantined, kMaxPins)) {
    total = page->total;
    for (const auto& p : page->changes) {
      // A change is listed whole (its key is what a decision names) or not at all.
      if (!within(p.key.size())) {
        ++not_shown;
        continue;
      }
      json::object q{{"server", p.server},
                     {"kind", result_key(p.kind)},
                     {"key", p.key},
                     {"state", to_string(p.state)},
                     {"updated", p.updated},
                     {"approved", shown(p.approved_definition)},
                     {"seen", shown(p.seen_definition)}};
      // The hash a decision is made for, only with the definition it stands for: what the page
      // cannot show, it cannot have approved.
      if (q.at("seen").is_null() || !q.at("seen").as_object().contains("(not shown)")) q["seenHash"] = p.seen_hash;
      quarantined.push_back(std::move(q));
    }
    for (const auto& p : page->listed) {
      json::object pin{{"server", p.server},
                       {"kind", result_key(p.kind)},
                       {"key", peer_text(p.key, 256)},
                       {"state", to_string(p.state)},
                       {"updated", p.updated}};
      // Forgotten from here only when the key shown is the key itself (a decision names it
      // exactly); a cut or escaped one is forgotten with `mcp-trust gateway forget`.
      if (pin.at("key").as_string() == p.key) pin["forget"] = true;
      pins.push_back(std::move(pin));
    }
  } else {
    out["error"] = "cannot read the pins: " + page.error().message;
  }
  out["quarantined"] = std::move(quarantined);
  out["pins"] = json::object{{"total", total}, {"items", std::move(pins)}};
  json::array pending, decided;
  // Every waiting call (at most Approvals::kMaxWaiting per gateway), however many were asked since.
  if (auto waiting = state_.asks->pending()) {
    for (const auto& a : *waiting) {
      if (pending.size() >= kMaxPending) break;
      if (!within(a.item.size())) {
        ++not_shown;
        continue;
      }
      json::object shown_ask = to_json(a);
      if (!within(a.arguments.size())) {
        shown_ask["arguments"] = "(" + std::to_string(a.arguments.size()) +
                                 " bytes: more than the page shows at once; `mcp-trust gateway pending` shows them)";
      }
      pending.push_back(std::move(shown_ask));
    }
  }
  if (auto asks = state_.asks->recent(50)) {
    for (const auto& a : *asks) {
      if (!a.decision || decided.size() >= 10) continue;
      json::object d = to_json(a);
      d["item"] = peer_text(a.item, 256);
      decided.push_back(std::move(d));
    }
  }
  out["pending"] = std::move(pending);
  out["decided"] = std::move(decided);
  json::array records;
  if (auto tail = state_.audit->tail(kAuditTail)) {
    for (const auto& r : *tail) {
      // A record's body may name what an upstream chose (a key): shown cut, as the page shows it.
      std::string body = json::serialize(r.body);
      json::value shown_body = r.body;
      if (body.size() > kMaxShownRecord) shown_body = json::object{{"(cut)", peer_text(body, kMaxShownRecord)}};
      records.push_back(json::object{{"seq", r.seq}, {"time", r.time}, {"kind", r.kind}, {"body", std::move(shown_body)}});
    }
  }
  out["notShown"] = not_shown;
  out["audit"] = json::object{{"records", std::move(records)}, {"chain", chain()}};
  return out;
}

http::PlainResponse ReviewPage::decide_pin(const http::PlainRequest& req) {
  if (auto refused = access_.refuse_change(req)) return *refused;
  auto body = body_of(req);
  if (!body) return review_error(400, body.error().message);
  const std::string server = string_at(*body, "server"), key = string_at(*body, "key"), decision = string_at(*body, "decision");
  const std::string seen = string_at(*body, "seenHash");
  const auto kind = list_kind_of_result_key(string_at(*body, "kind"));
  if (server.empty() || key.empty() || !kind ||
      (decision != "approve" && decision != "reject" && decision != "forget") ||
      (decision == "approve" && seen.empty())) {
    return review_error(400,
                        "send {\"server\", \"kind\", \"key\", \"decision\": \"approve\", \"reject\" or \"forget\", "
                        "\"seenHash\": the definition shown (to approve)}");
  }
  if (decision == "forget") return forget_pin(req, server, key, *kind);
  // Approved for the definition the person was shown, or not at all; a rejection holds whatever
  // the upstream offers.
  auto decided = decision == "approve" ? state_.pins->approve(server, key, *kind, who(req), seen)
                                       : state_.pins->reject(server, key, *kind, who(req));
  if (!decided) return review_error(409, decided.error().message);
  MCP_LOG_WARN("gateway: {} {} '{}' of {} on the review page ({})", decision == "approve" ? "approved" : "rejected",
               item_noun(decided->kind), peer_text(decided->key), decided->server, req.peer);
  if (source_.decided) source_.decided(server);
  return review_response(200, "application/json",
                         json::serialize(json::object{{"server", decided->server}, {"key", decided->key}, {"state", to_string(decided->state)}}));
}

http::PlainResponse ReviewPage::forget_pin(const http::PlainRequest& req, const std::string& server,
                                           const std::string& key, ListKind kind) {
  // As `mcp-trust gateway forget` does: the pin goes (recorded), and the upstream is listed again,
  // so that the item, if still offered, is pinned afresh as a new one by its policy.
  auto forgot = state_.pins->forget(server, key, kind, who(req));
  if (!forgot) return review_error(409, forgot.error().message);
  MCP_LOG_WARN("gateway: forgot the pin of {} '{}' of {} on the review page ({})", item_noun(forgot->kind),
               peer_text(forgot->key), forgot->server, req.peer);
  if (source_.decided) source_.decided(server);
  return review_response(
      200, "application/json",
      json::serialize(json::object{{"server", forgot->server}, {"key", forgot->key}, {"state", "forgotten"}}));
}

http::PlainResponse ReviewPage::decide_call(const http::PlainRequest& req) {
  if (auto refused = access_.refuse_change(req)) return *refused;
  auto body = body_of(req);
  if (!body) return review_error(400, body.error().message);
  const auto* id = body->if_contains("id");
  const std::string decision = string_at(*body, "decision");
  if (!id || !id->is_int64() || (decision != "allow" && decision != "deny")) {
    return review_error(400, "send {\"id\": the call's number, \"decision\": \"allow\" or \"deny\"}");
  }
  const bool allow = decision == "allow";
  // Through the running gateway's approvals, so the waiting call goes on (or ends) at once.
  auto decided = state_.approvals ? state_.approvals->decide(id->as_int64(), allow, who(req))
                                  : state_.asks->decide(id->as_int64(), allow, who(req));
  if (!decided) return review_error(409, decided.error().message);
  return review_response(200, "application/json", json::serialize(to_json(*decided)));
}

std::map<std::string, http::RouteHandler> ReviewPage::routes() {
  auto self = shared_from_this();
  auto asset = [self](std::string_view type, std::string_view content) {
    return [self, type, content](const http::PlainRequest& req) {
      if (auto refused = self->access_.refuse_read(req, false)) return *refused;
      if (req.method != "GET" && req.method != "HEAD") return review_error(405, "use GET");
      return review_response(200, std::string(type), std::string(content));
    };
  };
  const std::string base(kReviewPath);
  return {
      {base, asset("text/html; charset=utf-8", kReviewAsset_page_html)},
      {base + "/app.js", asset("text/javascript; charset=utf-8", kReviewAsset_app_js)},
      {base + "/app.css", asset("text/css; charset=utf-8", kReviewAsset_app_css)},
      {base + "/api/state",
       [self](const http::PlainRequest& req) {
         if (auto refused = self->access_.refuse_read(req, true)) return *refused;
         if (req.method != "GET") return review_error(405, "use GET");
         return review_response(200, "application/json", json::serialize(self->snapshot()));
       }},
      {base + "/api/pins", [self](const http::PlainRequest& req) { return self->decide_pin(req); }},
      {base + "/api/calls", [self](const http::PlainRequest& req) { return self->decide_call(req); }},
  };
}

}  // namespace mcp::gateway
