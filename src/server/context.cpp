#include "mcp/server/context.hpp"

#include "mcp/protocol/capabilities.hpp"

#include <array>

namespace mcp {

namespace {
constexpr std::array<std::string_view, 8> kLevels = {"debug",    "info",  "notice", "warning",
                                                     "error",    "critical", "alert", "emergency"};
}

int log_level_rank(std::string_view level) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    if (kLevels[i] == level) return static_cast<int>(i);
  }
  return -1;
}

RequestContext::RequestContext(std::shared_ptr<const ClientView> client, ClientChannel& channel, jsonrpc::Id request_id,
                               std::optional<json::object> request_meta, CancellationToken cancel)
    : client_(std::move(client)), channel_(channel), request_id_(std::move(request_id)),
      meta_(std::move(request_meta)), cancel_(std::move(cancel)) {}

bool RequestContext::client_supports(std::string_view capability) const {
  if (declares_capability(client_->capabilities, capability)) return true;
  // An empty elicitation capability means form mode (2025-11-25, client/elicitation).
  constexpr std::string_view kForm = ".form";
  if (!capability.ends_with(kForm) || capability.size() == kForm.size()) return false;
  const json::value* parent = find_capability(client_->capabilities, capability.substr(0, capability.size() - kForm.size()));
  return parent && parent->is_object() && parent->get_object().empty();
}

bool RequestContext::has_progress_token() const {
  return meta_ && meta_->contains("progressToken");
}

namespace {
// 50 rather than 5E1: integral values go out as integers, as JavaScript peers write them.
json::value number(double d) {
  if (d == static_cast<double>(static_cast<std::int64_t>(d)) && d > -9.0e15 && d < 9.0e15) {
    return static_cast<std::int64_t>(d);
  }
  return d;
}
}  // namespace

void RequestContext::progress(double progress, std::optional<double> total, std::optional<std::string> message) {
  if (!has_progress_token()) return;
  json::object p{{"progressToken", meta_->at("progressToken")}, {"progress", number(progress)}};
  if (total) p["total"] = number(*total);
  if (message) p["message"] = *message;
  (void)channel_.notify("notifications/progress", std::move(p), request_id_);
}

void RequestContext::log(std::string_view level, json::value data, std::optional<std::string> logger) {
  int rank = log_level_rank(level);
  if (rank < 0) return;
  auto min = channel_.log_level();
  if (!min.empty() && rank < log_level_rank(min)) return;
  json::object p{{"level", level}, {"data", std::move(data)}};
  if (logger) p["logger"] = *logger;
  (void)channel_.notify("notifications/message", std::move(p), request_id_);
}

Result<json::value> RequestContext::nested(std::string_view capability, std::string_view method, json::object params,
                                           RequestOptions options) {
  if (no_nested_) {
    return fail(Error::internal(std::string(method) + " cannot be sent from a handler registered as non_blocking"));
  }
  if (!client_supports(capability)) {
    return fail(error_code::kMethodNotFound,
                "the client did not declare the '" + std::string(capability) + "' capability, so " +
                    std::string(method) + " cannot be sent to it");
  }
  options.related_request_id = request_id_;
  // A cancelled outer request cancels what it is waiting for.
  auto inner = options.cancel;
  cancel_.on_cancel([inner] { inner.cancel("the request that asked was cancelled"); });
  return channel_.request(method, std::move(params), std::move(options));
}

Result<json::value> RequestContext::create_message(json::object params, RequestOptions options) {
  bool wants_tools = params.contains("tools") || params.contains("toolChoice");
  return nested(wants_tools ? "sampling.tools" : "sampling", "sampling/createMessage", std::move(params),
                std::move(options));
}

Result<json::value> RequestContext::elicit(json::object params, RequestOptions options) {
  auto mode = params.if_contains("mode");
  bool url = mode && mode->is_string() && mode->get_string() == "url";
  return nested(url ? "elicitation.url" : "elicitation", "elicitation/create", std::move(params), std::move(options));
}

Result<json::value> RequestContext::list_roots(RequestOptions options) {
  return nested("roots", "roots/list", json::object{}, std::move(options));
}

}  // namespace mcp
