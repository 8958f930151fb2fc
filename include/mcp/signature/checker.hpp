// mcp/signature/checker.hpp — holding list results to a capability signature, or, without one, to
// the first lists seen (schema freezing); and the enforcement modes that decide what a violation does.
//
// Rules (docs/wire/capability-signature.md has them with examples). For each item of a tools/list,
// prompts/list, resources/list or resources/templates/list result, keyed by name (tools, prompts),
// uri (resources) or uriTemplate (templates):
//   completeness            the item is declared in the signature                 field: the key
//   annotation-completeness a tool's annotations are permitted by its declared set
//                           (mcp/signature/reduction.hpp: a declared object, or the worst case)
//                                                                                  field: annotations
//   definition              with CheckOptions::hold_definitions (the client's strict mode), the
//                           item's definition equals the signature's:
//                             tools: title, description, inputSchema, outputSchema
//                             prompts: title, description, arguments
//                             resources, templates: name, title, description, mimeType
//                           description is skipped with CheckOptions::relax_descriptions, the
//                           documented per-server setting for servers that generate descriptions.
//                                                                                  field: that field
//   schema-freezing         (no signature) the first lists are pinned whole, `_meta` aside:
//                           a later item not pinned, an item whose any member differs, and an item
//                           missing from a later complete list are violations.   field: the member
// Items may be missing (a list may be any subset of the signature, rule "Subsets Permitted"), and
// may come and go between lists.
// Whole-session rules, reported by the client (mcp/client/client.hpp) with the same type:
//   stability    the signature from initialize differs from the one expected (card or file)
//   limits       a signature over SignatureLimits, refused
//   malformed    a signature or list result that does not parse
//   required     no signature, and the policy requires one
//
// Thread-safety: all members are thread-safe (state is guarded by an internal mutex).
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/list_kind.hpp"
#include "mcp/protocol/uri_template.hpp"
#include "mcp/signature/reduction.hpp"
#include "mcp/signature/signature.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp {

// What a client does with a violation (the proposal's "Enforcement Modes").
enum class EnforcementMode {
  strict,      // the session ends with an error naming the item and the field
  permissive,  // logged with the same detail; the session goes on
  advisory,    // only reported (callback and accessor); nothing is logged
};
std::string_view to_string(EnforcementMode mode);  // "strict", "permissive", "advisory"
std::optional<EnforcementMode> parse_enforcement_mode(std::string_view text);

// The JSON-RPC error code of a call refused because of a violation in strict mode (SDK-local,
// in the implementation-defined server-error range).
inline constexpr int kSignatureViolationCode = -32060;

namespace signature_rule {
inline constexpr std::string_view kCompleteness = "completeness";
inline constexpr std::string_view kAnnotationCompleteness = "annotation-completeness";
inline constexpr std::string_view kDefinition = "definition";
inline constexpr std::string_view kSchemaFreezing = "schema-freezing";
inline constexpr std::string_view kStability = "stability";
inline constexpr std::string_view kLimits = "limits";
inline constexpr std::string_view kMalformed = "malformed";
inline constexpr std::string_view kRequired = "required";
}  // namespace signature_rule

struct SignatureViolation {
  std::string rule{};  // one of signature_rule
  std::optional<ListKind> kind{};  // the list it was found in; empty for a whole-signature problem
  std::string item{};    // the item's key; empty for a whole-signature problem
  std::string field{};   // the member that differs ("annotations", "description", "name", ...)
  std::string detail{};  // what differed, in words; quoted values are shortened
  // "tools/list: tool 'x', field 'annotations': <detail> [annotation-completeness]", or
  // "initialize: field 'signature': <detail> [stability]" for a whole-signature problem.
  std::string describe() const;
};
json::value to_json(const SignatureViolation& v);

struct CheckOptions {
  // Hold definitions (see "definition" above). The client sets it in strict mode.
  bool hold_definitions = true;
  // Leave descriptions out of "definition" and "schema-freezing": for servers whose descriptions
  // are generated per request. Per server; default false.
  bool relax_descriptions = false;
};

class SignatureChecker {
 public:
  // Holds lists to `signature`.
  SignatureChecker(std::shared_ptr<const ServerSignature> signature, CheckOptions options = {});
  // No signature: schema freezing.
  explicit SignatureChecker(CheckOptions options = {});
  ~SignatureChecker();
  SignatureChecker(const SignatureChecker&) = delete;
  SignatureChecker& operator=(const SignatureChecker&) = delete;

  bool has_signature() const { return signature_ != nullptr; }
  const std::shared_ptr<const ServerSignature>& signature() const { return signature_; }
  const CheckOptions& options() const { return options_; }

  // One item, without recording anything: the server runs this on what it is about to send.
  // Under freezing, compares with what is pinned (nothing is pinned by this call).
  std::vector<SignatureViolation> check_item(ListKind kind, const json::object& item) const;

  // A list result (the result object, {"tools": [...], "nextCursor"?}). `complete`: the result is
  // the whole list (asked without a cursor and no nextCursor came back, or pages joined), which
  // updates what is currently available and, under freezing, seals the pin and detects removals.
  std::vector<SignatureViolation> check_list(ListKind kind, const json::value& result, bool complete);
  // The same from the result's raw JSON bytes. When they hash (SHA-256) equal to the last result
  // of this kind found clean, the answer is "clean" without parsing: the cached path.
  std::vector<SignatureViolation> check_list_bytes(ListKind kind, std::string_view result_json, bool complete);

  // Keys declared in the signature but absent from the last complete list of `kind`, in signature
  // order: what a client can show as "available if enabled". Before the first complete list,
  // every declared key. Empty without a signature.
  std::vector<std::string> available_if_enabled(ListKind kind) const;

  // Whether `uri` expands one of the declared resource templates: such a resource is declared by
  // it (SEP-2091), whether listed, read or listed as a resource's child (SEP-2093).
  bool expands_declared_template(std::string_view uri) const;

  struct Declared;  // one declared item, prepared for checking (private)

 private:
  std::vector<SignatureViolation> check_declared(ListKind kind, const json::object& item, const std::string& key) const;
  // REQUIRES: mu_ held.
  std::vector<SignatureViolation> check_frozen(ListKind kind, const json::object& item, const std::string& key) const;

  std::shared_ptr<const ServerSignature> signature_;
  CheckOptions options_;
  // Index of the signature by kind and key; immutable after construction.
  std::array<std::unordered_map<std::string, std::shared_ptr<const Declared>>, 4> declared_;
  // The declared resource templates, parsed: a listed resource whose URI expands one of them is
  // within the signature (a server may list concrete instances of what it declared as a template).
  std::vector<UriTemplate> templates_;

  mutable std::mutex mu_;
  std::array<std::optional<std::set<std::string>>, 4> last_listed_;  // keys of the last complete list
  std::array<std::map<std::string, json::object>, 4> frozen_;         // freezing: pinned items
  std::array<bool, 4> sealed_{};                                      // freezing: first complete list seen
  struct CleanResult {
    trust::Sha256Digest digest;
    bool complete = false;
  };
  std::array<std::optional<CleanResult>, 4> clean_;  // the cached path: last clean result's digest
};

}  // namespace mcp
