#include "log/log.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <mutex>
#include <string>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include "mcp/log.hpp"

namespace mcp::detail {

namespace {

constexpr const char* kTextPattern = "[%H:%M:%S.%e] [%n] [%l] %v";

std::atomic<bool> json_format{false};

// "2026-11-26T05:00:00.123Z".
std::string rfc3339(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  const auto n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char frac[8];
  std::snprintf(frac, sizeof frac, ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(buf, n) + frac;
}

// One JSON object per line. The message goes through Boost.JSON's serializer, which escapes quotes,
// backslashes and every control character (a newline a peer put in its text stays inside the line).
std::string json_line(std::chrono::system_clock::time_point t, std::string_view level, std::string_view logger_name,
                      std::string_view msg, std::string_view source = {}) {
  boost::json::object o;
  o["time"] = rfc3339(t);
  o["level"] = level;
  o["logger"] = logger_name;
  if (!source.empty()) o["source"] = source;
  o["msg"] = msg;
  return boost::json::serialize(o) + "\n";
}

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto level = spdlog::level::to_string_view(msg.level);
    const auto line = json_line(msg.time, std::string_view(level.data(), level.size()),
                                std::string_view(msg.logger_name.data(), msg.logger_name.size()),
                                std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(line.data(), line.data() + line.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

void apply_format(spdlog::logger& l, bool json) {
  json_format = json;
  if (json) l.set_formatter(std::make_unique<JsonFormatter>());
  else l.set_formatter(std::make_unique<spdlog::pattern_formatter>(kTextPattern));
}

}  // namespace

spdlog::logger& logger() {
  // Never destroyed: threads of the shared pool may still log while the process exits.
  static spdlog::logger* instance = [] {
    auto* l = new spdlog::logger("mcp", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    const char* format = std::getenv("MCP_LOG_FORMAT");
    apply_format(*l, format != nullptr && std::string_view(format) == "json");
    l->set_level(spdlog::level::warn);
    if (const char* env = std::getenv("MCP_LOG")) l->set_level(spdlog::level::from_str(env));
    return l;
  }();
  return *instance;
}

std::string format_passthrough(std::string_view source, std::string_view line) {
  if (json_format) return json_line(std::chrono::system_clock::now(), "info", "mcp", line, source);
  return "[" + std::string(source) + "] " + std::string(line) + "\n";
}

}  // namespace mcp::detail

namespace mcp {

bool set_log_level(std::string_view level) {
  static constexpr std::string_view names[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
  for (auto n : names) {
    if (n == level) {
      detail::logger().set_level(spdlog::level::from_str(std::string(level)));
      return true;
    }
  }
  return false;
}

bool set_log_format(std::string_view format) {
  if (format != "text" && format != "json") return false;
  detail::apply_format(detail::logger(), format == "json");
  return true;
}

void log_passthrough(std::string_view source, std::string_view line) {
  // One write per line, so lines of several sources never interleave mid-line.
  const std::string out = detail::format_passthrough(source, line);
  static std::mutex mu;
  std::lock_guard lock(mu);
  std::cerr << out << std::flush;
}

}  // namespace mcp
