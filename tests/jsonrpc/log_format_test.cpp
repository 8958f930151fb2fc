// The SDK's log lines (mcp/log.hpp): in json format each line is one JSON object with time, level,
// logger and msg, whatever the message holds (a peer's quotes, newlines and control characters stay
// inside their line); a passthrough line names its source, in either format.
#include <gtest/gtest.h>

#include <sstream>

#include "log/log.hpp"
#include "mcp/json.hpp"
#include "mcp/log.hpp"

namespace mcp {
namespace {

std::vector<json::value> json_lines(const std::string& text) {
  std::vector<json::value> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    boost::system::error_code ec;
    auto v = json::parse(line, ec);
    EXPECT_FALSE(ec) << "not one JSON object: " << line;
    if (!ec) out.push_back(std::move(v));
  }
  return out;
}

class LogFormat : public ::testing::Test {
 protected:
  void TearDown() override {
    set_log_format("text");
    set_log_level("warn");
  }
};

TEST_F(LogFormat, JsonLinesHoldAnyMessageInOneLine) {
  ASSERT_TRUE(set_log_format("json"));
  const std::string hostile = "a \"quoted\" name\nwith a forged line {\"level\":\"error\"}\x01\x1b[31m and \\ backslash";
  ::testing::internal::CaptureStderr();
  MCP_LOG_WARN("upstream said: {}", hostile);
  log_passthrough("files", "a line\nof the child's");
  const auto lines = json_lines(::testing::internal::GetCapturedStderr());
  ASSERT_EQ(lines.size(), 2u);
  const auto& warn = lines[0].as_object();
  EXPECT_EQ(warn.at("level"), "warning");
  EXPECT_EQ(warn.at("logger"), "mcp");
  EXPECT_EQ(warn.at("msg").as_string(), "upstream said: " + hostile);
  const std::string time(warn.at("time").as_string());
  EXPECT_EQ(time.size(), std::string("2026-11-26T05:00:00.123Z").size()) << time;
  EXPECT_EQ(time.back(), 'Z');
  const auto& passed = lines[1].as_object();
  EXPECT_EQ(passed.at("source"), "files");
  EXPECT_EQ(passed.at("msg"), "a line\nof the child's");
}

TEST_F(LogFormat, TextIsTheDefaultAndUnknownFormatsAreRefused) {
  EXPECT_FALSE(set_log_format("xml"));
  ::testing::internal::CaptureStderr();
  MCP_LOG_WARN("plain {}", 1);
  log_passthrough("files", "child line");
  const auto text = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(text.find("[mcp] [warning] plain 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[files] child line\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace mcp
