// A call's audit record written as RFC 8785 text from its fields (src/gateway/call_record.hpp) is
// exactly what canonicalizing the same members as a JSON object gives, whatever the strings hold;
// a field that is not valid UTF-8 is refused, as canonicalizing refuses it.
#include <gtest/gtest.h>

#include "gateway/call_record.hpp"
#include "mcp/server/context.hpp"
#include "mcp/trust/jcs.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

std::string canonical_object(const CallRecord& r) {
  json::object o{{"server", r.server}, {"method", r.method},        {"item", r.item},      {"arguments", r.arguments},
                 {"client", r.client}, {"latencyUs", r.latency_us}, {"outcome", r.outcome}};
  if (r.error) o["error"] = *r.error;
  if (!r.client_info.empty()) o["clientInfo"] = r.client_info;
  auto text = trust::canonicalize(o);
  EXPECT_TRUE(text) << text.error().message;
  return text ? *text : std::string();
}

TEST(CallRecordText, IsTheCanonicalTextOfItsMembers) {
  constexpr char kControl[] = "nul \0 bell \a del \x7f";
  const std::string control(kControl, sizeof kControl - 1);
  const std::vector<CallRecord> records = {
      {.server = "files",
       .method = "tools/call",
       .item = "read_file",
       .arguments = "sha256:00ff",
       .client = "s-1",
       .latency_us = 42,
       .outcome = "ok"},
      {.server = "files",
       .method = "tools/call",
       .item = "write_file",
       .arguments = "sha256:00ff",
       .client = "s-2",
       .client_info = "claude-code/1.0 \"beta\"",
       .latency_us = 7,
       .outcome = "refused",
       .error = "denied by the gateway's policy"},
      {.server = "a \"quoted\" name",
       .method = "prompts/get",
       .item = "caf\xC3\xA9 \xF0\x9F\x94\x91 \\ back",
       .arguments = "(not canonicalisable)",
       .client = "",
       .latency_us = 0,
       .outcome = "error",
       .error = "upstream files: line\nbreak\ttab\r"},
      {.server = "x",
       .method = "resources/read",
       .item = control,
       .arguments = "sha256:",
       .client = "\xEF\xBD\xA1",
       .latency_us = -5,
       .outcome = "tool-error",
       .error = ""},
      {.server = "big",
       .method = "tools/call",
       .item = "t",
       .arguments = "d",
       .client = "c",
       .latency_us = (std::int64_t{1} << 53) + 3,
       .outcome = "ok"},
  };
  for (const auto& r : records) {
    auto text = call_record_text(r);
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_EQ(*text, canonical_object(r));
  }
}

// A client's label cut inside a character is still a label a record can hold (a cut by bytes
// left half a UTF-8 sequence, and every call of that client failed to be recorded).
TEST(CallRecordText, AClientLabelCutInsideACharacterCanBeRecorded) {
  for (std::size_t pad = kMaxClientLabelBytes - 3; pad <= kMaxClientLabelBytes + 1; ++pad) {
    SCOPED_TRACE(pad);
    const std::string name = std::string(pad, 'a') + "\xC3\xA9\xE2\x82\xAC";  // é, then €
    const std::string label = client_label_of(json::object{{"name", name}, {"version", std::string(pad, 'v') + "\xC3\xA9"}});
    EXPECT_LE(label.size(), kMaxClientLabelBytes + 32);
    auto text = call_record_text(
        CallRecord{.server = "s", .method = "tools/call", .item = "t", .arguments = "d", .client = "c", .client_info = label, .outcome = "ok"});
    EXPECT_TRUE(text) << text.error().message;
  }
}

TEST(CallRecordText, AFieldThatIsNotUtf8IsRefused) {
  for (const std::string& bad : {std::string("caf\xE9"), std::string("\xC0\xAF"), std::string("\xED\xA0\x80")}) {
    CallRecord r{
        .server = "s", .method = "tools/call", .item = "t", .arguments = "d", .client = "c", .outcome = "error"};
    r.error = bad;
    EXPECT_FALSE(call_record_text(r)) << "in error";
    r.error.reset();
    r.item = bad;
    EXPECT_FALSE(call_record_text(r)) << "in item";
    r.item = "t";
    r.client_info = bad;
    EXPECT_FALSE(call_record_text(r)) << "in clientInfo";
    EXPECT_FALSE(trust::canonicalize(json::value(json::string(bad))));
  }
}

}  // namespace
