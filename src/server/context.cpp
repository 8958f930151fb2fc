#include "mcp/server/context.hpp"

#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/logging.hpp"
#include "mcp/protocol/methods.hpp"

namespace mcp {

int log_level_rank(std::string_view level) {
  // The protocol's LoggingLevel lists the levels in RFC 5424 order, least severe first.
  auto parsed = parse_logging_level(level);
  return parsed ? static_cast<int>(*parsed) : -1;
}

RequestContext::RequestContext(std::shared_ptr<const ClientView> client, ClientChannel& channel, jsonrpc::Id request_id,
                               const json::object& params, CancellationToken cancel)
    : client_(std::move(client)), channel_(channel), request_id_(std::move(request_id)), params_(&params),
      cancel_(std::move(cancel)) {}

std::string client_label_of(const json::object& client_info) {
  // Each part through peer_text before they are joined: cut on a character's boundary (a byte cut
  // could leave half a UTF-8 sequence, which no audit record can hold) and made printable. Made
  // once per view, so the copies cost nothing per request.
  const auto part = [&](std::string_view key) {
    const json::value* v = client_info.if_contains(key);
    return v && v->is_string() ? peer_text(v->get_string(), kMaxClientLabelBytes) : std::string();
  };
  const std::string name = part("name");
  const std::string version = part("version");
  if (name.empty() && version.empty()) return {};
  return peer_text(name + "/" + version, kMaxClientLabelBytes);
}

const json::object* RequestContext::request_meta() const {
  const json::value* meta = params_->if_contains("_meta");
  return meta ? meta->if_object() : nullptr;
}

bool RequestContext::client_supports(std::string_view capability) const {
  if (declares_capability(client_->capabilities, capability)) return true;
  // An empty elicitation capability means form mode (2025-11-25, client/elicitation).
  constexpr std::string_view kForm = ".form";
  if (!capability.ends_with(kForm) || capability.size() == kForm.size()) return false;
  const json::value* parent = find_capability(client_->capabilities, capability.substr(0, capability.size() - kForm.size()));
  return parent && parent->is_object() && parent->get_object().empty();
}

bool RequestContext::has_progress_token() const {
  const json::object* meta = request_meta();
  return meta && meta->contains("progressToken");
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
  const json::object* meta = request_meta();
  const json::value* token = meta ? meta->if_contains("progressToken") : nullptr;
  if (!token) return;
  json::object p{{"progressToken", *token}, {"progress", number(progress)}};
  if (total) p["total"] = number(*total);
  if (message) p["message"] = *message;
  (void)channel_.notify(method::kProgress, std::move(p), request_id_);
}

void RequestContext::log(std::string_view level, json::value data, std::optional<std::string> logger) {
  int rank = log_level_rank(level);
  if (rank < 0) return;
  // A stateless request gets log notifications only if its own _meta asked for them.
  if (client_->stateless && !client_->log_level) return;
  auto min = client_->stateless ? *client_->log_level : channel_.log_level();
  if (!min.empty() && rank < log_level_rank(min)) return;
  json::object p{{"level", level}, {"data", std::move(data)}};
  if (logger) p["logger"] = *logger;
  (void)channel_.notify(method::kLoggingMessage, std::move(p), request_id_);
}

Result<void> RequestContext::may_ask(std::string_view capability, std::string_view method) const {
  if (client_supports(capability)) return {};
  return fail(error_code::kMethodNotFound, "the client did not declare the '" + std::string(capability) +
                                               "' capability, so " + std::string(method) + " cannot be sent to it");
}

namespace {
// The nested request goes on the outer one's behalf, and a cancelled outer request cancels it.
RequestOptions nested_options(RequestOptions options, const jsonrpc::Id& outer, const CancellationToken& outer_cancel) {
  options.related_request_id = outer;
  auto inner = options.cancel;
  outer_cancel.on_cancel([inner] { inner.cancel("the request that asked was cancelled"); });
  return options;
}

}  // namespace

Result<json::value> RequestContext::nested(std::string_view capability, std::string_view method, json::object params,
                                           RequestOptions options) {
  // The capability first: a client without it learns that whatever the revision.
  if (auto ok = may_ask(capability, method); !ok) return fail(ok.error());
  if (no_nested_reason_) return fail(Error::internal(std::string(method) + " cannot be sent: " + *no_nested_reason_));
  if (no_nested_) {
    return fail(Error::internal(std::string(method) + " cannot be sent from a handler registered as non_blocking"));
  }
  return channel_.request(method, std::move(params), nested_options(std::move(options), request_id_, cancel_));
}

void RequestContext::nested_async(std::string_view capability, std::string_view method, json::object params,
                                  RequestOptions options, Done done) {
  if (auto ok = may_ask(capability, method); !ok) {
    done(fail(ok.error()));
    return;
  }
  if (no_nested_reason_) {
    done(fail(Error::internal(std::string(method) + " cannot be sent: " + *no_nested_reason_)));
    return;
  }
  channel_.request_async(method, std::move(params), nested_options(std::move(options), request_id_, cancel_),
                         std::move(done));
}

Result<json::value> RequestContext::create_message(json::object params, RequestOptions options) {
  auto capability = input_request_capability(method::kSamplingCreateMessage, params);
  return nested(capability, method::kSamplingCreateMessage, std::move(params), std::move(options));
}

Result<json::value> RequestContext::elicit(json::object params, RequestOptions options) {
  auto capability = input_request_capability(method::kElicitationCreate, params);
  return nested(capability, method::kElicitationCreate, std::move(params), std::move(options));
}

Result<json::value> RequestContext::list_roots(RequestOptions options) {
  return nested("roots", method::kRootsList, json::object{}, std::move(options));
}

void RequestContext::create_message_async(json::object params, Done done, RequestOptions options) {
  auto capability = input_request_capability(method::kSamplingCreateMessage, params);
  nested_async(capability, method::kSamplingCreateMessage, std::move(params), std::move(options), std::move(done));
}

void RequestContext::elicit_async(json::object params, Done done, RequestOptions options) {
  auto capability = input_request_capability(method::kElicitationCreate, params);
  nested_async(capability, method::kElicitationCreate, std::move(params), std::move(options), std::move(done));
}

void RequestContext::list_roots_async(Done done, RequestOptions options) {
  nested_async("roots", method::kRootsList, json::object{}, std::move(options), std::move(done));
}

std::unexpected<Error> RequestContext::input_required(InputRequests requests, std::optional<json::value> state) {
  asked_ = InputAsked{.requests = std::move(requests), .state = std::move(state)};
  return fail(error_code::kInputRequired, "the handler needs the client's input");
}

const json::object* RequestContext::input_response(std::string_view key) const {
  const json::value* answer = responses_.if_contains(key);
  return answer ? answer->if_object() : nullptr;
}

void RequestContext::set_input(json::object responses, std::optional<json::value> state) {
  responses_ = std::move(responses);
  state_ = std::move(state);
}

std::optional<InputAsked> RequestContext::take_input_asked() {
  auto asked = std::move(asked_);
  asked_.reset();
  return asked;
}

}  // namespace mcp
