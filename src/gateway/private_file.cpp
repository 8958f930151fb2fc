#include "gateway/private_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gateway/unique_fd.hpp"

namespace mcp::gateway {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

Result<void> write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const auto n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(Error::internal(errno_text(errno)));
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

}  // namespace

Result<std::string> read_private_file(const std::filesystem::path& file, std::size_t max_bytes) {
  UniqueFd f;
  f.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (f.fd < 0) return fail(Error::internal("cannot open " + file.string() + ": " + errno_text(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return fail(Error::internal("cannot stat " + file.string() + ": " + errno_text(errno)));
  if (!S_ISREG(st.st_mode)) return fail(Error::internal(file.string() + " is not a regular file"));
  if ((st.st_mode & 077) != 0) {
    return fail(Error::internal(file.string() + " is readable by other users; make it private (chmod 600) or remove it"));
  }
  // A secret someone else put there is a secret someone else knows.
  if (st.st_uid != ::geteuid()) return fail(Error::internal(file.string() + " belongs to another user; remove it"));
  std::string text(max_bytes + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const auto n = ::read(f.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(Error::internal("cannot read " + file.string() + ": " + errno_text(errno)));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) return fail(Error::internal(file.string() + " is larger than " + std::to_string(max_bytes) + " bytes"));
  text.resize(got);
  return text;
}

Result<bool> create_private_file(const std::filesystem::path& file, std::string_view content, std::string_view nonce) {
  if (std::error_code ec; std::filesystem::exists(file, ec)) return false;
  const auto tmp = file.parent_path() / (file.filename().string() + ".tmp." + std::string(nonce));
  {
    UniqueFd f;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (f.fd < 0) return fail(Error::internal("cannot create " + tmp.string() + ": " + errno_text(errno)));
    auto w = write_all(f.fd, content);
    if (!w || ::fsync(f.fd) != 0) {
      ::unlink(tmp.c_str());
      return fail(Error::internal("cannot write " + tmp.string() + ": " + (w ? errno_text(errno) : w.error().message)));
    }
  }
  const int linked = ::link(tmp.c_str(), file.c_str());
  const int link_errno = errno;
  ::unlink(tmp.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) return false;
    return fail(Error::internal("cannot create " + file.string() + ": " + errno_text(link_errno)));
  }
  // The new name reaches the disk with the folder's metadata.
  if (UniqueFd d; (d.fd = ::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) (void)::fsync(d.fd);
  return true;
}

}  // namespace mcp::gateway
