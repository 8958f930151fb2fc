#include "gateway/call_journal.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <map>

#include "gateway/audit_log.hpp"
#include "gateway/chain_appender.hpp"
#include "gateway/journal_check.hpp"
#include "gateway/unique_fd.hpp"
#include "log/log.hpp"
#include "mcp/trust/hex.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp::gateway {

namespace {

constexpr std::string_view kPrefix = "audit-journal-";
constexpr std::string_view kCreating = ".audit-journal-creating-";  // not yet locked: never replayed

Error sys_error(const std::string& what) { return Error::internal(what + ": " + std::strerror(errno)); }

// The mark of journal `name`: the last of its records in the chain (0: none).
Result<std::int64_t> committed_through(Db& d, const std::string& name) {
  auto row = d.first_row("SELECT through FROM audit_journal WHERE name = ?", name);
  if (!row) return fail(row.error());
  return *row ? (*row)->integer(0) : 0;
}

Result<void> set_mark(Db& d, const std::string& name, std::int64_t through) {
  return d.run(
      "INSERT INTO audit_journal (name, through) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET through = "
      "excluded.through",
      name, through);
}

Result<void> drop_mark(Db& d, const std::string& name) {
  return d.run("DELETE FROM audit_journal WHERE name = ?", name);
}

// Opens and locks `path` if no live process holds it, and it is still the file at that path (an
// opener that replayed and removed it meanwhile leaves nothing to do).
std::optional<UniqueFd> lock_if_dead(const std::filesystem::path& path) {
  // O_NONBLOCK: a FIFO planted under a journal's name opens at once (and is refused below as not a
  // regular file) instead of blocking the opener until something writes to it.
  UniqueFd f(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (f.fd < 0 || ::flock(f.fd, LOCK_EX | LOCK_NB) != 0) return std::nullopt;
  struct stat held{}, named{};
  if (::fstat(f.fd, &held) != 0 || ::stat(path.c_str(), &named) != 0 || held.st_ino != named.st_ino ||
      held.st_dev != named.st_dev || !S_ISREG(held.st_mode)) {
    return std::nullopt;
  }
  return f;
}

// Calls `line` with each complete line of `fd`, read in pieces (any size of file), up to its first
// zero byte (a segment's unwritten tail); lines longer than kMaxLineBytes are skipped and counted.
// A last line without its newline was cut by a failing write or by the process's death in the
// middle of its copy: its call was never answered, and it is left out.
Result<std::size_t> each_line(int fd, const std::function<Result<void>(std::string_view)>& line) {
  std::string pending;
  bool skipping = false;
  std::size_t skipped = 0;
  std::array<char, 65536> buf;
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(sys_error("read"));
    if (n == 0) return skipped;
    at += n;
    std::string_view piece(buf.data(), static_cast<std::size_t>(n));
    const auto zero = piece.find('\0');
    if (zero != std::string_view::npos) piece = piece.substr(0, zero);
    while (!piece.empty()) {
      const auto nl = piece.find('\n');
      const auto part = piece.substr(0, nl);
      if (!skipping) pending.append(part);
      if (pending.size() > CallJournal::kMaxLineBytes) {
        pending.clear();
        skipping = true;
      }
      if (nl == std::string_view::npos) break;
      piece.remove_prefix(nl + 1);
      if (skipping) {
        ++skipped;
        skipping = false;
        continue;
      }
      if (auto r = line(pending); !r) return fail(r.error());
      pending.clear();
    }
    if (zero != std::string_view::npos) return skipped;
  }
}

// Replays one journal whose process is gone: its records past the mark, segment by segment in
// order, each in one transaction with the mark; each segment is removed once its records are in.
// Held: every segment's flock (so no other opener replays it meanwhile).
Result<void> replay(Db& db, const std::string& name,
                    std::vector<std::pair<std::filesystem::path, UniqueFd>>& segments) {
  std::size_t replayed = 0, skipped = 0;
  for (auto& [path, fd] : segments) {
    auto ok = db.transaction(
        [&](Db& d) -> Result<void> {
          auto through = committed_through(d, name);
          if (!through) return fail(through.error());
          std::int64_t last = *through;
          auto head = AuditLog::head_in(d);
          if (!head) return fail(head.error());
          auto lines = each_line(fd.fd, [&](std::string_view line) -> Result<void> {
            boost::system::error_code ec;
            json::value v = json::parse(line, ec);
            const json::object* o = !ec ? v.if_object() : nullptr;
            const json::value* j = o ? o->if_contains("j") : nullptr;
            const json::value* t = o ? o->if_contains("t") : nullptr;
            const json::value* b = o ? o->if_contains("b") : nullptr;
            if (!j || !j->is_int64() || !t || !t->is_string() || !b || !b->is_object() ||
                !journal_check_holds(line, *o)) {
              ++skipped;
              return {};
            }
            if (j->get_int64() <= last) return {};  // committed before the process went
            // Canonicalized again: a journal written by an earlier version holds the body as
            // serialized, not canonical.
            auto body = trust::canonicalize(b->get_object());
            // A record that cannot be chained (written before records were checked) is left out,
            // not allowed to stop the others.
            if (!body || !AuditLog::append_canonical(d, *head, "call", t->get_string(), *body)) {
              ++skipped;
              return {};
            }
            last = j->get_int64();
            ++replayed;
            return {};
          });
          if (!lines) return fail(lines.error());
          skipped += *lines;
          return set_mark(d, name, last);
        },
        Db::Durability::power_loss);
    if (!ok) return fail(Error::internal(path.filename().string() + ": " + ok.error().message));
    // Removed once its records are committed with the mark (a crash before the unlink replays
    // nothing twice: the mark says where it ended).
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return fail(sys_error("remove " + path.string()));
  }
  if (replayed > 0 || skipped > 0) {
    MCP_LOG_WARN("gateway: audit journal {} of a gateway that is gone: {} call record(s) added to the chain{}", name, replayed,
                 skipped > 0 ? ", " + std::to_string(skipped) + " unreadable line(s) left out" : std::string());
  }
  return db.transaction([&](Db& d) { return drop_mark(d, name); }, Db::Durability::process_crash);
}

// Whether a store into a mapping of `fd`'s allocated blocks is known never to fault: on ext4, XFS
// and tmpfs an allocated block needs nothing more at the first write. Copy-on-write file systems
// (btrfs, ZFS, bcachefs) allocate again at that write, and could fail it with SIGBUS where a
// write(2) fails with an error; there, and wherever unknown, the journal writes with pwrite(2).
bool safe_to_map(int fd) {
  constexpr long kExt4 = 0xEF53, kXfs = 0x58465342, kTmpfs = 0x01021994;
  struct statfs fs{};
  if (::fstatfs(fd, &fs) != 0) return false;
  const long type = static_cast<long>(fs.f_type);
  return type == kExt4 || type == kXfs || type == kTmpfs;
}

// "audit-journal-PID-NONCE-N" -> ("audit-journal-PID-NONCE", N).
std::optional<std::pair<std::string, std::uint64_t>> parse_segment(const std::string& file) {
  if (!file.starts_with(kPrefix)) return std::nullopt;
  const auto dash = file.rfind('-');
  if (dash == std::string::npos || dash < kPrefix.size()) return std::nullopt;
  std::uint64_t n = 0;
  const char* first = file.data() + dash + 1;
  const char* last = file.data() + file.size();
  auto [end, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || end != last || first == last) return std::nullopt;
  return std::pair{file.substr(0, dash), n};
}

}  // namespace

