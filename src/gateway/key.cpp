#include "gateway/key.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace mcp::gateway {

namespace {

constexpr std::size_t kMaxKeyFileBytes = 4096;

std::string errno_text(int e) { return std::strerror(e); }

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

Result<std::shared_ptr<const trust::Ed25519SecretKey>> read_key(const std::filesystem::path& file) {
  Fd f;
  f.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (f.fd < 0) return fail(Error::internal("cannot open " + file.string() + ": " + errno_text(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return fail(Error::internal("cannot stat " + file.string() + ": " + errno_text(errno)));
  if (!S_ISREG(st.st_mode)) return fail(Error::internal(file.string() + " is not a regular file"));
  if ((st.st_mode & 077) != 0) {
    return fail(Error::internal(file.string() + " is readable by other users; make it private (chmod 600) or remove it"));
  }
  // A key someone else put there is a key someone else knows.
  if (st.st_uid != ::geteuid()) return fail(Error::internal(file.string() + " belongs to another user; remove it"));
  std::string text(kMaxKeyFileBytes + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const auto n = ::read(f.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(Error::internal("cannot read " + file.string() + ": " + errno_text(errno)));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  auto key = trust::Ed25519SecretKey::parse(text);
  trust::secure_wipe(text);
  if (!key) return fail(Error::internal(file.string() + ": " + key.error().message));
  return std::make_shared<const trust::Ed25519SecretKey>(std::move(*key));
}

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

Result<std::shared_ptr<const trust::Ed25519SecretKey>> load_key(const std::filesystem::path& dir) {
  return read_key(dir / kKeyFile);
}

Result<std::shared_ptr<const trust::Ed25519SecretKey>> load_or_create_key(const std::filesystem::path& dir) {
  const auto file = dir / kKeyFile;
  if (std::error_code ec; std::filesystem::exists(file, ec)) return read_key(file);
  // Written to a private temporary file, synced, then linked into place: a reader never sees half
  // a key, and if two gateways race, link() lets exactly one win and the other reads its key.
  auto key = trust::Ed25519SecretKey::generate();
  // An unpredictable name (from the new key's public half), so a file left or planted there cannot
  // stop the gateway from starting.
  const auto tmp = dir / (std::string(kKeyFile) + ".tmp." + key.public_key().hex().substr(0, 16));
  {
    Fd f;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (f.fd < 0) return fail(Error::internal("cannot create " + tmp.string() + ": " + errno_text(errno)));
    std::string pem = key.to_pem();
    auto w = write_all(f.fd, pem);
    trust::secure_wipe(pem);
    if (!w || ::fsync(f.fd) != 0) {
      ::unlink(tmp.c_str());
      return fail(Error::internal("cannot write " + tmp.string() + ": " + (w ? errno_text(errno) : w.error().message)));
    }
  }
  const int linked = ::link(tmp.c_str(), file.c_str());
  const int link_errno = errno;
  ::unlink(tmp.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) return read_key(file);
    return fail(Error::internal("cannot create " + file.string() + ": " + errno_text(link_errno)));
  }
  // The new name reaches the disk with the folder's metadata.
  if (Fd d; (d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) (void)::fsync(d.fd);
  return std::make_shared<const trust::Ed25519SecretKey>(std::move(key));
}

trust::Ed25519SecretKey copy_key(const trust::Ed25519SecretKey& key) {
  std::string seed = key.seed_hex();
  auto copy = trust::Ed25519SecretKey::from_hex(seed);
  trust::secure_wipe(seed);
  return std::move(*copy);  // a seed this key exported always parses
}

}  // namespace mcp::gateway
