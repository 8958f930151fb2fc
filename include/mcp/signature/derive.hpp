// mcp/signature/derive.hpp — a signature derived from what a server has registered, plus what it
// declares beyond that: more annotation variants of a tool, and items it may offer later.
//
// The proposal's reference implementation is to offer "server-side signature generation from
// registered capabilities". Registering is not enough to declare everything: a tool whose
// behaviour depends on its arguments has several annotation objects, and a tool loaded by a plugin
// mid-session is not registered at start-up. SignatureDeclarations carries both.
//
// Derivation per tool: the registered annotations first (if any), then each declared variant not
// equal to one already taken; one object stays an object, several become an array. Items keep
// their registration order; items of `also` not registered follow.
//
// Thread-safety: free functions over const inputs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "mcp/signature/signature.hpp"

namespace mcp {

struct SignatureDeclarations {
  // Annotation variants per tool name, beyond the registered tool's own annotations.
  std::map<std::string, std::vector<ToolAnnotations>> tool_variants{};
  // Items the server may list though they are not registered now. A registered item with the same
  // key takes precedence over the one here.
  ServerSignature also{};
};

// A signature tool for `tool` with `variants` added to its own annotations.
SignatureTool signature_tool(const Tool& tool, const std::vector<ToolAnnotations>& variants = {});

ServerSignature derive_signature(const std::vector<Tool>& tools, const std::vector<Prompt>& prompts,
                                 const std::vector<Resource>& resources,
                                 const std::vector<ResourceTemplate>& resource_templates,
                                 const SignatureDeclarations& declarations = {});

}  // namespace mcp
