// Private: the client's side of signed tool manifests: fetches and verifies tools/manifest, holds
// every tools/list result to it, and applies the enforcement mode (mcp/client/manifest_policy.hpp).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "mcp/client/manifest_policy.hpp"
#include "mcp/client/stage.hpp"

namespace mcp {

// The client's "manifest" stage (mcp/client/stage.hpp).
class ManifestEnforcer final : public ClientStage {
 public:
  // Sends tools/manifest and returns its result (the client's session, bypassing the policies).
  using Fetch = std::function<Result<json::value>()>;

  explicit ManifestEnforcer(ManifestPolicy policy) : policy_(std::move(policy)) {}
  std::string_view name() const override { return "manifest"; }

  // Once notifications/initialized is sent: fetches and verifies the manifest if the server
  // advertises it. An error means strict mode refuses the session.
  Result<void> on_connected(const json::object& result, ClientStageHost& host) override;
  Result<void> on_request(std::string_view method, json::object& params) override;
  // tools/list results (a page, or all pages joined). An error means strict mode ends the session.
  Result<void> on_list(ListKind kind, const json::value& result, bool complete, ClientStageHost& host) override;
  // notifications/tools/list_changed: fetch the manifest again before the next check (not here:
  // this is the reader thread).
  void on_notification(const jsonrpc::Notification& notification) override;

  // on_connected and on_list, with the fetch spelled out.
  Result<void> verify_advertised(const json::object& result, const Fetch& fetch);
  Result<void> on_tools(const json::value& result, const Fetch& fetch);
  void mark_stale();

  std::optional<Error> fatal() const;
  // The last verification (any verdict); null before the first.
  std::shared_ptr<const trust::VerifyResult> last_verification() const;
  // The manifest in force: the last one verified valid; null if none.
  std::shared_ptr<const trust::ToolManifest> manifest() const;
  std::vector<SignatureViolation> violations() const;

 private:
  // A manifest verified valid, with its tools as received, by name.
  struct Verified {
    std::shared_ptr<const trust::VerifyResult> result;
    std::shared_ptr<const trust::ToolManifest> manifest;
    std::unordered_map<std::string, json::object> tools;
  };

  // Fetches and verifies; on valid, the manifest comes into force. Returns what went wrong.
  std::vector<SignatureViolation> refresh(const Fetch& fetch, std::optional<ListKind> during);
  // The listed tools that differ from `v`, or are absent from it.
  static std::vector<SignatureViolation> check(const json::value& result, const Verified& v);
  // Records and reports `found` according to the mode.
  Result<void> report(std::vector<SignatureViolation> found);
  std::shared_ptr<const Verified> verified() const;

  const ManifestPolicy policy_;
  mutable std::mutex mu_;
  bool advertised_ = false;
  std::optional<std::string> advertised_key_id_;
  bool stale_ = false;
  std::shared_ptr<const Verified> verified_;
  std::shared_ptr<const trust::VerifyResult> last_;
  std::vector<SignatureViolation> violations_;
  std::optional<Error> fatal_;
};

}  // namespace mcp
