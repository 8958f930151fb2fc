#include "gateway/call_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "gateway/audit_log.hpp"
#include "log/log.hpp"
#include "mcp/trust/hex.hpp"

namespace mcp::gateway {

namespace {

constexpr std::string_view kPrefix = "audit-journal-";

Error sys_error(const std::string& what) { return Error::internal(what + ": " + std::strerror(errno)); }

// The mark of journal `name`: the last of its records in the chain (0: none).
Result<std::int64_t> committed_through(Db& d, const std::string& name) {
  auto s = d.prepare("SELECT through FROM audit_journal WHERE name = ?");
  if (!s) return fail(s.error());
  s->bind(1, name);
  auto row = s->step();
  if (!row) return fail(row.error());
  return *row ? s->integer(0) : 0;
}

Result<void> set_mark(Db& d, const std::string& name, std::int64_t through) {
  auto s = d.prepare("INSERT INTO audit_journal (name, through) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET through = excluded.through");
  if (!s) return fail(s.error());
  s->bind(1, name).bind(2, through);
  auto done = s->step();
  if (!done) return fail(done.error());
  return {};
}

Result<void> drop_mark(Db& d, const std::string& name) {
  auto s = d.prepare("DELETE FROM audit_journal WHERE name = ?");
  if (!s) return fail(s.error());
  s->bind(1, name);
  auto done = s->step();
  if (!done) return fail(done.error());
  return {};
}

// Reads up to `limit` bytes of `fd` from its start.
Result<std::string> read_all(int fd, std::size_t limit) {
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(out.size()));
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(sys_error("read"));
    }
    if (n == 0) return out;
    if (out.size() + static_cast<std::size_t>(n) > limit) {
      return fail(Error::internal("larger than " + std::to_string(limit) + " bytes"));
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// Replays one journal whose owner is gone: its records past the mark, in one transaction, then the
// file and its mark go. Held: the journal's flock (so no other opener replays it meanwhile).
Result<void> replay(Db& db, const std::filesystem::path& path, int fd) {
  const std::string name = path.filename().string();
  auto text = read_all(fd, CallJournal::kMaxJournalBytes);
  if (!text) return fail(Error::internal("audit journal " + name + ": " + text.error().message));
  std::size_t replayed = 0, skipped = 0;
  auto ok = db.transaction(
      [&](Db& d) -> Result<void> {
        auto through = committed_through(d, name);
        if (!through) return fail(through.error());
        std::int64_t last = *through;
        std::size_t at = 0;
        while (at < text->size()) {
          std::size_t end = text->find('\n', at);
          // A line without its newline was cut by a failing write: its call was never answered.
          if (end == std::string::npos) break;
          std::string_view line(text->data() + at, end - at);
          at = end + 1;
          boost::system::error_code ec;
          json::value v = json::parse(line, ec);
          const json::object* o = !ec ? v.if_object() : nullptr;
          const json::value* j = o ? o->if_contains("j") : nullptr;
          const json::value* t = o ? o->if_contains("t") : nullptr;
          const json::value* b = o ? o->if_contains("b") : nullptr;
          if (!j || !j->is_int64() || !t || !t->is_string() || !b || !b->is_object()) {
            ++skipped;
            continue;
          }
          if (j->get_int64() <= last) continue;  // committed before the process went
          auto a = AuditLog::append_at(d, "call", b->get_object(), std::string(t->get_string()));
          if (!a) return fail(a.error());
          last = j->get_int64();
          ++replayed;
        }
        return set_mark(d, name, last);
      },
      Db::Durability::power_loss);
  if (!ok) return fail(Error::internal("audit journal " + name + ": " + ok.error().message));
  if (replayed > 0 || skipped > 0) {
    MCP_LOG_WARN("gateway: audit journal {} of a gateway that is gone: {} call record(s) added to the chain{}", name, replayed,
                 skipped > 0 ? ", " + std::to_string(skipped) + " unreadable line(s) left out" : std::string());
  }
  // Removed once its records are committed with the mark (a crash before the unlink replays
  // nothing twice: the mark says where it ended); the mark goes after the file.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return fail(sys_error("remove " + path.string()));
  return db.transaction([&](Db& d) { return drop_mark(d, name); }, Db::Durability::process_crash);
}

}  // namespace

Result<void> CallJournal::recover(Db& db, const std::filesystem::path& dir) {
  auto made = db.transaction([](Db& d) {
    return d.exec("CREATE TABLE IF NOT EXISTS audit_journal (name TEXT PRIMARY KEY, through INTEGER NOT NULL)");
  });
  if (!made) return made;
  std::error_code ec;
  std::vector<std::filesystem::path> journals;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const auto n = e.path().filename().string();
    if (n.starts_with(kPrefix)) journals.push_back(e.path());
  }
  for (const auto& path : journals) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;  // removed meanwhile, or not a plain file
    struct Closer {
      int fd;
      ~Closer() { ::close(fd); }
    } closer{fd};
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) continue;  // its gateway is running
    // Still the file at that path (another opener may have replayed and removed it meanwhile)?
    struct stat held{}, named{};
    if (::fstat(fd, &held) != 0 || ::stat(path.c_str(), &named) != 0 || held.st_ino != named.st_ino ||
        held.st_dev != named.st_dev || !S_ISREG(held.st_mode)) {
      continue;
    }
    if (auto r = replay(db, path, fd); !r) return r;
  }
  return {};
}

