// mcp/transport/memory.hpp — two connected in-process transports, for tests and embedding.
//
// Whatever one end sends, the other receives, in order, on its own delivery thread, exactly as a
// real transport would deliver it. Closing either end closes both.
#pragma once

#include <memory>
#include <utility>

#include "mcp/transport/transport.hpp"

namespace mcp {

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_memory_transport_pair();

}  // namespace mcp
