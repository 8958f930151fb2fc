// A capability signature (SEP-2091) from peer text: parsed under its limits, never crashes; what
// parses serialises and parses again to the same signature.
#include "fuzz_util.hpp"
#include "mcp/signature/signature.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcp::SignatureLimits limits;
  limits.max_bytes = 64 * 1024;
  auto sig = mcp::parse_server_signature_text(mcp::fuzz::as_text(data, size), limits);
  if (!sig) return 0;
  auto again = mcp::parse_server_signature(mcp::to_json(*sig), limits);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(mcp::same_signature(*again, *sig));
  return 0;
}
