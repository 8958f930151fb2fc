// An upstream's log messages in the gateway's log (src/gateway/upstream_log.hpp): one line each,
// bounded in size, and a flood cannot fill the log. Time is passed in, so the rate is tested
// without waiting.
#include <gtest/gtest.h>

#include "gateway/upstream_log.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace std::chrono_literals;

namespace {

LoggingMessageNotificationParams message(json::value data, std::optional<std::string> logger = {}) {
  return LoggingMessageNotificationParams{.level = LoggingLevel::warning, .logger = std::move(logger), .data = std::move(data)};
}

TEST(GatewayUpstreamLog, OneLineWhateverTheUpstreamSends) {
  UpstreamLog log("files");
  const auto line = log.admit(message("two\nlines \x1b[31mred", "db\nforged"));
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
  EXPECT_EQ(line.rfind("notifications/message [warning] db", 0), 0u) << line;
  EXPECT_NE(line.find("two\\nlines"), std::string::npos) << line;
  // Structured data stays JSON.
  EXPECT_NE(log.admit(message(json::object{{"rows", 3}})).find(R"({"rows":3})"), std::string::npos);
}

TEST(GatewayUpstreamLog, AHugeMessageIsCut) {
  UpstreamLog log("files");
  const auto line = log.admit(message(json::value(std::string(1 << 20, 'x'))));
  EXPECT_LT(line.size(), UpstreamLog::kMaxBytes + 200);
  EXPECT_NE(line.find("bytes)"), std::string::npos) << "the cut is said";
}

TEST(GatewayUpstreamLog, AFloodIsDroppedCountedAndSaid) {
  UpstreamLog log("files");
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t written = 0;
  for (int i = 0; i < 10'000; ++i) written += !log.admit(message(i), t0).empty();
  EXPECT_EQ(written, static_cast<std::size_t>(UpstreamLog::kBurst));
  EXPECT_EQ(log.dropped(), 10'000 - written);
  // A second later the bucket has kPerSecond again; the first line says what was lost.
  const auto next = log.admit(message("after"), t0 + 1s);
  EXPECT_NE(next.find("(9800 earlier messages dropped"), std::string::npos) << next;
  std::size_t more = 1;
  for (int i = 0; i < 1'000; ++i) more += !log.admit(message(i), t0 + 1s).empty();
  EXPECT_EQ(more, static_cast<std::size_t>(UpstreamLog::kPerSecond));
  // A clock that goes back adds nothing.
  EXPECT_TRUE(log.admit(message("late"), t0).empty());
}

}  // namespace
