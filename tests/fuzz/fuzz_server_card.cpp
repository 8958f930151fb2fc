// Server cards fetched from a peer: parsed and verified against a key and a trust store, never
// crashing; random bytes never verify.
#include "fuzz_util.hpp"
#include "mcp/signature/card.hpp"

namespace {
struct Keys {
  mcp::trust::Ed25519SecretKey secret = mcp::trust::Ed25519SecretKey::generate();
  mcp::trust::TrustStore store;
  Keys() {
    (void)store.add(mcp::trust::TrustedKey{.key_id = secret.public_key().key_id(), .public_key = secret.public_key(),
                                           .issuer = std::string("issuer")});
  }
};
const Keys& keys() {
  static const Keys k;
  return k;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcp::SignatureLimits limits;
  limits.max_bytes = 64 * 1024;
  auto text = mcp::fuzz::as_text(data, size);
  FUZZ_CHECK(!mcp::verify_server_card(text, keys().secret.public_key(), limits).ok());
  FUZZ_CHECK(!mcp::verify_server_card(text, keys().store, limits).ok());
  (void)mcp::parse_server_card(text, limits);
  return 0;
}