Result<void> CallJournal::recover(Db& db, const std::filesystem::path& dir) {
  auto made = db.transaction([](Db& d) {
    return d.exec("CREATE TABLE IF NOT EXISTS audit_journal (name TEXT PRIMARY KEY, through INTEGER NOT NULL)");
  });
  if (!made) return made;
  std::map<std::string, std::map<std::uint64_t, std::filesystem::path>> journals;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const auto file = e.path().filename().string();
    if (auto seg = parse_segment(file)) {
      journals[seg->first][seg->second] = e.path();
    } else if (file.starts_with(kCreating)) {
      // Its maker died between making and naming it (a new one is named within microseconds: an
      // old one is left over): it never held a record.
      struct stat st{};
      if (::stat(e.path().c_str(), &st) == 0 && st.st_mtime < ::time(nullptr) - 60 && lock_if_dead(e.path())) {
        ::unlink(e.path().c_str());
      }
    }
  }
  for (auto& [name, segments] : journals) {
    // Every segment must be unlocked: one held means its gateway is running.
    std::vector<std::pair<std::filesystem::path, UniqueFd>> held;
    bool dead = true;
    for (const auto& [n, path] : segments) {
      auto fd = lock_if_dead(path);
      if (!fd) {
        dead = false;
        break;
      }
      held.emplace_back(path, std::move(*fd));
    }
    if (!dead) continue;
    // A journal that cannot be replayed is reported and left for the next opener; it must not
    // keep the state folder from being opened.
    if (auto r = replay(db, name, held); !r) MCP_LOG_WARN("gateway: audit journal {} not replayed: {}", name, r.error().message);
  }
  return {};
}

