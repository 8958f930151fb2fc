// mcp/client/signature_policy.hpp — how a Client holds a server to its capability signature
// (SEP-2091), set in ClientOptions::signature_policy.
//
// Where the signature comes from: InitializeResult.signature (the server's capability
// signature.inInitialize), or `expected` (a card fetched before connecting, a file written by
// `mcp-trust scan`). When both exist they must be canonically identical (rule "stability"); the
// expected one stays in force either way, since it is the one the trust decision was made on.
// Without either, the first lists are frozen (schema freezing), unless that is switched off.
//
// What is checked: every tools/list, prompts/list, resources/list and resources/templates/list
// result the client receives, with the rules of mcp/signature/checker.hpp; a list_changed prompts
// no check by itself, the next list does (call list_* again after on_list_changed, as
// `mcp-trust client ... watch` does). What happens on a violation is the mode:
//   strict      the call returns error kSignatureViolationCode naming the item and the field (its
//               data: {"violations": [...]}) and the session is closed; later calls return the
//               same error. At connect, a signature that is refused fails connect() the same way.
//   permissive  a warning is logged with the same description; the result is returned.
//   advisory    nothing is logged; the violation is only reported (on_violation, accessor).
// In every mode, violations reach on_violation and Client::signature_violations().
//
// Thread-safety: a plain value; copied into the client.
#pragma once

#include <functional>
#include <optional>

#include "mcp/signature/checker.hpp"
#include "mcp/signature/signature.hpp"

namespace mcp {

struct SignaturePolicy {
  EnforcementMode mode = EnforcementMode::strict;
  std::optional<ServerSignature> expected{};  // from a card or a file; see above
  bool freeze_without_signature = true;     // the proposal's fallback; false: no checks at all
  bool require_signature = false;           // a server without one is a violation (rule "required")
  // Hold descriptions, schemas and titles to the signature ("definition"); default: in strict mode only.
  std::optional<bool> hold_definitions{};
  // The per-server setting for servers that generate descriptions: descriptions are not held.
  bool relax_descriptions = false;
  SignatureLimits limits{};  // a larger signature is refused (rule "limits")
  // Every violation, in every mode, on the thread that made the call (or connect()).
  std::function<void(const SignatureViolation&)> on_violation;
};

// An item the signature declares but the last complete list did not contain: "available if enabled".
struct DeclaredItem {
  ListKind kind = ListKind::tools;
  std::string key{};  // name, URI or URI template
};

}  // namespace mcp
