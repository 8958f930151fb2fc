// Sample values of every protocol type, fully populated, for the schema-drift test
// (samples_main.cpp) and the unit tests. "Fully" matters: the drift check fails when a property the
// schema declares never appears in any sample of its definition, so a field added upstream and
// missing here (and in the structs) is noticed.
#pragma once

#include <variant>

#include "mcp/protocol/all.hpp"

namespace mcp::samples {

Annotations annotations();
Icon icon();
TextContent text(std::string s = "hello");
ImageContent image();
AudioContent audio();
ResourceLink resource_link();
EmbeddedResource embedded_text();
EmbeddedResource embedded_blob();
Tool tool();
Resource resource();
ResourceTemplate resource_template();
Prompt prompt();
ToolUseContent tool_use();
ToolResultContent tool_result();
CreateMessageRequestParams create_message_params();
CreateMessageResult create_message_result();
ElicitRequestFormParams elicit_form();
ElicitRequestURLParams elicit_url();
ClientCapabilities client_capabilities();
ServerCapabilities server_capabilities();
Implementation implementation(std::string name);

// The `extra` of a value, or of the alternative a variant holds; nullptr for types without one.
// Comparing it before and after a round trip catches a field that from_json forgot to read: it
// would otherwise slip into `extra` and still serialise back unchanged.
template <class T>
const json::object* extra_of(const T& v) {
  if constexpr (requires { v.extra; })
    return &v.extra;
  else if constexpr (requires { std::variant_size<T>::value; })
    return std::visit([](const auto& alt) { return extra_of(alt); }, v);
  else
    return nullptr;
}

}  // namespace mcp::samples
