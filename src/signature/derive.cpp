#include "mcp/signature/derive.hpp"

#include <set>

#include "mcp/trust/json_equal.hpp"

namespace mcp {

namespace {

void add_variant(SignatureTool& st, const ToolAnnotations& a) {
  const json::value v = to_json(a);
  for (const auto& have : st.annotations)
    if (trust::canonically_equal(to_json(have), v)) return;
  st.annotations.push_back(a);
}

// Appends the items of `also` whose key is not taken yet.
template <class T, class KeyOf>
void append_missing(std::vector<T>& out, const std::vector<T>& also, KeyOf key_of) {
  std::set<std::string> have;
  for (const auto& x : out) have.insert(key_of(x));
  for (const auto& x : also)
    if (have.insert(key_of(x)).second) out.push_back(x);
}

}  // namespace

SignatureTool signature_tool(const Tool& tool, const std::vector<ToolAnnotations>& variants) {
  SignatureTool st;
  st.tool = tool;
  st.tool.annotations.reset();
  if (tool.annotations) st.annotations.push_back(*tool.annotations);
  for (const auto& v : variants) add_variant(st, v);
  st.annotations_array = st.annotations.size() > 1;
  return st;
}

ServerSignature derive_signature(const std::vector<Tool>& tools, const std::vector<Prompt>& prompts,
                                 const std::vector<Resource>& resources,
                                 const std::vector<ResourceTemplate>& resource_templates,
                                 const SignatureDeclarations& declarations) {
  static const std::vector<ToolAnnotations> kNone;
  auto variants_of = [&](const std::string& name) -> const std::vector<ToolAnnotations>& {
    auto it = declarations.tool_variants.find(name);
    return it == declarations.tool_variants.end() ? kNone : it->second;
  };
  ServerSignature s;
  std::set<std::string> registered;
  for (const auto& t : tools) {
    if (!registered.insert(t.name).second) continue;
    s.tools.push_back(signature_tool(t, variants_of(t.name)));
  }
  for (const auto& st : declarations.also.tools) {
    if (!registered.insert(st.tool.name).second) continue;
    SignatureTool copy = st;
    for (const auto& v : variants_of(st.tool.name)) add_variant(copy, v);
    copy.annotations_array = copy.annotations_array || copy.annotations.size() > 1;
    s.tools.push_back(std::move(copy));
  }
  // Keys are unique in a signature, so a repeated key (a list observed from a careless server)
  // keeps its first occurrence.
  auto prompt_key = [](const Prompt& p) { return p.name; };
  auto resource_key = [](const Resource& r) { return r.uri; };
  auto template_key = [](const ResourceTemplate& t) { return t.uri_template; };
  append_missing(s.prompts, prompts, prompt_key);
  append_missing(s.prompts, declarations.also.prompts, prompt_key);
  append_missing(s.resources, resources, resource_key);
  append_missing(s.resources, declarations.also.resources, resource_key);
  append_missing(s.resource_templates, resource_templates, template_key);
  append_missing(s.resource_templates, declarations.also.resource_templates, template_key);
  s.extra = declarations.also.extra;
  return s;
}

}  // namespace mcp
