#include "cli_io.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp::cli {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Closes a descriptor on scope exit (never stdin).
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd > 2) ::close(fd);
  }
};

Result<void> write_all(int fd, std::string_view data, const std::string& what) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(Error::internal("cannot write " + what + ": " + errno_text(errno)));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

}  // namespace

Result<std::string> read_input(const std::string& path, std::size_t max_bytes) {
  const bool is_stdin = path == "-";
  const std::string name = is_stdin ? "standard input" : "\"" + path + "\"";
  Fd f;
  f.fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) return fail(Error::internal("cannot open " + name + ": " + errno_text(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) == 0 && S_ISDIR(st.st_mode)) return fail(Error::internal(name + " is a directory"));
  std::string out;
  char buf[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(Error::internal("cannot read " + name + ": " + errno_text(errno)));
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes)
      return fail(Error::internal(name + " is larger than the limit of " + std::to_string(max_bytes) + " bytes"));
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

bool write_stdout(std::string_view data) {
  std::cout.write(data.data(), static_cast<std::streamsize>(data.size()));
  std::cout.flush();
  return static_cast<bool>(std::cout);
}

Result<void> write_secret_file(const std::string& path, std::string_view data, bool overwrite) {
  Fd f;
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
  f.fd = ::open(path.c_str(), flags, 0600);
  if (f.fd < 0) {
    if (errno == EEXIST) return fail(Error::internal("\"" + path + "\" exists; pass --force to replace it"));
    return fail(Error::internal("cannot create \"" + path + "\": " + errno_text(errno)));
  }
  // An existing file keeps its mode under O_TRUNC; a secret key must not stay world-readable.
  if (::fchmod(f.fd, 0600) != 0) return fail(Error::internal("cannot chmod \"" + path + "\": " + errno_text(errno)));
  if (auto r = write_all(f.fd, data, "\"" + path + "\""); !r) return r;
  if (::fsync(f.fd) != 0) return fail(Error::internal("cannot sync \"" + path + "\": " + errno_text(errno)));
  return {};
}

Result<void> write_public_file(const std::string& path, std::string_view data) {
  Fd f;
  f.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (f.fd < 0) return fail(Error::internal("cannot create \"" + path + "\": " + errno_text(errno)));
  return write_all(f.fd, data, "\"" + path + "\"");
}

std::optional<std::int64_t> parse_duration_ms(std::string_view text) {
  std::size_t i = 0;
  std::int64_t n = 0;
  constexpr std::int64_t kMax = (std::int64_t{1} << 53) - 1;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    n = n * 10 + (text[i] - '0');
    if (n > kMax) return std::nullopt;
    ++i;
  }
  if (i == 0 || n == 0) return std::nullopt;
  const std::string_view unit = text.substr(i);
  std::int64_t scale = 0;
  if (unit == "ms") scale = 1;
  else if (unit == "s") scale = 1000;
  else if (unit == "m") scale = 60 * 1000;
  else if (unit == "h") scale = 3600 * 1000;
  else if (unit == "d") scale = 86400LL * 1000;
  else if (unit == "w") scale = 7 * 86400LL * 1000;
  else return std::nullopt;
  if (n > kMax / scale) return std::nullopt;
  return n * scale;
}

std::string format_time(std::int64_t unix_ms) {
  // Years 0..9999 only: beyond that the ISO form needs an expanded year and gmtime may fail.
  constexpr std::int64_t kMin = -62167219200000LL, kMax = 253402300799999LL;
  if (unix_ms < kMin || unix_ms > kMax) return std::to_string(unix_ms) + " ms";
  std::int64_t secs = unix_ms / 1000, millis = unix_ms % 1000;
  if (millis < 0) { millis += 1000; --secs; }
  const std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  if (::gmtime_r(&t, &tm) == nullptr) return std::to_string(unix_ms) + " ms";
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[64];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(millis));
  return out;
}

std::string cli_person() {
  const char* user = std::getenv("USER");
  return std::string("cli:") + (user ? user : "unknown");
}

void report(std::string_view command, std::string_view message) {
  // Messages often quote a peer (a server's error, a file's key id): one escaped line each.
  std::cerr << "mcp-trust " << command << ": " << peer_text(message, 4096) << "\n";
}

}  // namespace mcp::cli
