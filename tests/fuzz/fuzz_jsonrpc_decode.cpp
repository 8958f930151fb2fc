// JSON-RPC decoding of peer bytes: never crashes; what decodes re-encodes to a message that decodes
// to the same encoding (one reading of every message); and the encoder's own JSON writer
// (src/json/write_json.hpp) writes whatever value a message carries exactly as Boost.JSON's
// serializer would, byte for byte.
#include <optional>
#include <string>
#include <variant>

#include "fuzz_util.hpp"
#include "mcp/jsonrpc/codec.hpp"

namespace {

// The value a message carries, if any: a request's or notification's params, a response's result.
std::optional<mcp::json::value> carried(const mcp::jsonrpc::Message& m) {
  if (const auto* r = std::get_if<mcp::jsonrpc::Request>(&m); r && r->params) return mcp::json::value(*r->params);
  if (const auto* n = std::get_if<mcp::jsonrpc::Notification>(&m); n && n->params) return mcp::json::value(*n->params);
  if (const auto* s = std::get_if<mcp::jsonrpc::Response>(&m)) return s->result;
  return std::nullopt;
}

}  // namespace

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
  if (const auto v = carried(*m)) {
    const std::string ours = mcp::jsonrpc::encode_result(mcp::json::value(7), *v);
    FUZZ_CHECK(ours == R"({"jsonrpc":"2.0","id":7,"result":)" + mcp::json::serialize(*v) + "}");
  }
  return 0;
}
