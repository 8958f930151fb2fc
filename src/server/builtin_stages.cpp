// The server's own policies as stages: logging, the signature self-check, availability.
#include "log/log.hpp"
#include "server/chain.hpp"
#include "server/server_impl.hpp"

namespace mcp {

Error unknown_item_error(const Target& target) {
  // Hidden and missing look the same to the client: an unknown tool or prompt is -32602 per the
  // tools and prompts specifications, an unknown resource -32002 with its URI.
  switch (target.kind) {
    case ListKind::tools: return Error::invalid_params("Unknown tool: " + peer_text(target.key));
    case ListKind::prompts: return Error::invalid_params("Unknown prompt: " + peer_text(target.key));
    default:
      return Error{error_code::kResourceNotFound, "Resource not found: " + peer_text(target.uri),
                   json::object{{"uri", target.uri}}};
  }
}

namespace {

class LogStage final : public Stage {
 public:
  explicit LogStage(std::string session) : session_(std::move(session)) {}
  std::string_view name() const override { return "log"; }
  std::optional<Result<json::value>> on_request(Call& call) override {
    MCP_LOG_DEBUG("server {}: {} {}", session_, peer_text(call.method),
                  call.target ? peer_text(call.target->key) : std::string());
    return std::nullopt;
  }
  void on_result(const Call& call, Result<json::value>& answer) override {
    if (!answer) MCP_LOG_DEBUG("server {}: {} refused: {}", session_, peer_text(call.method), answer.error().describe());
  }

 private:
  std::string session_;
};

class SignatureStage final : public Stage {
 public:
  explicit SignatureStage(std::shared_ptr<const SessionSignature> sig) : sig_(std::move(sig)) {}
  std::string_view name() const override { return "signature"; }

  std::optional<Result<json::value>> on_request(Call& call) override {
    if (!call.target || !policing() || sig_->declares(call.target->kind, call.target->key)) return std::nullopt;
    MCP_LOG_ERROR("server: refusing {} '{}': not declared in the capability signature", item_noun(call.target->kind),
                  peer_text(call.target->key));
    return fail(unknown_item_error(*call.target));
  }

  bool on_list_item(const Call&, ListedItem& listed) override {
    if (!policing()) return true;
    auto violations = sig_->checker->check_item(listed.kind, listed.item);
    // The server never sends what its signature does not allow; the developer learns why here.
    for (const auto& v : violations)
      MCP_LOG_ERROR("server: not listing {} '{}', outside the capability signature: {}", item_noun(listed.kind),
                    peer_text(listed.key), v.describe());
    return violations.empty();
  }

 private:
  bool policing() const { return sig_ && sig_->serving.self_check; }
  std::shared_ptr<const SessionSignature> sig_;
};

class AvailabilityStage final : public Stage {
 public:
  explicit AvailabilityStage(std::shared_ptr<const AvailabilityHooks> hooks) : hooks_(std::move(hooks)) {}
  std::string_view name() const override { return "availability"; }

  std::optional<Result<json::value>> on_request(Call& call) override {
    const Target* t = call.target;
    if (!t) return std::nullopt;
    bool available = t->kind == ListKind::tools ? (!hooks_->tool || !t->tool || hooks_->tool(*t->tool, call.context).available)
                                                : (!hooks_->item || hooks_->item(t->kind, t->key, call.context));
    if (available) return std::nullopt;
    return fail(unknown_item_error(*t));
  }

  bool on_list_item(const Call& call, ListedItem& listed) override {
    if (listed.kind != ListKind::tools) return !hooks_->item || hooks_->item(listed.kind, listed.key, call.context);
    if (!hooks_->tool || !listed.tool) return true;
    auto av = hooks_->tool(*listed.tool, call.context);
    // A variant the hook picks is listed instead of the signature's worst case.
    if (av.available && av.annotations) listed.item["annotations"] = to_json(*av.annotations);
    return av.available;
  }

 private:
  std::shared_ptr<const AvailabilityHooks> hooks_;
};

}  // namespace

std::shared_ptr<Stage> make_log_stage(std::string session_id) { return std::make_shared<LogStage>(std::move(session_id)); }
std::shared_ptr<Stage> make_signature_stage(std::shared_ptr<const SessionSignature> signature) {
  return std::make_shared<SignatureStage>(std::move(signature));
}
std::shared_ptr<Stage> make_availability_stage(std::shared_ptr<const AvailabilityHooks> hooks) {
  return std::make_shared<AvailabilityStage>(std::move(hooks));
}

}  // namespace mcp
