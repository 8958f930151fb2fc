// JSON-RPC decoding of peer bytes: never crashes; what decodes re-encodes to a message that decodes
// to the same encoding (one reading of every message).
#include "fuzz_util.hpp"
#include "mcp/jsonrpc/codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcp::jsonrpc::Limits limits{.max_message_bytes = 64 * 1024, .max_depth = 64};
  auto m = mcp::jsonrpc::decode(mcp::fuzz::as_text(data, size), limits);
  if (!m) {
    FUZZ_CHECK(m.error().error.code < -32000);
    return 0;
  }
  const std::string once = mcp::jsonrpc::encode(*m);
  auto again = mcp::jsonrpc::decode(once, mcp::jsonrpc::Limits{.max_message_bytes = 1 << 20, .max_depth = 64});
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(mcp::jsonrpc::encode(*again) == once);
  return 0;
}
