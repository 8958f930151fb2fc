#include "mcp/json.hpp"

namespace mcp {

std::string to_string(const json::value& v) { return json::serialize(v); }

std::string Error::describe() const { return std::to_string(code) + ": " + message; }

}  // namespace mcp
