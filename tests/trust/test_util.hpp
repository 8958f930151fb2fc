// Test helpers for the trust tests: where the data and binaries are, and file reading.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace mcp::trust::test {

// ctest sets MCP_TEST_DATA and MCP_BIN (tests/CMakeLists.txt); the fallbacks let a test binary
// run by hand from the build tree.
inline std::filesystem::path env_dir(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return std::filesystem::path(v != nullptr && *v != '\0' ? v : fallback);
}
inline std::filesystem::path data_dir() { return env_dir("MCP_TEST_DATA", MCP_TRUST_TEST_DATA_FALLBACK); }
inline std::filesystem::path bin_dir() { return env_dir("MCP_BIN", MCP_TRUST_BIN_FALLBACK); }

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

}  // namespace mcp::trust::test
