// mcp/signature/signature.hpp — capability signatures (SEP-2091): the complete universe of what a
// server could ever list in a session, with every annotation variant of every tool.
//
// Wire form, exactly as the proposal writes it (grammar: docs/wire/capability-signature.md):
//
//   ServerSignature = { "tools"?: SignatureTool[], "prompts"?: Prompt[],
//                       "resources"?: Resource[], "resourceTemplates"?: ResourceTemplate[] }
//   SignatureTool   = Tool, except "annotations"?: ToolAnnotations | ToolAnnotations[]
//
// It travels in InitializeResult.signature (advertised by capabilities.signature.inInitialize) and
// in the server card (capabilities.signature.inServerCard, mcp/signature/card.hpp). An absent list
// means the empty list: the signature is a complete declaration, so a list it does not mention may
// only ever be empty.
//
// Received signatures are untrusted input: parse_server_signature enforces SignatureLimits (size,
// item count, variants per tool, nesting) before anything else and fails with a clear error naming
// the limit, so a hostile server cannot make a client spend unbounded memory or time on it.
//
// Thread-safety: plain values and free functions; copy freely, call concurrently.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/prompt.hpp"
#include "mcp/protocol/resource.hpp"
#include "mcp/protocol/tool.hpp"

namespace mcp {

// A tool as a signature declares it. `tool.annotations` is not used (to_json ignores it); the
// declared possibilities are `annotations`.
struct SignatureTool {
  Tool tool{};
  // Every annotation object the tool may be listed with. Empty: the signature declares none, and
  // the tool may only be listed without annotations (or with an object meaning the defaults).
  std::vector<ToolAnnotations> annotations{};
  // The wire form of `annotations`: an array (true) or one object (false). Kept so that a
  // signature read and written again has the same canonical bytes; an array of one stays an array.
  bool annotations_array = false;
};

struct ServerSignature {
  std::vector<SignatureTool> tools{};
  std::vector<Prompt> prompts{};
  std::vector<Resource> resources{};
  std::vector<ResourceTemplate> resource_templates{};  // "resourceTemplates"
  json::object extra{};  // members a later revision may add; kept, and covered by canonical bytes

  std::size_t item_count() const {
    return tools.size() + prompts.size() + resources.size() + resource_templates.size();
  }
  // Lookups by key (tool or prompt name, resource URI, template); nullptr when not declared. Linear:
  // for hot paths build a SignatureChecker, which indexes.
  const SignatureTool* find_tool(std::string_view name) const;
  const Prompt* find_prompt(std::string_view name) const;
  const Resource* find_resource(std::string_view uri) const;
  const ResourceTemplate* find_resource_template(std::string_view uri_template) const;
};

// Limits on a received signature. Each has a default generous for real servers (a 1,000-tool
// signature with large schemas is ~2 MB) and small enough that refusing beyond it is safe.
struct SignatureLimits {
  std::size_t max_bytes = std::size_t{4} << 20;  // serialized size; default 4 MiB, a stdio line's limit
  std::size_t max_items = 10'000;                // tools + prompts + resources + templates
  std::size_t max_annotation_variants = 64;      // per tool
  std::size_t max_depth = 64;                    // nesting of arrays and objects
};

// Parses a signature (the value of InitializeResult.signature or of a card's "signature"). Fails
// with -32602 and a message naming the path ("signature.tools[2].annotations[1]: expected an
// object") or the limit exceeded ("signature is 5000000 bytes, over the limit of 4194304
// (SignatureLimits::max_bytes)"; such errors carry data {"limit": "max_bytes"}, naming the limit).
// Duplicate keys within a list (two tools named alike) are errors.
[[nodiscard]] Result<ServerSignature> parse_server_signature(const json::value& v, const SignatureLimits& limits = {});
// The same from JSON text: the size limit is checked before parsing, and the text is parsed
// strictly (duplicate member names, lone surrogates and invalid UTF-8 are errors; mcp/trust/jcs.hpp).
[[nodiscard]] Result<ServerSignature> parse_server_signature_text(std::string_view text, const SignatureLimits& limits = {});

// The serialized size of `v` if it is within limits, else the error parse_server_signature gives.
[[nodiscard]] Result<std::size_t> check_signature_limits(const json::value& v, const SignatureLimits& limits);

// RFC 8785 canonical bytes of to_json(signature): what a detached signature covers, what the card
// and the in-band copy must agree on, and what the digest hashes.
[[nodiscard]] Result<std::string> signature_canonical_bytes(const ServerSignature& signature);
// "sha256:<64 lowercase hex>" of signature_canonical_bytes.
[[nodiscard]] Result<std::string> signature_digest(const ServerSignature& signature);
// True when both have the same canonical bytes (so key order, 1 vs 1.0, and an absent vs an empty
// list do not matter).
bool same_signature(const ServerSignature& a, const ServerSignature& b);

json::value to_json(const SignatureTool&);
json::value to_json(const ServerSignature&);
// from_json<ServerSignature> is parse_server_signature with default limits.
template <> Result<SignatureTool> from_json<SignatureTool>(const json::value&);
template <> Result<ServerSignature> from_json<ServerSignature>(const json::value&);
}  // namespace mcp
