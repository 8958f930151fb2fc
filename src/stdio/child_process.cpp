#include "mcp/stdio/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "stdio/fd_transport.hpp"
#include "stdio/line_framer.hpp"
#include "session/thread_name.hpp"

extern char** environ;

namespace mcp {

namespace {

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "ended (status " + std::to_string(status) + ")";
}

std::vector<std::string> build_env(const ChildProcessOptions& o) {
  std::map<std::string, std::string> merged;
  if (o.inherit_env) {
    for (char** e = environ; e && *e; ++e) {
      std::string_view kv(*e);
      auto eq = kv.find('=');
      if (eq != std::string_view::npos) merged[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
    }
  }
  for (const auto& [k, v] : o.env) merged[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : merged) out.push_back(k + "=" + v);
  return out;
}

class ChildProcess final : public ChildProcessTransport {
 public:
  ChildProcess(pid_t pid, int in_fd, int out_fd, int err_fd, ChildProcessOptions opts)
      : pid_(pid), err_fd_(err_fd), opts_(std::move(opts)),
        fd_(std::make_shared<detail::FdTransport>(out_fd, in_fd, opts_.framing)) {
    stderr_thread_ = std::thread([this] {
      detail::name_this_thread("mcp-child-err");
      drain_stderr();
    });
  }

  ~ChildProcess() override {
    close();
    if (stderr_thread_.joinable()) stderr_thread_.join();
  }

  int pid() const override {
    std::lock_guard lock(mu_);
    return pid_;
  }

  std::optional<int> wait_status() const override {
    std::lock_guard lock(mu_);
    return pid_ > 0 ? std::nullopt : status_;
  }

  Result<void> start(Callbacks cb) override {
    auto user_close = std::move(cb.on_close);
    cb.on_close = [this, user_close](std::optional<Error> reason) {
      // The child's stdout ended. Unless we are closing it, find out how it ended and say so.
      bool ours;
      {
        std::lock_guard lock(mu_);
        ours = closing_;
      }
      if (!ours) {
        auto status = reap_within(std::chrono::milliseconds(500));
        wait_stderr_drained(std::chrono::milliseconds(500));  // its last words come after EOF on stdout
        std::string what = opts_.program + " " + (status ? describe_status(*status) : "closed its stdout");
        std::string tail = stderr_tail();
        if (!tail.empty()) what += "; last stderr lines:\n" + tail;
        bool clean = status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0 && !reason;
        if (!clean) reason = Error::connection_closed(what);
      }
      if (user_close) user_close(std::move(reason));
    };
    return fd_->start(std::move(cb));
  }

  Result<void> send(std::string frame, const SendInfo& info) override { return fd_->send(std::move(frame), info); }

  void close() override {
    {
      std::lock_guard lock(mu_);
      if (closing_) return;
      closing_ = true;
    }
    // Specification order: end of input, then SIGTERM, then SIGKILL, each after a grace period.
    fd_->close_write();
    if (!reap_within(opts_.shutdown_grace)) {
      signal_child(SIGTERM);
      if (!reap_within(opts_.shutdown_grace)) {
        signal_child(SIGKILL);
        reap_within(std::chrono::milliseconds(5000));
      }
    }
    fd_->close();  // wakes the reader if a grandchild still holds the pipe open
  }

 private:
  void signal_child(int sig) {
    std::lock_guard lock(mu_);
    if (pid_ > 0) ::kill(pid_, sig);
  }

  // Waits up to `d` for the child to exit; returns its status once reaped (also if reaped earlier).
  std::optional<int> reap_within(std::chrono::milliseconds d) {
    auto deadline = std::chrono::steady_clock::now() + d;
    for (;;) {
      {
        std::lock_guard lock(mu_);
        if (pid_ <= 0) return status_;
        int st = 0;
        pid_t r = ::waitpid(pid_, &st, WNOHANG);
        if (r > 0) status_ = st;
        if (r > 0 || (r < 0 && errno == ECHILD)) {
          pid_ = -1;
          return status_;
        }
      }
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  void wait_stderr_drained(std::chrono::milliseconds d) {
    std::unique_lock lock(mu_);
    stderr_cv_.wait_for(lock, d, [this] { return stderr_done_; });
  }

  void drain_stderr() {
    detail::LineFramer framer(64 * 1024);
    char buf[8192];
    auto emit = [this](std::string line) {
      {
        std::lock_guard lock(mu_);
        // Quoted in an error when the child dies: the child wrote it, so it is cut and escaped
        // like any peer's text (a 64 KiB line, or a newline forging a log line, stays out).
        tail_.push_back(peer_text(line, kMaxStderrTailLineBytes));
        while (tail_.size() > opts_.stderr_tail_lines) tail_.pop_front();
      }
      if (opts_.on_stderr) opts_.on_stderr(line);
      else std::cerr << "[" << opts_.program << "] " << line << '\n';
    };
    for (;;) {
      ssize_t n = ::read(err_fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      framer.feed(std::string_view(buf, static_cast<std::size_t>(n)), emit);
    }
    ::close(err_fd_);
    {
      std::lock_guard lock(mu_);
      stderr_done_ = true;
    }
    stderr_cv_.notify_all();
  }

  std::string stderr_tail() {
    std::lock_guard lock(mu_);
    std::string out;
    for (const auto& l : tail_) out += "  " + l + "\n";
    if (!out.empty()) out.pop_back();
    return out;
  }

  mutable std::mutex mu_;
  pid_t pid_;
  std::optional<int> status_;
  bool closing_ = false;
  int err_fd_;
  ChildProcessOptions opts_;
  std::shared_ptr<detail::FdTransport> fd_;
  std::deque<std::string> tail_;
  std::condition_variable stderr_cv_;
  bool stderr_done_ = false;
  std::thread stderr_thread_;
};

}  // namespace

Result<std::shared_ptr<ChildProcessTransport>> ChildProcessTransport::spawn(ChildProcessOptions o) {
  if (o.program.empty()) return fail(Error::invalid_params("no program to start"));
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) {
    return fail(Error::internal(std::string("pipe: ") + std::strerror(errno)));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  if (!o.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, o.cwd.c_str());

  std::vector<std::string> argv_s{o.program};
  argv_s.insert(argv_s.end(), o.args.begin(), o.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto env_s = build_env(o);
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = -1;
  // The child starts with no signal blocked and default dispositions, whatever this process does
  // with its own (a server that blocks SIGTERM to sigwait() on it must not pass that on: the
  // child would then ignore the SIGTERM step of shutdown).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  int rc = ::posix_spawnp(&pid, o.program.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    ::close(err[0]);
    return fail(Error::connection_closed("cannot start " + o.program + ": " + std::strerror(rc)));
  }
  return std::shared_ptr<ChildProcessTransport>(std::make_shared<ChildProcess>(pid, in[1], out[0], err[0], std::move(o)));
}

}  // namespace mcp
