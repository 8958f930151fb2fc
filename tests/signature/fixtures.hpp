// Shared test data for the signature tests: the proposal's File Manager signature and helpers.
#pragma once

#include <string>

#include "mcp/signature/signature.hpp"

namespace mcp::sigtest {

// The proposal's "Example signature in a Server Card", its "signature" member verbatim.
inline const char* kProposalSignature = R"({
  "tools": [
    {
      "name": "manage_files",
      "description": "Read or write files",
      "inputSchema": {
        "type": "object",
        "properties": {
          "operation": { "enum": ["read", "write", "delete"] },
          "path": { "type": "string" }
        }
      },
      "annotations": [
        { "destructiveHint": false, "readOnlyHint": true },
        { "destructiveHint": true, "readOnlyHint": false }
      ]
    }
  ]
})";

inline ServerSignature proposal_signature() {
  auto s = parse_server_signature_text(kProposalSignature);
  if (!s) throw std::runtime_error(s.error().message);
  return *s;
}

inline ToolAnnotations hints(std::optional<bool> read_only, std::optional<bool> destructive,
                             std::optional<bool> idempotent = {}, std::optional<bool> open_world = {}) {
  ToolAnnotations a;
  a.read_only_hint = read_only;
  a.destructive_hint = destructive;
  a.idempotent_hint = idempotent;
  a.open_world_hint = open_world;
  return a;
}

inline Tool tool(std::string name, std::string description = "a tool") {
  Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  return t;
}

// A signature of tools named `names`, each declared with `annotations` (none when empty).
inline ServerSignature tools_signature(std::initializer_list<std::string> names,
                                       std::vector<ToolAnnotations> annotations = {}) {
  ServerSignature s;
  for (const auto& n : names) {
    SignatureTool st;
    st.tool = tool(n);
    st.annotations = annotations;
    st.annotations_array = annotations.size() > 1;
    s.tools.push_back(std::move(st));
  }
  return s;
}

}  // namespace mcp::sigtest
