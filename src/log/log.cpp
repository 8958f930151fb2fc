#include "log/log.hpp"

#include <cstdlib>
#include <string>

#include <spdlog/sinks/stdout_sinks.h>

#include "mcp/log.hpp"

namespace mcp::detail {

spdlog::logger& logger() {
  static std::shared_ptr<spdlog::logger> instance = [] {
    auto l = std::make_shared<spdlog::logger>("mcp", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_pattern("[%H:%M:%S.%e] [%n] [%l] %v");
    l->set_level(spdlog::level::warn);
    if (const char* env = std::getenv("MCP_LOG")) l->set_level(spdlog::level::from_str(env));
    return l;
  }();
  return *instance;
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

}  // namespace mcp
