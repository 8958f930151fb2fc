// x-mcp-header annotations of a peer's inputSchema (mcp/protocol/header_params.hpp): never a crash,
// and whatever the schema, the result keeps within its bounds (count, bytes of paths) and an error
// stays short.
#include "fuzz_util.hpp"
#include "mcp/json.hpp"
#include "mcp/protocol/header_params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto schema = mcp::parse_json_strict(mcp::fuzz::as_text(data, size));  // the codec's depth limit
  if (!schema || !schema->is_object()) return 0;
  auto params = mcp::header_params(schema->get_object());
  if (!params) {
    FUZZ_CHECK(params.error().message.size() < 8192);
    return 0;
  }
  FUZZ_CHECK(params->size() <= mcp::kMaxHeaderParams);
  std::size_t path_bytes = 0;
  for (const auto& p : *params) {
    FUZZ_CHECK(!p.name.empty());
    for (const auto& k : p.path) path_bytes += k.size();
  }
  FUZZ_CHECK(path_bytes <= mcp::kMaxHeaderPathBytes);
  return 0;
}
