// mcp/signature/reduction.hpp — the worst-case reduction of a tool's declared annotation variants,
// and the rule for which annotation objects a listed tool may carry.
//
// The proposal has tools/list show "a single annotation object representing the worst case (most
// permissive) combination", so a client that knows nothing of signatures sees the most
// conservative trust profile. Over the four behavioural hints, with the schema's defaults applied
// to a hint a variant leaves out (readOnlyHint false, destructiveHint true, idempotentHint false,
// openWorldHint true), the worst case is:
//   readOnlyHint    true only if every variant is read-only   (not read-only if any is not)
//   destructiveHint true if any variant is destructive
//   idempotentHint  true only if every variant is idempotent  (not idempotent if any is not)
//   openWorldHint   true if any variant is open-world
// A hint appears in the reduction when at least one variant states it. `title` is the first
// variant's that has one. Any other member (a hint from a later revision, whose "worse" direction
// we cannot know) is kept only when every variant has it with the same value.
// One declared object reduces to itself.
//
// Which objects a listed tool may carry (the checker's annotation rule): one equal to a declared
// object (members compared as sets, numbers as numbers), or one that means the same as the worst
// case: its four hints, defaults applied, equal the worst case's, and each other member equals that
// member of some declared object. The second clause is needed because the reduction of an array is
// not always one of its elements: [{"readOnlyHint":true,"openWorldHint":true},
// {"readOnlyHint":false,"openWorldHint":false}] reduces to {"readOnlyHint":false,"openWorldHint":true},
// and a server that follows the proposal must not be flagged for listing it. A tool declared
// without annotations may be listed without them, or with an object meaning the defaults.
//
// Thread-safety: plain values and free functions; an AnnotationSet is immutable once built.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/signature/signature.hpp"

namespace mcp {

// The four behavioural hints with the schema's defaults applied.
struct EffectiveHints {
  bool read_only = false;
  bool destructive = true;
  bool idempotent = false;
  bool open_world = true;
  friend bool operator==(const EffectiveHints&, const EffectiveHints&) = default;
};

EffectiveHints effective_hints(const ToolAnnotations& a);

// The worst case of `declared` (see above). Requires a non-empty span.
ToolAnnotations worst_case_annotations(std::span<const ToolAnnotations> declared);

// What tools/list shows for a declared tool when nothing more specific is chosen: nothing when the
// signature declares no annotations, the object when it declares one, the worst case otherwise.
std::optional<ToolAnnotations> listed_annotations(const SignatureTool& tool);

// A tool's declared annotation objects, prepared for the per-listing check.
class AnnotationSet {
 public:
  explicit AnnotationSet(const std::vector<ToolAnnotations>& declared);

  // Whether a listed tool may carry `listed` (nullptr: the listing has no annotations).
  bool permits(const json::object* listed) const;
  const std::vector<json::object>& declared() const { return declared_; }
  // What tools/list shows by default (listed_annotations), as JSON; null when none is declared.
  const json::value& listed() const { return listed_; }
  // The declared objects as one line of JSON, for violation messages.
  std::string describe() const;

 private:
  std::vector<json::object> declared_;
  json::value listed_;
  EffectiveHints worst_;
};

}  // namespace mcp
