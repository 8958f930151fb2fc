// mcp/stdio/stdio.hpp — newline-delimited JSON-RPC over a pair of file descriptors.
//
// `make_stdio_transport()` is the server side of the stdio transport: it reads stdin and writes
// stdout, so nothing else in the process may write to stdout (the SDK logs to stderr).
// `make_fd_transport()` is the same over any pair of descriptors (pipes to a child, sockets).
//
// Framing: one message per line, "\n"-terminated ("\r\n" accepted). A line longer than
// `max_line_bytes` is not buffered whole: its first max_line_bytes+1 bytes are delivered, so the
// session rejects it with -32600 and the rest of the line is skipped; the connection stays usable.
// Empty lines are ignored. End of input closes the transport in order (no error).
//
// Thread-safety: as Transport. A reader thread reads; writes are serialised by a mutex and written
// whole, so concurrent senders never interleave bytes.
#pragma once

#include <chrono>

#include <memory>

#include "mcp/transport/transport.hpp"

namespace mcp {

struct FdTransportOptions {
  std::size_t max_line_bytes = 4 * 1024 * 1024;  // match jsonrpc::Limits::max_message_bytes
  bool close_fds = true;                          // close the descriptors when the transport closes
  // A peer that stops reading: a send that cannot make progress for this long fails and closes the
  // transport (on a pipe or socket; sends never block close(), which wakes them at once).
  std::chrono::milliseconds write_timeout{30'000};
};

std::shared_ptr<Transport> make_fd_transport(int read_fd, int write_fd, FdTransportOptions options = {});

// The server's side of stdio: reads fd 0, writes fd 1; does not close them.
std::shared_ptr<Transport> make_stdio_transport(FdTransportOptions options = {.close_fds = false});

}  // namespace mcp
