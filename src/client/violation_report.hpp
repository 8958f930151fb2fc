// Private: what the capability-signature and signed-manifest enforcers do with violations, in one
// place: record them, hand each to the callback, log in permissive mode, and in strict mode build
// the session-ending error (its data lists every violation) and remember it as fatal.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "mcp/error.hpp"
#include "mcp/signature/checker.hpp"

namespace mcp::detail {

struct ViolationSink {
  std::mutex& mu;                                   // guards `violations` and `fatal`
  std::vector<SignatureViolation>& violations;
  std::optional<Error>& fatal;
  EnforcementMode mode;
  const std::function<void(const SignatureViolation&)>& on_violation;
  int error_code;         // kSignatureViolationCode or kManifestViolationCode
  std::string_view what;  // "capability signature violation", "signed manifest violation"
};

// An error in strict mode when `found` is not empty; success otherwise.
Result<void> report_violations(const ViolationSink& sink, std::vector<SignatureViolation> found);

}  // namespace mcp::detail
