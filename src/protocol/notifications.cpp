// The generic codec, plus the schema's rule that tokens and request ids are strings or integers.
#include "mcp/protocol/notifications.hpp"

#include "mcp/protocol/base.hpp"
#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

Result<void> wire_check(const ProgressNotificationParams& p) {
  if (!is_string_or_integer(p.progress_token))
    return fail(wire::field_error("ProgressNotificationParams", "progressToken", "expected a string or an integer"));
  return {};
}

Result<void> wire_check(const CancelledNotificationParams& p) {
  if (p.request_id && !is_string_or_integer(*p.request_id))
    return fail(wire::field_error("CancelledNotificationParams", "requestId", "expected a string or an integer"));
  return {};
}

MCP_WIRE_CODEC(ProgressNotificationParams)
MCP_WIRE_CODEC(CancelledNotificationParams)

}  // namespace mcp
