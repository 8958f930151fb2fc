// The HTTP client's routing read of a frame (peek_frame): never crashes, and on every frame the
// session's strict parser accepts, it reads exactly what that document holds at the members it
// routes by (and nothing when the frame is not one object).
#include "fuzz_util.hpp"
#include "http/frame_peek.hpp"
#include "mcp/json.hpp"

namespace {

// What peek_frame must have read for member `v` of an id's kind (absent, or a container: nothing).
void check_id(const std::optional<mcp::jsonrpc::Id>& got, const boost::json::value* v) {
  if (!v || v->is_object() || v->is_array()) {
    FUZZ_CHECK(!got);
    return;
  }
  FUZZ_CHECK(got.has_value());
  // The strict parser reads a double's literal again (std::from_chars); only its kind is compared.
  if (v->is_double()) {
    FUZZ_CHECK(got->is_double());
    return;
  }
  FUZZ_CHECK(*got == *v);
}

void check_string(const std::optional<std::string>& got, const boost::json::object* o, std::string_view key) {
  const boost::json::value* v = o ? o->if_contains(key) : nullptr;
  if (!v || !v->is_string()) {
    FUZZ_CHECK(!got);
    return;
  }
  FUZZ_CHECK(got && *got == std::string_view(v->get_string()));
}

const boost::json::object* member_object(const boost::json::object* o, std::string_view key) {
  const boost::json::value* v = o ? o->if_contains(key) : nullptr;
  return v ? v->if_object() : nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = mcp::fuzz::as_text(data, size);
  const mcp::http::FramePeek peek = mcp::http::peek_frame(text);
  auto doc = mcp::parse_json_strict(text, 64);
  if (!doc) return 0;  // refused by the session (repeated names, too deep, not JSON): no property
  const boost::json::object* top = doc->if_object();
  FUZZ_CHECK(peek.is_object == (top != nullptr));
  if (!top) return 0;
  FUZZ_CHECK(peek.has_method == top->contains("method"));
  FUZZ_CHECK(peek.has_error == top->contains("error"));
  check_id(peek.id, top->if_contains("id"));
  check_string(peek.method, top, "method");
  const boost::json::object* params = member_object(top, "params");
  check_string(peek.name, params, "name");
  check_string(peek.uri, params, "uri");
  check_id(peek.request_id, params ? params->if_contains("requestId") : nullptr);
  check_string(peek.meta_version, member_object(params, "_meta"), "io.modelcontextprotocol/protocolVersion");
  check_string(peek.result_version, member_object(top, "result"), "protocolVersion");
  return 0;
}