Result<std::unique_ptr<CallJournal>> CallJournal::start(const std::filesystem::path& db_file) {
  // Its own connection: a batch's commit holds this one, never the one the calls read pins with
  // (in WAL mode a reader does not wait for a writer of another connection).
  auto opened = Db::open(db_file);
  if (!opened) return fail(opened.error());
  std::shared_ptr<Db> db = std::move(*opened);
  const auto dir = db_file.parent_path();
  std::array<std::uint8_t, 8> nonce{};
  if (::getrandom(nonce.data(), nonce.size(), 0) != static_cast<ssize_t>(nonce.size())) return fail(sys_error("getrandom"));
  auto file = dir / (std::string(kPrefix) + std::to_string(::getpid()) + "-" + trust::to_hex(nonce));
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return fail(sys_error("create " + file.string()));
  // Held while this process lives: recover() in another process leaves the journal alone.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    ::unlink(file.c_str());
    return fail(sys_error("lock " + file.string()));
  }
  std::unique_ptr<CallJournal> j(new CallJournal(std::move(db), std::move(file), fd));
  j->writer_ = std::thread([raw = j.get()] { raw->run(); });
  return j;
}

CallJournal::CallJournal(std::shared_ptr<Db> db, std::filesystem::path file, int fd)
    : db_(std::move(db)), file_(std::move(file)), name_(file_.filename().string()), fd_(fd) {}

CallJournal::~CallJournal() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
  // Everything committed: the journal and its mark go. If the commit failed, the file stays for
  // the next opener's recover().
  bool drained;
  {
    std::lock_guard lock(mu_);
    drained = queue_.empty();
  }
  if (drained) {
    ::unlink(file_.c_str());
    (void)db_->transaction([&](Db& d) { return drop_mark(d, name_); }, Db::Durability::process_crash);
  }
  ::close(fd_);
}

Result<void> CallJournal::append(std::string time, json::object&& body) {
  std::unique_lock lock(mu_);
  if (broken_) return fail(Error::internal("the audit journal failed earlier"));
  // Full: this thread commits what waits (the bound on what a flood of calls makes us hold).
  while (queue_.size() >= kMaxQueued || queued_bytes_ >= kMaxQueuedBytes) {
    lock.unlock();
    if (auto c = commit_batch(); !c) return c;
    lock.lock();
  }
  const std::int64_t jseq = next_jseq_++;
  std::string line = json::serialize(json::object{{"j", jseq}, {"t", time}, {"b", body}});
  line += '\n';
  // One write of the whole line (O_APPEND): the kernel has it when this returns.
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken_ = true;
      // A partial line is left without its newline: recover() ignores it.
      return fail(sys_error("write " + file_.string()));
    }
    done += static_cast<std::size_t>(n);
  }
  file_bytes_ += line.size();
  queued_bytes_ += line.size();
  queue_.push_back(Entry{jseq, line.size(), std::move(time), std::move(body)});
  if (queue_.size() == 1) wake_.notify_one();  // once per batch, not per record
  return {};
}

std::size_t CallJournal::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

Result<void> CallJournal::flush() { return commit_batch(); }

Result<void> CallJournal::commit_batch() {
  // The Db's lock (recursive) is held from taking the batch to its commit, so batches commit in
  // the order they were taken and the mark only grows.
  return db_->locked([&](Db&) -> Result<void> {
    std::deque<Entry> batch;
    {
      std::lock_guard lock(mu_);
      batch.swap(queue_);
      queued_bytes_ = 0;
    }
    if (batch.empty()) return {};
    auto ok = db_->transaction(
        [&](Db& d) -> Result<void> {
          for (const auto& e : batch) {
            auto a = AuditLog::append_at(d, "call", e.body, e.time);
            if (!a) return fail(a.error());
          }
          return set_mark(d, name_, batch.back().jseq);
        },
        Db::Durability::process_crash);
    std::lock_guard lock(mu_);
    if (!ok) {
      // Back in front, in order, for the next attempt; the journal still holds them.
      for (auto it = batch.rbegin(); it != batch.rend(); ++it) {
        queued_bytes_ += it->bytes;
        queue_.push_front(std::move(*it));
      }
      return fail(ok.error());
    }
    // Everything written is committed: the journal can start again from empty.
    if (queue_.empty() && file_bytes_ > kTruncateAbove && ::ftruncate(fd_, 0) == 0) file_bytes_ = 0;
    return {};
  });
}

void CallJournal::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() && stopping_) return;
    // Gather the calls of the next few milliseconds into this commit.
    if (!stopping_ && queue_.size() < kMaxQueued / 4) wake_.wait_for(lock, kBatchWindow, [&] { return stopping_; });
    lock.unlock();
    if (auto c = commit_batch(); !c) {
      MCP_LOG_WARN("gateway: call records not committed yet ({}); retrying", c.error().message);
      lock.lock();
      if (stopping_) return;  // left in the journal for the next opener's recover()
      wake_.wait_for(lock, std::chrono::milliseconds(100), [&] { return stopping_; });
      continue;
    }
    lock.lock();
  }
}

}  // namespace mcp::gateway
