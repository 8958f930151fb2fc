// mcp/transport/direct.hpp — two connected in-process transports that deliver on the sender's
// thread: no delivery thread, no hand-off.
//
// For a Client and a Server in one process where a thread hand-off per message would cost more
// than the work (the gateway's Proxy in front of an in-process Server: bench/RESULTS.md). What one
// end sends, the other receives in order, one frame at a time, by the thread that sent it; a frame
// sent while another thread is delivering to that end is queued and delivered by that thread, so
// a callback that sends (a handler answering inline) never recurses into the same end. Frames
// sent before the other end starts wait for its start().
//
// What it asks of the two ends, beyond Transport's contract:
//  - A callback must not block waiting for a message from the other end (it would be queued
//    behind the callback itself); the session engine never does (its blocking requests run on
//    worker threads, not in callbacks).
//  - send() and close() run the other end's callbacks (close() both ends' on_close, and so the
//    failing of requests still pending) on the calling thread: never call them holding a lock a
//    callback may take.
//  - A send() may also deliver what other threads sent meanwhile, returning when nothing waits:
//    under a stream of frames from many threads, one sender carries them.
// Messages pass as values (carries_values): a session sends its requests and answers as the
// values it holds, and the other end's session takes them as they are, with no text written or
// parsed between. So the receiving session's frame limits (max_message_bytes, the depth limit, the
// bytes counted against max_pending_inbound_bytes) do not apply on this link: both ends are this
// process's own code, and what a remote peer sent was bounded where it entered the process. Text
// sent with send() still passes as text.
// Closing either end closes both: each end's on_close comes after the frames already sent to it,
// from the thread that closed or that was delivering.
#pragma once

#include <memory>
#include <utility>

#include "mcp/transport/transport.hpp"

namespace mcp {

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_direct_transport_pair();

}  // namespace mcp
