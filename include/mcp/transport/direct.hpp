// mcp/transport/direct.hpp — two connected in-process transports that deliver on the sender's
// thread: no delivery thread, no hand-off.
//
// For a Client and a Server in one process where a thread hand-off per message would cost more
// than the work (the gateway's Proxy in front of an in-process Server: bench/RESULTS.md). What one
// end sends, the other receives in order, one frame at a time, by the thread that sent it; a frame
// sent while another thread is delivering to that end is queued and delivered by that thread, so
// a callback that sends (a handler answering inline) never recurses into the same end and never
// waits for a lock. Frames sent before the other end starts wait for its start().
//
// What it asks of the two ends, beyond Transport's contract: a callback must not block waiting for
// a message from the other end (it would be queued behind the callback itself); the session
// engine never does (its blocking requests run on worker threads, not in callbacks). Closing
// either end closes both: each end's on_close comes after the frames already sent to it, from the
// thread that closed or that was delivering.
#pragma once

#include <memory>
#include <utility>

#include "mcp/transport/transport.hpp"

namespace mcp {

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_direct_transport_pair();

}  // namespace mcp