Result<CallJournal::Segment> CallJournal::open_segment(std::uint64_t n) const {
  const std::string file = name_ + "-" + std::to_string(n);
  const auto creating = dir_ / (std::string(kCreating) + file.substr(kPrefix.size()));
  const int fd = ::open(creating.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return fail(sys_error("create " + creating.string()));
  // Locked before it has the name recover() looks for, and held while this process lives.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::rename(creating.c_str(), (dir_ / file).c_str()) != 0) {
    auto e = sys_error("lock and name " + creating.string());
    ::close(fd);
    ::unlink(creating.c_str());
    return fail(std::move(e));
  }
  Segment s{dir_ / file, fd, 0};
  // Allocated first: a store into a mapping whose blocks the disk cannot give would be SIGBUS. A
  // file system that cannot allocate or map, or not known to be safe to map, leaves the segment
  // to pwrite(2) (a tail a failed allocation may have left is zeros, where reading stops).
  if (safe_to_map(fd) && ::posix_fallocate(fd, 0, kSegmentBytes) == 0) {
    void* m = ::mmap(nullptr, kSegmentBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) {
      s.map = static_cast<char*>(m);
      s.mapped = kSegmentBytes;
    }
  }
  return s;
}

void CallJournal::unmap(Segment& s) {
  if (s.map != nullptr) ::munmap(s.map, s.mapped);
  s.map = nullptr;
  s.mapped = 0;
}

void CallJournal::close_segment(Segment& s, bool remove) {
  unmap(s);
  if (remove) ::unlink(s.path.c_str());
  if (s.fd >= 0) ::close(s.fd);
  s.fd = -1;
}

Result<std::unique_ptr<CallJournal>> CallJournal::start(const std::filesystem::path& db_file) {
  // Its own connection: a batch's commit holds this one, never the one the calls read pins with
  // (in WAL mode a reader does not wait for a writer of another connection).
  auto opened = Db::open(db_file);
  if (!opened) return fail(opened.error());
  std::array<std::uint8_t, 8> nonce{};
  if (::getrandom(nonce.data(), nonce.size(), 0) != static_cast<ssize_t>(nonce.size())) return fail(sys_error("getrandom"));
  std::string name = std::string(kPrefix) + std::to_string(::getpid()) + "-" + trust::to_hex(nonce);
  std::unique_ptr<CallJournal> j(new CallJournal(std::move(*opened), db_file.parent_path(), std::move(name)));
  auto first = j->open_segment(1);
  if (!first) return fail(first.error());
  j->current_ = std::move(*first);
  j->segment_ = 1;
  j->writer_ = std::thread([raw = j.get()] { raw->run(); });
  // Named, so that its share of the gateway's CPU can be read per thread (top -H, /proc, and
  // bench/gateway/upstream_cpu.sh, which reports it per call). A name it cannot take changes nothing.
  (void)pthread_setname_np(j->writer_.native_handle(), kWriterThreadName);
  return j;
}

CallJournal::CallJournal(std::shared_ptr<Db> db, std::filesystem::path dir, std::string name)
    : db_(std::move(db)), dir_(std::move(dir)), name_(std::move(name)) {}

