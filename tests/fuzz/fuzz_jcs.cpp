// RFC 8785 canonical JSON from peer text: the strict parser never crashes; whatever it accepts has
// canonical bytes that parse back to the same canonical bytes (idempotence).
#include "fuzz_util.hpp"
#include "mcp/trust/jcs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcp::trust::JcsLimits limits{64, 64 * 1024};
  auto once = mcp::trust::canonicalize_text(mcp::fuzz::as_text(data, size), limits);
  if (!once) return 0;
  auto twice = mcp::trust::canonicalize_text(*once, limits);
  FUZZ_CHECK(twice.has_value());
  FUZZ_CHECK(*twice == *once);
  return 0;
}
