#include "relay_floor.hpp"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "gateway/call_record.hpp"
#include "http/frame_peek.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/trust/jcs.hpp"

namespace bench {

namespace {

using namespace mcp;
using Clock = std::chrono::steady_clock;

// One request the front sent, until the upstream answers it.
struct Pending {
  jsonrpc::Id front_id;
  Clock::time_point started;
  std::string item;    // a tools/call's tool; empty for anything else
  std::string digest;  // a tools/call's arguments' digest
};

class Relay : public std::enable_shared_from_this<Relay> {
 public:
  Relay(std::shared_ptr<Transport> front, std::shared_ptr<Transport> upstream, RelayFloorTrust trust)
      : front_(std::move(front)), upstream_(std::move(upstream)), trust_(std::move(trust)) {}

  void start() {
    // The callbacks hold the relay and the relay the transports: the bench keeps both until it exits.
    auto self = shared_from_this();
    auto closed = [self](std::optional<Error>) {
      self->front_->close();
      self->upstream_->close();
    };
    (void)upstream_->start({.on_message = [self](std::string frame) { self->from_upstream(std::move(frame)); },
                            .on_close = closed});
    (void)front_->start({.on_message = [self](std::string frame) { self->from_front(std::move(frame)); },
                         .on_close = closed});
  }

 private:
  void refuse(const jsonrpc::Id& id, const Error& e) {
    (void)front_->send(jsonrpc::encode_error(id, e), SendInfo{.kind = SendInfo::Kind::response, .related_id = id});
  }

  void from_front(std::string frame) {
    auto message = jsonrpc::decode(frame);
    if (!message) return;  // a floor: a real relay answers the failure
    auto* request = std::get_if<jsonrpc::Request>(&*message);
    if (!request) {  // notifications and answers to the upstream's requests go on as they are
      (void)upstream_->send(std::move(frame), SendInfo{});
      return;
    }
    Pending pending{.front_id = request->id, .started = Clock::now()};
    if (request->method == method::kToolsCall && request->params) {
      const json::value* name = request->params->if_contains("name");
      if (!name || !name->is_string()) return refuse(request->id, Error::invalid_params("no name"));
      pending.item = std::string(name->get_string());
      if (auto denied = gateway::policy_refusal(trust_.policy, trust_.server, Target{ListKind::tools, pending.item}))
        return refuse(request->id, *denied);
      auto pin = trust_.pins->state(trust_.server, ListKind::tools, pending.item);
      if (!pin || !*pin) return refuse(request->id, Error::invalid_params("not pinned"));
      const json::value* arguments = request->params->if_contains("arguments");
      pending.digest = gateway::arguments_digest(arguments && arguments->is_object()
                                                     ? trust::canonicalize(arguments->get_object())
                                                     : trust::canonicalize(json::object{}));
    }
    std::int64_t id;
    {
      std::lock_guard lock(mu_);
      id = ++next_id_;
      pending_.emplace(id, std::move(pending));
    }
    request->id = id;
    (void)upstream_->send(jsonrpc::encode_request(request->id, request->method, request->params ? &*request->params : nullptr),
                          SendInfo{.kind = SendInfo::Kind::request});
  }

  void from_upstream(std::string frame) {
    const http::FramePeek peek = http::peek_frame(frame);
    if (peek.has_method || !peek.id || !peek.id->is_int64()) {  // the upstream's requests and notifications
      (void)front_->send(std::move(frame), SendInfo{});
      return;
    }
    const std::int64_t id = peek.id->as_int64();
    Pending pending;
    {
      std::lock_guard lock(mu_);
      auto it = pending_.find(id);
      if (it == pending_.end()) return;
      pending = std::move(it->second);
      pending_.erase(it);
    }
    // The front's id back into the answer's text. Our upstream writes `"id":N` with no space; a
    // real relay would take the id's offset from its event parser rather than search.
    const std::string ours = "\"id\":" + std::to_string(id);
    if (auto at = frame.find(ours); at != std::string::npos) frame.replace(at + 5, ours.size() - 5, jsonrpc::id_key(pending.front_id));
    if (!pending.item.empty()) {
      const auto latency = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - pending.started);
      const std::string_view outcome = peek.has_error ? "error" : "ok";
      trust_.metrics->observe(trust_.server, method::kToolsCall, outcome, latency);
      auto text = gateway::call_record_text(gateway::CallRecord{.server = trust_.server,
                                                                .method = method::kToolsCall,
                                                                .item = pending.item,
                                                                .arguments = pending.digest,
                                                                .latency_us = latency.count(),
                                                                .outcome = outcome});
      if (!text || !trust_.audit->append_call_canonical(*text))
        return refuse(pending.front_id, Error::internal("the call could not be recorded"));
    }
    (void)front_->send(std::move(frame), SendInfo{.kind = SendInfo::Kind::response, .related_id = pending.front_id});
  }

  std::shared_ptr<Transport> front_, upstream_;
  RelayFloorTrust trust_;
  std::mutex mu_;
  std::int64_t next_id_ = 0;
  std::unordered_map<std::int64_t, Pending> pending_;
};

}  // namespace

void start_relay_floor(std::shared_ptr<Transport> front, std::shared_ptr<Transport> upstream, RelayFloorTrust trust) {
  std::make_shared<Relay>(std::move(front), std::move(upstream), std::move(trust))->start();
}

}  // namespace bench
