// Private to the SDK: names the calling thread for whoever reads a running process (top -H, perf,
// /proc/PID/task/*/comm). A thread otherwise takes the name of the thread that started it, so
// every thread the SDK starts names itself: else the HTTP server's "mcp-http-io" would show on
// the workers and readers its loops happen to start. Linux keeps 15 characters; a name that
// cannot be set changes nothing.
#pragma once

#include <pthread.h>

namespace mcp::detail {

inline void name_this_thread(const char* name) noexcept { (void)pthread_setname_np(pthread_self(), name); }

}  // namespace mcp::detail
