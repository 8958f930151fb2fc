// Signing and checking a multi round-trip requestState (server/request_state.hpp).
#include "server/request_state.hpp"

#include <sodium.h>

#include <stdexcept>

namespace mcp {

namespace {

constexpr std::string_view kVersion = "v1.";
constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;

std::string base64url(std::string_view bytes) {
  std::string out(sodium_base64_encoded_len(bytes.size(), kVariant), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    kVariant);
  out.resize(out.size() - 1);  // the terminating NUL it counts
  return out;
}

std::optional<std::string> from_base64url(std::string_view text) {
  std::string out(text.size() * 3 / 4 + 3, '\0');
  std::size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr,
                        &length, &end, kVariant) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  out.resize(length);
  return out;
}

Error refused(std::string_view why) {
  return Error::invalid_params("requestState refused: " + std::string(why) +
                               " (send the original request again, without inputResponses or requestState)");
}

std::int64_t unix_seconds(RequestStateCodec::Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

RequestStateCodec::Key RequestStateCodec::random_key() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  Key key;
  randombytes_buf(key.data(), key.size());
  return key;
}

std::string RequestStateCodec::mac(std::string_view signed_part, std::string_view binding) const {
  // The binding follows a NUL, which neither Base64url nor a method name holds: the two parts
  // cannot be shifted into one another.
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, key_.data(), key_.size());
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(signed_part.data()), signed_part.size());
  const unsigned char separator = 0;
  crypto_auth_hmacsha256_update(&st, &separator, 1);
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(binding.data()), binding.size());
  std::string tag(crypto_auth_hmacsha256_BYTES, '\0');
  crypto_auth_hmacsha256_final(&st, reinterpret_cast<unsigned char*>(tag.data()));
  return tag;
}

Result<std::string> RequestStateCodec::seal(const json::value& payload, std::string_view binding,
                                            Clock::time_point now) const {
  json::object body{{"p", payload}, {"exp", unix_seconds(now + lifetime_)}};
  std::string state = std::string(kVersion) + base64url(to_string(body));
  state += '.' + base64url(mac(state, binding));
  if (state.size() > kMaxBytes) {
    return fail(Error::internal("the handler's request state is " + std::to_string(state.size()) +
                                " bytes once signed, over the limit of " + std::to_string(kMaxBytes)));
  }
  return state;
}

Result<json::value> RequestStateCodec::open(std::string_view state, std::string_view binding,
                                            Clock::time_point now) const {
  if (state.size() > kMaxBytes) return fail(refused("longer than any this server issues"));
  if (!state.starts_with(kVersion)) return fail(refused("not a state this server issued"));
  const auto dot = state.rfind('.');
  if (dot < kVersion.size()) return fail(refused("not a state this server issued"));
  // The tag is compared as text, so that only its one canonical spelling passes (Base64 without
  // padding leaves spare bits in the last character), and in constant time, so that the time
  // taken does not tell an attacker how much of a guess is right.
  const std::string_view tag = state.substr(dot + 1);
  const std::string expected = base64url(mac(state.substr(0, dot), binding));
  if (tag.size() != expected.size() || sodium_memcmp(tag.data(), expected.data(), expected.size()) != 0) {
    return fail(refused("it was altered, or issued for another request or caller"));
  }
  // Signed by us: what follows can only fail on a state this server issued and mis-made.
  auto text = from_base64url(state.substr(kVersion.size(), dot - kVersion.size()));
  if (!text) return fail(refused("malformed"));
  auto body = parse_json_strict(*text);
  if (!body || !body->is_object()) return fail(refused("malformed"));
  const json::value* exp = body->get_object().if_contains("exp");
  const json::value* payload = body->get_object().if_contains("p");
  if (!exp || !exp->is_int64() || !payload) return fail(refused("malformed"));
  if (exp->get_int64() < unix_seconds(now)) return fail(refused("it has expired"));
  return *payload;
}

}  // namespace mcp
