// Private to the gateway: /mcp, every upstream's items on one Server. Tools and prompts are named
// NAME__item (NAME the upstream's name in the configuration, which may not hold "__" nor end with
// "_", so the first "__" is the separator); a name longer than kMaxAggregateName is shortened
// deterministically: cut (at a UTF-8 character's start), then "_" and 10 hex digits of
// the SHA-256 of the whole name, so the same item always gets the same name and two long names
// that share a beginning still differ. Resources and resource templates keep their URIs (a URI
// names itself); when two upstreams list the same one, the first to list it serves it and the
// other's is left out, with a warning. The mapping back to (upstream, item) is kept here.
//
// Each request goes through the upstream's own Proxy (its policy, its pins, its audit records and
// metrics: aggregate_stage admits it with Proxy::admission), so an item quarantined at
// /servers/NAME/mcp is quarantined here too, with the same error naming the upstream's own key
// (what `mcp-trust gateway approve` takes). tools/manifest is signed with the gateway's key.
//
// Its capability signature is the union of the upstreams' (each the configured one, or the one
// derived from what is approved), under the names served here, without what another upstream
// holds here; rebuilt whenever one of them changes, and carried in the card for /mcp.
//
// Thread-safety: the observer calls come from each proxy's refresh (any thread); the Server serves
// on its own threads; the mapping is under a mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gateway/proxy.hpp"

namespace mcp::gateway {

inline constexpr std::size_t kMaxAggregateName = 128;  // MCP's tool names: 1 to 128 characters

// NAME__item, shortened as above.
std::string aggregate_name(const std::string& upstream, const std::string& item);

class Aggregate final : public ProxyObserver, public std::enable_shared_from_this<Aggregate> {
 public:
  // `key` (may be null) signs tools/manifest. `audit` (may be null) records the requests refused
  // here, counted in `metrics` (may be null); those forwarded are their proxy's to record.
  static std::shared_ptr<Aggregate> make(std::shared_ptr<const trust::Ed25519SecretKey> key,
                                         std::shared_ptr<AuditLog> audit = nullptr, std::shared_ptr<Metrics> metrics = nullptr);
  // The server a refusal of a name no upstream serves here is recorded under.
  static constexpr std::string_view kUnmatchedServer = "/mcp";
  std::shared_ptr<Server> server() const { return server_; }
  // Serves `proxy`'s items too, now and as they change.
  void add(const std::shared_ptr<Proxy>& proxy);
  // Stops serving them (the upstream is retired by a reload).
  void remove(Proxy& proxy);

  // ProxyObserver
  void served(Proxy& proxy, ListKind kind, const std::string& key, const json::object& definition) override;
  void unserved(Proxy& proxy, ListKind kind, const std::string& key) override;
  void changed(Proxy& proxy, ListKind kind) override;
  void resource_updated(Proxy& proxy, const std::string& uri) override;
  void vouched(Proxy& proxy) override;
  std::optional<Server::ChangeBatch> batch_changes() override { return server_->batch_changes(); }

  // Where an item served here comes from: its upstream's proxy and its key there.
  struct Origin {
    std::weak_ptr<Proxy> proxy;
    std::string key;
  };
  std::optional<Origin> origin(ListKind kind, const std::string& key) const;

 private:
  Aggregate() = default;
  std::string served_key(const Proxy& proxy, ListKind kind, const std::string& key) const;

  std::shared_ptr<Server> server_;
  mutable std::mutex mu_;
  std::map<ListKind, std::map<std::string, Origin>> origins_;  // served key -> origin
  std::vector<std::weak_ptr<Proxy>> members_;                  // every proxy added, for the signature
  std::string signature_json_;                                 // the one served, serialized
  detail::LogBudget warnings_;  // one per item served twice or not at all: upstreams decide how many
  // Serves the union of the members' signatures (under mu_).
  void vouch_locked();
};

}  // namespace mcp::gateway
