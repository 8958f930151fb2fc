// Signed tool manifests from peer text: verification never throws or crashes and returns one of
// the seven verdicts; a random input is never "valid" (it would need a signature by our key).
#include "fuzz_util.hpp"
#include "mcp/trust/verify.hpp"

namespace {
const mcp::trust::Ed25519SecretKey& key() {
  static const auto k = mcp::trust::Ed25519SecretKey::generate();
  return k;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcp::trust::VerifyOptions o;
  o.limits = mcp::trust::JcsLimits{64, 64 * 1024};
  o.now_ms = 1'700'000'000'000;
  auto r = mcp::trust::verify_manifest(mcp::fuzz::as_text(data, size), key().public_key(), o);
  FUZZ_CHECK(r.verdict != mcp::trust::Verdict::valid);
  FUZZ_CHECK(!r.ok());
  return 0;
}
