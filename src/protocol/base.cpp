#include "mcp/protocol/base.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

bool is_string_or_integer(const json::value& v) {
  return v.is_string() || v.is_uint64() || detail::as_integer(v).has_value();
}

std::optional<ProgressToken> progress_token(const std::optional<json::object>& meta) {
  if (!meta) return std::nullopt;
  const auto* t = meta->if_contains("progressToken");
  if (!t || !is_string_or_integer(*t)) return std::nullopt;
  return *t;
}

void set_progress_token(std::optional<json::object>& meta, const ProgressToken& token) {
  if (!meta) meta.emplace();
  (*meta)["progressToken"] = token;
}

namespace {

// RequestParams, NotificationParams and EmptyResult share one shape: `_meta` plus anything else.
template <class T>
json::value meta_only_to_json(const T& t) {
  json::object o;
  write_extra(o, t.extra, t.meta);
  return o;
}

template <class T>
Result<T> meta_only_from_json(const json::value& v, std::string_view what, bool is_request) {
  MCP_TRY(r, ObjectReader::open(v, what));
  T t;
  if (is_request) {
    MCP_TRY(meta, detail::request_meta(r, what));
    t.meta = std::move(meta);
  } else {
    MCP_TRY(meta, r.meta());
    t.meta = std::move(meta);
  }
  t.extra = r.rest();
  return t;
}

}  // namespace

json::value to_json(const RequestParams& p) { return meta_only_to_json(p); }
json::value to_json(const NotificationParams& p) { return meta_only_to_json(p); }
json::value to_json(const EmptyResult& p) { return meta_only_to_json(p); }

template <>
Result<RequestParams> from_json<RequestParams>(const json::value& v) {
  return meta_only_from_json<RequestParams>(v, "RequestParams", true);
}
template <>
Result<NotificationParams> from_json<NotificationParams>(const json::value& v) {
  return meta_only_from_json<NotificationParams>(v, "NotificationParams", false);
}
template <>
Result<EmptyResult> from_json<EmptyResult>(const json::value& v) {
  return meta_only_from_json<EmptyResult>(v, "EmptyResult", false);
}

}  // namespace mcp
