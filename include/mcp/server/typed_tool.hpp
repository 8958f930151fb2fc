// mcp/server/typed_tool.hpp — a tool whose arguments are a C++ struct.
//
//   struct Forecast {
//     std::string city;
//     std::optional<int> days;
//     static constexpr mcp::FieldDoc field_docs[] = {{"city", "City name"}, {"days", "1 to 7"}};
//   };
//   MCP_DESCRIBE(Forecast, city, days)
//
//   mcp::add_typed_tool<Forecast>(server, {.name = "forecast"},
//       [](const Forecast& f, mcp::RequestContext&) { return mcp::CallToolResult::text("sunny in " + f.city); });
//
// The tool's inputSchema is derived from the struct (mcp/protocol/wire_schema.hpp), replacing the
// one given, and each call's arguments are read against it before the handler runs. Arguments that
// do not fit (a member missing or of the wrong type, an integer out of range, an enumerator that
// does not exist, a member the struct does not have) never reach the handler: the call answers a
// tool execution error (isError) naming the member, "invalid arguments (-32602): arguments.days:
// expected an integer", because the specification (2025-11-25, SEP-1303) asks for input
// validation errors as results the model can read and correct, not as JSON-RPC errors.
//
// The handler returns a CallToolResult, or a described struct (MCP_DESCRIBE) as the call's
// structured content, whose schema then becomes the tool's outputSchema; either may be wrapped in
// Result<> to answer a protocol error.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "mcp/protocol/wire_schema.hpp"
#include "mcp/server/server.hpp"

namespace mcp {

namespace typed_tool_detail {

template <class R>
struct Unwrap {
  using type = R;
};
template <class R>
struct Unwrap<Result<R>> {
  using type = R;
};

// The tool execution error for arguments that do not fit: the decoder's message with the struct's
// name replaced by "arguments", which is what the model sent.
CallToolResult invalid_arguments(std::string_view type_name, const Error& error);

template <class Out>
Result<CallToolResult> answer(Out out) {
  if constexpr (std::is_same_v<Out, CallToolResult>) {
    return out;
  } else {
    json::value v = wire::encode(out);
    return CallToolResult::structured(std::move(v.as_object()));
  }
}

template <class Out>
Result<CallToolResult> answer(Result<Out> out) {
  if (!out) return fail(std::move(out.error()));
  return answer(std::move(*out));
}

}  // namespace typed_tool_detail

// Registers `tool` with the schemas derived from Args (and from the handler's result type, when it
// is a described struct). `handler` is called as handler(const Args&, RequestContext&).
template <class Args, class F>
void add_typed_tool(Server& server, Tool tool, F handler, ToolOptions options = {}) {
  using R = std::invoke_result_t<F&, const Args&, RequestContext&>;
  using Out = typename typed_tool_detail::Unwrap<R>::type;
  tool.input_schema = wire::json_schema<Args>();
  if constexpr (!std::is_same_v<Out, CallToolResult>) tool.output_schema = wire::json_schema<Out>();
  server.add_tool(
      std::move(tool),
      [handler = std::move(handler)](const json::object& arguments, RequestContext& ctx) -> Result<CallToolResult> {
        auto args = wire::decode_object<Args>(arguments);
        if (!args) return typed_tool_detail::invalid_arguments(wire_type_name(static_cast<const Args*>(nullptr)), args.error());
        return typed_tool_detail::answer(handler(std::as_const(*args), ctx));
      },
      options);
}

}  // namespace mcp
