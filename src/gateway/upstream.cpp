#include "gateway/upstream.hpp"

#include <algorithm>
#include <iostream>
#include <set>

#include "gateway/upstream_log.hpp"
#include "log/log.hpp"
#include "mcp/log.hpp"
#include "mcp/http/card_fetch.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/stdio/child_process.hpp"
#include "session/thread_name.hpp"

namespace mcp::gateway {

namespace {

constexpr std::chrono::milliseconds kFirstBackoff{500};
constexpr std::chrono::milliseconds kMaxBackoff{30'000};
constexpr std::chrono::seconds kStableUptime{30};
// Pages of one list the gateway reads from an upstream (each at most the client's message limit).
constexpr std::size_t kMaxPages = 100;
// An upstream's list of one kind, in bytes, as the gateway reads it: it keeps several copies of
// what it mirrors (the items, their pins, the Server's registry, /mcp's), so a list is bounded in
// bytes, not only in pages (8 MiB: 10,000 tools of ~800 bytes each).
constexpr std::size_t kMaxListBytes = 8 << 20;
// Distinct violations of its signature or manifest recorded per connection to an upstream.
constexpr std::size_t kMaxRecordedViolations = 1000;

Result<std::shared_ptr<Transport>> open_transport(const UpstreamConfig& c) {
  if (!c.is_stdio()) {
    http::HttpClientOptions ho;
    ho.url = c.url;
    ho.headers = c.headers;
    // A call relayed from the gateway's HTTP front runs its upstream exchange on the front's I/O
    // thread that took it: no hand-off to the client's loop and back (bench/RESULTS.md).
    ho.run_on_server_loops = true;
    auto t = http::HttpClientTransport::create(std::move(ho));
    if (!t) return fail(t.error());
    return std::shared_ptr<Transport>(*t);
  }
  ChildProcessOptions cp;
  cp.program = c.command;
  cp.args = c.args;
  cp.env = c.env;
  cp.cwd = c.cwd;
  // The upstream's stderr is the gateway's, each line naming the upstream it came from (a field of
  // its own in JSON logs). The upstream wrote it: each line is cut to UpstreamLog::kMaxBytes with
  // its control characters escaped (no terminal escape reaches the gateway's stderr), and a flood
  // is held to UpstreamLog's rate, the next line written saying how many were dropped.
  auto budget = std::make_shared<detail::LogBudget>(UpstreamLog::kBurst, UpstreamLog::kPerSecond);
  cp.on_stderr = [name = c.name, budget](const std::string& line) {
    if (auto taken = budget->take())
      log_passthrough(name, peer_text(line, UpstreamLog::kMaxBytes) + detail::dropped_note(*taken));
  };
  auto t = ChildProcessTransport::spawn(std::move(cp));
  if (!t) return fail(t.error());
  return std::shared_ptr<Transport>(*t);
}

}  // namespace

Result<std::shared_ptr<Client>> Upstream::connect(std::uint64_t generation) {
  ClientOptions co;
  co.info.name = "mcp-trust-gateway";
  co.session.request_timeout = config_.timeout;
  co.on_resource_updated = [shared = shared_](const std::string& uri) {
    std::shared_ptr<Proxy> p;
    {
      std::lock_guard lock(shared->mutex);
      p = shared->proxy.lock();
    }
    if (p) p->resource_updated(uri);
  };
  co.on_list_changed = [shared = shared_](const std::string&) {
    std::shared_ptr<Proxy> p;
    {
      std::lock_guard lock(shared->mutex);
      p = shared->proxy.lock();
    }
    if (p) p->refresh_later();
  };
  co.on_closed = [shared = shared_, generation](const std::optional<Error>& reason) {
    std::lock_guard lock(shared->mutex);
    if (shared->generation != generation || shared->closing) return;
    shared->down = true;
    shared->why = reason ? peer_text(reason->message, kMaxQuotedReasonBytes) : "the connection closed";
    shared->cv.notify_all();
  };
  co.max_pages = kMaxPages;
  co.max_list_bytes = kMaxListBytes;
  // What the upstream asks its client is asked of the client whose call it serves (bridge.hpp),
  // so the upstream is told the gateway's client can answer it; a client that cannot is refused
  // there, per request.
  auto bridged = [shared = shared_, timeout = config_.timeout](std::string method) {
    return [shared, timeout, method](const json::object& params, const CancellationToken& cancel) -> Result<json::value> {
      std::shared_ptr<Proxy> p;
      {
        std::lock_guard lock(shared->mutex);
        p = shared->proxy.lock();
      }
      if (!p) return fail(Error::internal(method + " refused by mcp-trust gateway: no call is in flight"));
      return p->bridge().ask(method, params, cancel, timeout);
    };
  };
  co.on_sampling = bridged(std::string(method::kSamplingCreateMessage));
  // Roots are the configured ones: one session serves every client, so no client's own roots
  // could be the upstream's (config.hpp).
  if (!config_.roots.empty()) {
    co.on_roots = [roots = config_.roots](const json::object&, const CancellationToken&) -> Result<json::value> {
      return to_json(ListRootsResult{.roots = roots});
    };
  }
  co.on_log = [log = std::make_shared<UpstreamLog>(config_.name)](const LoggingMessageNotificationParams& m) { log->write(m); };
  co.sampling_tools = true;
  co.on_elicitation = bridged(std::string(method::kElicitationCreate));
  co.elicitation_url = true;
  // The upstream held to its own signature and manifest: what breaks them is dropped (strict) or
  // let through (permissive, advisory), and recorded either way: each distinct violation once per
  // connection, at most kMaxRecordedViolations (an upstream re-listing a broken list every second
  // must not grow the audit log without end).
  struct Recorded {
    std::mutex mu;
    std::set<std::string> seen;
  };
  auto record_violation = [audit = audit_, name = config_.name, recorded = std::make_shared<Recorded>()](const SignatureViolation& v) {
    {
      std::lock_guard lock(recorded->mu);
      if (recorded->seen.size() >= kMaxRecordedViolations) return;
      if (!recorded->seen.insert(v.rule + '\n' + peer_text(v.item, 1024) + '\n' + peer_text(v.field, 64)).second) return;
    }
    MCP_LOG_WARN("gateway {}: the upstream broke its word: {}", name, peer_text(v.describe()));
    (void)audit->append("violation",
                        json::object{{"server", name}, {"rule", v.rule}, {"item", peer_text(v.item, 1024)},
                                     {"field", peer_text(v.field, 64)}, {"detail", peer_text(v.detail)}},
                        Db::Durability::process_crash);
  };
  if (config_.upstream_signature || config_.card_key) {
    SignaturePolicy sp;
    sp.mode = config_.upstream_signature.value_or(EnforcementMode::strict);
    sp.on_violation = record_violation;
    if (config_.card_key) {
      // Before each connection: the card says what the upstream may ever offer, and its proof
      // says who said so. The session is then held to that signature (initialize must agree).
      auto card = verified_card();
      if (!card) {
        record_violation(SignatureViolation{.rule = "card-proof", .detail = card.error().message});
        return fail(Error::internal(config_.name + ": " + card.error().message));
      }
      sp.expected = std::move(*card);
    }
    co.signature_policy = std::move(sp);
  }
  if (config_.manifest_key) {
    ManifestPolicy mp;
    mp.mode = config_.manifest_mode;
    mp.public_key = *config_.manifest_key;
    mp.on_violation = record_violation;
    co.manifest = std::move(mp);
  }
  auto client = std::make_shared<Client>(co);
  {
    // close() must be able to end a connect that hangs (an upstream that never answers initialize).
    std::lock_guard lock(shared_->mutex);
    if (shared_->closing) return fail(Error::connection_closed(config_.name + ": the gateway is stopping"));
    shared_->connecting = client;
  }
  struct Forget {
    Shared& s;
    ~Forget() {
      std::lock_guard lock(s.mutex);
      s.connecting.reset();
    }
  } forget{*shared_};
  auto transport = open_transport(config_);
  if (!transport) return fail(Error::internal(config_.name + ": cannot start the upstream: " + transport.error().message));
  if (auto init = client->connect(*transport); !init) {
    client->shutdown();
    return fail(Error::internal(config_.name + ": the upstream did not initialize: " + init.error().message));
  }
  if (config_.log_level && client->server_supports("logging")) {
    // A refusal costs only the upstream's messages: the upstream is served anyway.
    if (auto ok = client->set_log_level(*config_.log_level); !ok)
      MCP_LOG_WARN("gateway {}: the upstream refused logging/setLevel: {}", config_.name,
                   peer_text(ok.error().message));
  }
  return client;
}

Result<ServerSignature> Upstream::verified_card() const {
  http::HttpClientOptions ho;
  ho.url = config_.url;
  ho.headers = config_.headers;
  auto card = http::fetch_server_card(config_.url, ho);
  if (!card) return fail(Error::internal("its server card: " + card.error().message));
  const auto proof = verify_server_card(card->body, *config_.card_key);
  if (!proof.ok()) {
    return fail(Error::internal("its server card at " + card->url + " does not verify with the configured cardKey: " +
                                std::string(trust::to_string(proof.verdict)) +
                                (proof.detail.empty() ? "" : " (" + peer_text(proof.detail) + ")")));
  }
  return std::move(card->card.signature);
}

Result<std::unique_ptr<Upstream>> Upstream::start(const UpstreamConfig& config, const State& state,
                                                  const std::string& state_dir, std::shared_ptr<Metrics> metrics,
                                                  bool in_server_card, ServerOptions server_options) {
  std::unique_ptr<Upstream> u(new Upstream(config, state.audit));
  auto client = u->connect(0);
  if (!client) return fail(client.error());
  ProxyOptions po;
  po.name = config.name;
  po.new_items = config.new_items.value_or(NewItems::allow);
  po.state_dir = state_dir;
  po.policy = config.policy;
  po.approvals = state.approvals;
  po.ask_timeout = config.ask_timeout;
  po.metrics = std::move(metrics);
  po.signature = config.signature;
  po.key = state.key;
  po.in_server_card = in_server_card;
  server_options.info.name = "mcp-trust-gateway/" + config.name;
  // Subscriptions are forwarded (Proxy::watch): offered only if the upstream offers them.
  server_options.resource_subscriptions = (*client)->server_supports("resources.subscribe");
  auto proxy = Proxy::start(*client, state.pins, state.audit, std::move(po), std::move(server_options));
  if (proxy && !config.profiles.empty()) {
    if (auto ok = (*proxy)->server()->set_profiles(config.profiles); !ok) proxy = fail(ok.error());
  }
  if (!proxy) {
    (*client)->shutdown();
    return fail(Error::internal(config.name + ": " + proxy.error().message));
  }
  u->proxy_ = *proxy;
  {
    std::lock_guard lock(u->shared_->mutex);
    u->shared_->proxy = u->proxy_;
  }
  u->restarter_ = std::jthread([raw = u.get()](std::stop_token stop) {
    mcp::detail::name_this_thread("mcp-restarter");
    raw->restart_loop(stop);
  });
  return u;
}

void Upstream::restart_loop(std::stop_token stop) {
  auto backoff = kFirstBackoff;
  auto up_since = std::chrono::steady_clock::now();
  std::unique_lock lock(shared_->mutex);
  for (;;) {
    shared_->cv.wait(lock, stop, [&] { return shared_->down; });
    if (stop.stop_requested()) return;
    // Only an upstream that stayed up a while starts again quickly: one that crashes right after
    // starting (on initialize, on its first list) backs off further each time.
    if (std::chrono::steady_clock::now() - up_since >= kStableUptime) backoff = kFirstBackoff;
    const std::string why = shared_->why;
    lock.unlock();
    MCP_LOG_WARN("gateway {}: the upstream's connection ended ({}); starting it again in {} ms", config_.name, why,
                 backoff.count());
    (void)audit_->append("upstream", json::object{{"server", config_.name}, {"event", "exited"}, {"why", peer_text(why)}},
                        Db::Durability::process_crash);
    lock.lock();
    // The backoff is a real wait (not a test's): a crashing upstream must not be restarted in a loop.
    if (shared_->cv.wait_for(lock, stop, backoff, [] { return false; }); stop.stop_requested()) return;
    const std::uint64_t generation = ++shared_->generation;
    shared_->down = false;
    lock.unlock();
    auto client = connect(generation);
    if (!client) {
      MCP_LOG_ERROR("gateway {}: restart failed: {}", config_.name,
                    peer_text(client.error().message, kMaxQuotedReasonBytes));
      backoff = std::min(backoff * 2, kMaxBackoff);
      lock.lock();
      if (shared_->generation == generation) {
        shared_->down = true;
        shared_->why = peer_text(client.error().message, kMaxQuotedReasonBytes);
      }
      continue;
    }
    up_since = std::chrono::steady_clock::now();
    backoff = std::min(backoff * 2, kMaxBackoff);  // back to the first only once it stays up
    auto old = proxy_->upstream();
    proxy_->set_upstream(*client);
    ++restarts_;
    if (auto ok = proxy_->refresh(); !ok)
      MCP_LOG_ERROR("gateway {}: re-listing after a restart failed: {}", config_.name, peer_text(ok.error().message));
    proxy_->resubscribe();
    // A restarted upstream may offer other things: clients should list again.
    proxy_->announce_lists();
    (void)audit_->append("upstream", json::object{{"server", config_.name}, {"event", "restarted"}, {"restarts", restarts_.load()}},
                        Db::Durability::process_crash);
    // Waits for the old client's callbacks (a call's answer holding the proxy) to finish.
    old->shutdown();
    lock.lock();
  }
}

Upstream::~Upstream() { close(); }

std::string Upstream::status() const {
  std::lock_guard lock(shared_->mutex);
  if (shared_->closing) return "stopped";
  return shared_->down ? "restarting: " + shared_->why : "connected";
}

void Upstream::close() {
  std::shared_ptr<Client> connecting;
  {
    std::lock_guard lock(shared_->mutex);
    if (shared_->closing) return;
    shared_->closing = true;
    connecting = shared_->connecting;
  }
  if (connecting) connecting->close();  // a restart stuck connecting ends now
  restarter_.request_stop();
  if (restarter_.joinable()) restarter_.join();
  // Blocking: once it returns no callback of the client holds the proxy, so the proxy (and the
  // client with it) is released here, on the owner's thread, never on the client's own reader
  // thread (where ~Client would wait for itself).
  if (proxy_) proxy_->upstream()->shutdown();
}

}  // namespace mcp::gateway
