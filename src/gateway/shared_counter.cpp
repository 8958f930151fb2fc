#include "gateway/shared_counter.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace mcp::gateway {

namespace {

constexpr std::size_t kBytes = sizeof(std::uint64_t);

std::atomic_ref<std::uint64_t> counter_at(void* map) { return std::atomic_ref<std::uint64_t>(*static_cast<std::uint64_t*>(map)); }

}  // namespace

Result<std::unique_ptr<SharedCounter>> SharedCounter::open(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return fail(Error::internal("open " + file.string() + ": " + std::strerror(errno)));
  struct stat st{};
  // Growing it to its size is harmless when two processes race to create it (zeros either way).
  const bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                  (static_cast<std::size_t>(st.st_size) >= kBytes || ::ftruncate(fd, kBytes) == 0);
  void* map = ok ? ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  const int saved = errno;
  ::close(fd);  // the mapping stays
  if (!ok && S_ISREG(st.st_mode) == 0) return fail(Error::internal(file.string() + " is not a regular file"));
  if (map == MAP_FAILED) return fail(Error::internal("map " + file.string() + ": " + std::strerror(saved)));
  return std::unique_ptr<SharedCounter>(new SharedCounter(map));
}

SharedCounter::~SharedCounter() { ::munmap(map_, kBytes); }

std::uint64_t SharedCounter::load() const { return counter_at(map_).load(std::memory_order_acquire); }

void SharedCounter::bump() { counter_at(map_).fetch_add(1, std::memory_order_acq_rel); }

}  // namespace mcp::gateway
