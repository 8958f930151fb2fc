// Server profiles on the client (ClientOptions::profiles; docs/wire/profiles.md, docs/profiles/):
// the server must answer with a profile the client requested, and a profile mcp-trust publishes is
// checked against what the server actually serves before connect() returns.
#include <algorithm>

#include "client/client_impl.hpp"
#include "mcp/protocol/profiles.hpp"
#include "mcp/signature/reduction.hpp"
#include "mcp/signature/signature.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp {

namespace {

Error refused(const std::string& profile, std::string why) {
  return Error::invalid_request("the server was granted profile " + peer_text(profile) + " but does not meet it: " +
                                std::move(why));
}

// signed/1.x (docs/profiles/signed-1.md).
Result<void> check_signed(const std::string& profile, const ClientOptions& opts, const std::shared_ptr<const ServerSignature>& signature,
                          const std::shared_ptr<const trust::VerifyResult>& verified) {
  if (!signature) return fail(refused(profile, "it gives no capability signature"));
  auto digest = signature_digest(*signature);
  if (!digest) return fail(refused(profile, "its capability signature cannot be hashed: " + digest.error().message));
  if (!opts.verified_card_signature) {
    return fail(refused(profile, "no server card with a verified proof was given to the client "
                                 "(ClientOptions::verified_card_signature; mcp-trust client --card-key)"));
  }
  if (*opts.verified_card_signature != *digest) {
    return fail(refused(profile, "the signature it serves (" + *digest + ") is not the one its verified card carries (" +
                                     *opts.verified_card_signature + ")"));
  }
  if (!verified) return fail(refused(profile, "no signed tool manifest was verified (ClientOptions::manifest)"));
  if (verified->verdict != trust::Verdict::valid) {
    return fail(refused(profile, "its signed tool manifest does not verify: " + verified->detail));
  }
  return {};
}

// read-only/1.x (docs/profiles/read-only-1.md).
Result<void> check_read_only(const std::string& profile, const std::shared_ptr<const ServerSignature>& signature) {
  if (!signature) return fail(refused(profile, "it gives no capability signature"));
  for (const auto& t : signature->tools) {
    auto shown = listed_annotations(t);
    if (!shown || !shown->read_only_hint.value_or(false)) {
      return fail(refused(profile, "its signature lets tool " + peer_text(t.tool.name) + " be offered without readOnlyHint"));
    }
  }
  return {};
}

}  // namespace

Result<void> Client::Impl::accept_profile(const json::object& result, std::optional<std::string> granted) {
  if (!opts.profiles.empty()) {
    if (!granted) {
      return fail(Error::invalid_request("the server honours none of the requested profiles (it answered without one)"));
    }
    if (std::find(opts.profiles.begin(), opts.profiles.end(), *granted) == opts.profiles.end()) {
      return fail(Error::invalid_request("the server answered profile " + peer_text(*granted) +
                                         ", which this client did not request"));
    }
  }
  profile = granted;
  if (!granted) return {};
  auto id = parse_profile_url(*granted);
  if (!id || id->major != 1) return {};  // a profile we do not publish: a label we cannot check
  // The signature the session is held to, or, without a signature policy, the one the server gave.
  std::shared_ptr<const ServerSignature> signature = enforcer ? enforcer->signature() : nullptr;
  if (const json::value* given = result.if_contains("signature"); !signature && given && given->is_object()) {
    if (auto parsed = parse_server_signature(*given)) signature = std::make_shared<const ServerSignature>(std::move(*parsed));
  }
  if (id->family == kSignedProfile) {
    return check_signed(*granted, opts, signature, manifest_enforcer ? manifest_enforcer->last_verification() : nullptr);
  }
  if (id->family == kReadOnlyProfile) return check_read_only(*granted, signature);
  return {};
}

}  // namespace mcp
