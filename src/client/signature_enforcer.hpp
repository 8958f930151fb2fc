// Private: the client's side of capability signatures: reads the signature at initialize, runs the
// checker on every list result, and applies the enforcement mode (mcp/client/signature_policy.hpp).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "mcp/client/signature_policy.hpp"
#include "mcp/client/stage.hpp"

namespace mcp {

// The client's "signature" stage (mcp/client/stage.hpp).
class SignatureEnforcer final : public ClientStage {
 public:
  explicit SignatureEnforcer(SignaturePolicy policy) : policy_(std::move(policy)) {}
  std::string_view name() const override { return "signature"; }

  // The initialize result, as received. An error means strict mode refuses the session.
  Result<void> on_initialize(const json::object& result) override;
  // Once strict mode has ended the session, every call fails with why.
  Result<void> on_request(std::string_view method, json::object& params) override;
  // One list result; `complete` as SignatureChecker::check_list. An error means strict mode ends
  // the session.
  Result<void> on_list(ListKind kind, const json::value& result, bool complete, ClientStageHost& host) override;
  // Children (SEP-2093) are held to the signature item by item: declared (a resource expanding a
  // declared template is), never frozen. Without a signature, nothing to hold them to.
  Result<void> on_children(const std::string& parent, const json::value& result) override;

  // The error every call returns once strict mode has ended the session.
  std::optional<Error> fatal() const;
  std::shared_ptr<const ServerSignature> signature() const;
  std::vector<SignatureViolation> violations() const;
  std::vector<DeclaredItem> available_if_enabled() const;

 private:
  // Records and reports `found` according to the mode.
  Result<void> report(std::vector<SignatureViolation> found);
  void use(std::shared_ptr<const ServerSignature> signature);

  const SignaturePolicy policy_;
  mutable std::mutex mu_;
  std::shared_ptr<SignatureChecker> checker_;  // null: nothing is checked
  std::vector<SignatureViolation> violations_;
  std::optional<Error> fatal_;
};

}  // namespace mcp
