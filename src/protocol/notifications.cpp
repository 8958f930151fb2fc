#include "mcp/protocol/notifications.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::field_error;
using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const ProgressNotificationParams& p) {
  json::object o;
  o["progressToken"] = p.progress_token;
  o["progress"] = detail::number_to_json(p.progress);
  if (p.total) o["total"] = detail::number_to_json(*p.total);
  if (p.message) o["message"] = *p.message;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<ProgressNotificationParams> from_json<ProgressNotificationParams>(const json::value& v) {
  constexpr std::string_view what = "ProgressNotificationParams";
  MCP_TRY(r, ObjectReader::open(v, what));
  auto token = r.opt_value("progressToken");
  if (!token) return fail(field_error(what, "progressToken", "required field is missing"));
  if (!is_string_or_integer(*token)) return fail(field_error(what, "progressToken", "expected a string or an integer"));
  MCP_TRY(progress, r.opt_number("progress"));
  if (!progress) return fail(field_error(what, "progress", "required field is missing"));
  MCP_TRY(total, r.opt_number("total"));
  MCP_TRY(message, r.opt_str("message"));
  MCP_TRY(meta, r.meta());
  return ProgressNotificationParams{std::move(*token), *progress, total, std::move(message), std::move(meta), r.rest()};
}

json::value to_json(const CancelledNotificationParams& p) {
  json::object o;
  if (p.request_id) o["requestId"] = *p.request_id;
  if (p.reason) o["reason"] = *p.reason;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<CancelledNotificationParams> from_json<CancelledNotificationParams>(const json::value& v) {
  constexpr std::string_view what = "CancelledNotificationParams";
  MCP_TRY(r, ObjectReader::open(v, what));
  auto id = r.opt_value("requestId");
  if (id && id->is_null()) id.reset();
  if (id && !is_string_or_integer(*id)) return fail(field_error(what, "requestId", "expected a string or an integer"));
  MCP_TRY(reason, r.opt_str("reason"));
  MCP_TRY(meta, r.meta());
  return CancelledNotificationParams{std::move(id), std::move(reason), std::move(meta), r.rest()};
}

}  // namespace mcp
