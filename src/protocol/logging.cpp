#include "mcp/protocol/logging.hpp"

#include <array>

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

namespace {
// Indexed by the enumerator's value.
constexpr std::array<std::string_view, 8> kLevelNames = {"debug", "info",     "notice", "warning",
                                                         "error", "critical", "alert",  "emergency"};
}  // namespace

std::string_view to_string(LoggingLevel l) { return kLevelNames[static_cast<std::size_t>(l)]; }

std::optional<LoggingLevel> parse_logging_level(std::string_view s) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i)
    if (kLevelNames[i] == s) return static_cast<LoggingLevel>(i);
  return std::nullopt;
}

json::value to_json(LoggingLevel l) { return json::string(to_string(l)); }

template <>
Result<LoggingLevel> from_json<LoggingLevel>(const json::value& v) {
  const auto* s = v.if_string();
  auto level = s ? parse_logging_level(*s) : std::nullopt;
  if (!level)
    return fail(Error::invalid_params(
        "LoggingLevel: expected one of debug, info, notice, warning, error, critical, alert, emergency"));
  return *level;
}

json::value to_json(const SetLevelRequestParams& p) {
  json::object o;
  o["level"] = to_json(p.level);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<SetLevelRequestParams> from_json<SetLevelRequestParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "SetLevelRequestParams"));
  MCP_TRY(level, r.req<LoggingLevel>("level"));
  MCP_TRY(meta, detail::request_meta(r, "SetLevelRequestParams"));
  return SetLevelRequestParams{level, std::move(meta), r.rest()};
}

json::value to_json(const LoggingMessageNotificationParams& p) {
  json::object o;
  o["level"] = to_json(p.level);
  if (p.logger) o["logger"] = *p.logger;
  o["data"] = p.data;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<LoggingMessageNotificationParams> from_json<LoggingMessageNotificationParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "LoggingMessageNotificationParams"));
  MCP_TRY(level, r.req<LoggingLevel>("level"));
  MCP_TRY(logger, r.opt_str("logger"));
  auto data = r.opt_value("data");
  if (!data) return fail(detail::field_error("LoggingMessageNotificationParams", "data", "required field is missing"));
  MCP_TRY(meta, r.meta());
  return LoggingMessageNotificationParams{level, std::move(logger), std::move(*data), std::move(meta), r.rest()};
}

}  // namespace mcp
