#include "http/client_loop.hpp"

#include <system_error>

#include "session/reaper.hpp"
#include "session/thread_name.hpp"

namespace mcp::http {

Result<std::shared_ptr<ClientLoop>> ClientLoop::start() {
  std::shared_ptr<ClientLoop> loop(new ClientLoop());
  try {
    loop->thread_ = std::thread([self = loop] {
      detail::name_this_thread("mcp-http-client");
      self->ioc_.run();
    });
  } catch (const std::system_error& e) {
    return fail(Error::internal(std::string("cannot start the HTTP client's thread: ") + e.what()));
  }
  return loop;
}

ClientLoop::~ClientLoop() { finish(); }

void ClientLoop::finish() noexcept {
  busy_.reset();
  detail::join_or_reap(thread_);
}

}  // namespace mcp::http