CallJournal::~CallJournal() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
  // Everything committed: the files and the mark go. If the last commit failed, they stay for
  // the next opener's recover().
  bool drained;
  std::vector<Segment> files;
  Segment recycled;
  {
    std::lock_guard lock(mu_);
    drained = queue_.entries.empty();
    files = std::move(full_);
    files.push_back(current_);
    recycled = std::exchange(recycled_, Segment{});
  }
  for (auto& s : files) close_segment(s, drained);
  if (recycled.fd >= 0) close_segment(recycled, true);  // zeros: no record either way
  // Without mu_: the lock order is the Db's, then mu_ (commit_batch).
  if (drained) (void)db_->transaction([&](Db& d) { return drop_mark(d, name_); }, Db::Durability::process_crash);
}

Result<void> CallJournal::append(std::string_view time, std::string_view canonical_body) {
  // Framed as it is, so that the writer reads it back from the line.
  if (!AuditLog::plain(time)) return fail(Error::internal("the call record's time is not plain text"));
  std::unique_lock lock(mu_);
  if (broken_) return fail(Error::internal("the audit journal failed earlier"));
  // Full: this thread commits what waits (the bound on what a flood of calls makes us hold).
  while (queue_.entries.size() >= kMaxQueued || queue_.text.size() >= kMaxQueuedBytes) {
    lock.unlock();
    if (auto c = commit_batch(); !c) return c;
    lock.lock();
  }
  // The line is written where it waits for the writer, then copied to the journal from there.
  const std::int64_t jseq = next_jseq_;
  std::string& out = queue_.text;
  const std::size_t at = out.size();
  out.append("{\"j\":").append(std::to_string(jseq)).append(",\"t\":\"");
  const std::size_t time_at = out.size();
  out.append(time).append("\",\"b\":");
  const std::size_t body_at = out.size();
  out.append(canonical_body);
  append_journal_check(out, std::string_view(out).substr(at));
  out.push_back('\n');
  const std::string_view line = std::string_view(out).substr(at);
  if (segment_bytes_ > 0 && segment_bytes_ + line.size() > kSegmentBytes) {
    // The next segment; this one goes once its records are committed.
    if (auto next = next_segment_locked(segment_ + 1)) {
      current_.last_jseq = next_jseq_ - 1;
      current_.used = segment_bytes_;
      full_.push_back(current_);
      current_ = std::move(*next);
      ++segment_;
      segment_bytes_ = 0;
    } else {
      MCP_LOG_WARN("gateway: audit journal: {}; writing on in the current segment", next.error().message);
    }
  }
  // The kernel's page cache has the line when this returns, copied into the mapping or written.
  if (segment_bytes_ + line.size() <= current_.mapped) {
    std::memcpy(current_.map + segment_bytes_, line.data(), line.size());
  } else {
    for (std::size_t done = 0; done < line.size();) {
      const ssize_t n = ::pwrite(current_.fd, line.data() + done, line.size() - done,
                                 static_cast<off_t>(segment_bytes_ + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        broken_ = true;
        auto e = sys_error("write " + current_.path.string());
        out.resize(at);
        // A partial line is left without its newline: recover() leaves it out.
        return fail(std::move(e));
      }
      done += static_cast<std::size_t>(n);
    }
  }
  ++next_jseq_;
  segment_bytes_ += line.size();
  queue_.entries.push_back(Entry{jseq, time_at, time.size(), body_at, canonical_body.size()});
  // Once per batch, not per record: when the writer has a batch to wait for, and when it is big
  // enough not to wait longer.
  if (queue_.entries.size() == 1 || queue_.entries.size() == kMaxQueued / 4) wake_.notify_one();
  return {};
}

std::size_t CallJournal::queued() const {
  std::lock_guard lock(mu_);
  return queue_.entries.size();
}

std::vector<std::filesystem::path> CallJournal::files() const {
  std::lock_guard lock(mu_);
  std::vector<std::filesystem::path> out;
  for (const auto& s : full_) out.push_back(s.path);
  out.push_back(current_.path);
  return out;
}

Result<void> CallJournal::flush() { return commit_batch(); }

Result<void> CallJournal::commit_batch() {
  // The Db's lock (recursive) is held from taking the batch to its commit, so batches commit in
  // the order they were taken and the mark only grows.
  return db_->locked([&](Db&) -> Result<void> {
    Batch batch;
    {
      std::lock_guard lock(mu_);
      if (queue_.entries.empty()) return {};
      batch = std::exchange(queue_, std::move(spare_));
      queue_.text.clear();  // spare_'s buffers, emptied when it was kept (or moved-from)
      queue_.entries.clear();
    }
    auto ok = db_->transaction(
        [&](Db& d) -> Result<void> {
          auto head = AuditLog::head_in(d);
          if (!head) return fail(head.error());
          // The batch's text outlives the transaction, as the appender's views must.
          ChainAppender chain(d, std::move(*head));
          for (const auto& e : batch.entries) {
            if (auto a = chain.add("call", batch.time(e), batch.body(e)); !a) return fail(a.error());
          }
          if (auto f = chain.finish(); !f) return fail(f.error());
          return set_mark(d, name_, batch.entries.back().jseq);
        },
        Db::Durability::process_crash);
    std::unique_lock lock(mu_);
    if (!ok) {
      // Back in front, in order, for the next attempt; the journal still holds them.
      const std::size_t shift = batch.text.size();
      batch.text += queue_.text;
      for (Entry e : queue_.entries) {
        e.time_at += shift;
        e.body_at += shift;
        batch.entries.push_back(e);
      }
      queue_ = std::move(batch);
      return fail(ok.error());
    }
    const std::int64_t committed = batch.entries.back().jseq;
    batch.text.clear();
    batch.entries.clear();
    // A burst's buffers are not kept: past a few segments' worth they go.
    if (batch.text.capacity() > 4 * kSegmentBytes) {
      batch.text.shrink_to_fit();
      batch.entries.shrink_to_fit();
    }
    spare_ = std::move(batch);
    // Full segments whose every record is in the chain go.
    std::vector<Segment> done;
    std::erase_if(full_, [&](Segment& s) {
      if (s.last_jseq > committed) return false;
      done.push_back(s);
      return true;
    });
    lock.unlock();
    retire(std::move(done));
    return {};
  });
}

Result<CallJournal::Segment> CallJournal::next_segment_locked(std::uint64_t n) {
  if (recycled_.map != nullptr) {
    Segment s = std::exchange(recycled_, Segment{});
    const auto path = dir_ / (name_ + "-" + std::to_string(n));
    if (::rename(s.path.c_str(), path.c_str()) == 0) {
      s.path = path;
      s.last_jseq = 0;
      s.used = 0;
      return s;
    }
    MCP_LOG_WARN("gateway: audit journal: {}; making a new segment", sys_error("rename " + s.path.string()).message);
    close_segment(s, true);
  }
  return open_segment(n);
}

void CallJournal::retire(std::vector<Segment> committed) {
  for (auto& s : committed) {
    // Removed, or renamed away, while still locked: no opener can take it for a dead journal's.
    // Only a segment wholly in its mapping is kept (a line written past it would leave bytes
    // the zeroing misses).
    bool keep = false;
    if (s.map != nullptr && s.used <= s.mapped) {
      std::lock_guard lock(mu_);
      keep = recycled_.map == nullptr && !stopping_;
    }
    const auto spare = dir_ / (std::string(kCreating) + name_.substr(kPrefix.size()) + "-recycled");
    if (keep && ::rename(s.path.c_str(), spare.c_str()) == 0) {
      s.path = spare;
      // Holds no line: a zero byte ends a segment's reading. Not synced to the disk (an msync
      // per segment cost ~4 µs of CPU per call here): after a power loss a page of new lines that
      // never reached the disk may read as old lines, and a line spliced from a new one and an old
      // one fails its check and is left out. Whole old lines are all committed: below the mark.
      std::memset(s.map, 0, s.used);
      std::lock_guard lock(mu_);
      if (recycled_.map == nullptr && !stopping_) {
        recycled_ = s;
        continue;
      }
    }
    close_segment(s, true);
  }
}

void CallJournal::run() {
  std::unique_lock lock(mu_);
  std::chrono::steady_clock::time_point last_commit{};
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.entries.empty(); });
    if (queue_.entries.empty() && stopping_) return;
    // Gather the calls of the next few milliseconds into this commit, or of the rest of the busy
    // interval while calls keep coming; a quarter of the queue's bound is committed at once.
    const auto until = std::max(std::chrono::steady_clock::now() + kBatchWindow, last_commit + kBusyInterval);
    wake_.wait_until(lock, until, [&] { return stopping_ || queue_.entries.size() >= kMaxQueued / 4; });
    last_commit = std::chrono::steady_clock::now();
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
