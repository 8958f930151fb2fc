#include "gateway/pin_store.hpp"

#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::gateway {

namespace {

// Stored by its result key ("tools", "prompts", "resources", "resourceTemplates").
std::string kind_name(ListKind k) { return std::string(result_key(k)); }

std::optional<PinState> state_named(std::string_view s) {
  for (PinState p : {PinState::approved, PinState::quarantined, PinState::rejected})
    if (to_string(p) == s) return p;
  return std::nullopt;
}

constexpr std::string_view kColumns =
    "server, kind, key, approved_hash, approved_definition, seen_hash, seen_definition, state, updated";

Pin read_pin(const Stmt& s) {
  Pin p;
  p.server = s.text(0);
  p.kind = list_kind_of_result_key(s.text(1)).value_or(ListKind::tools);
  p.key = s.text(2);
  p.approved_hash = s.optional_text(3);
  p.approved_definition = s.optional_text(4);
  p.seen_hash = s.text(5);
  p.seen_definition = s.text(6);
  // An unknown state (a hand-edited file) blocks the item rather than allowing it.
  p.state = state_named(s.text(7)).value_or(PinState::rejected);
  p.updated = s.text(8);
  return p;
}

Result<std::vector<Pin>> select_pins(Db& d, const std::string& where, const std::vector<std::string>& args) {
  auto s = d.prepare("SELECT " + std::string(kColumns) + " FROM pins " + where + " ORDER BY server, kind, key");
  if (!s) return fail(s.error());
  for (std::size_t i = 0; i < args.size(); ++i) s->bind(static_cast<int>(i + 1), args[i]);
  std::vector<Pin> out;
  if (auto ok = s->each_row([&](const Stmt& row) { out.push_back(read_pin(row)); }); !ok) return fail(ok.error());
  return out;
}

Result<void> write_pin(Db& d, const Pin& p) {
  auto s = d.prepare("INSERT OR REPLACE INTO pins (" + std::string(kColumns) +
                     ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))");
  if (!s) return fail(s.error());
  s->bind(1, p.server).bind(2, kind_name(p.kind)).bind(3, p.key);
  if (p.approved_hash) s->bind(4, *p.approved_hash).bind(5, *p.approved_definition);
  else s->bind_null(4).bind_null(5);
  s->bind(6, p.seen_hash).bind(7, p.seen_definition).bind(8, to_string(p.state));
  auto done = s->step();
  if (!done) return fail(done.error());
  return {};
}

json::object item_of(const Pin& p) {
  return json::object{{"server", p.server}, {"kind", kind_name(p.kind)}, {"key", p.key}};
}

// The one pin a person names: `key` of `kind`, or of whichever kind has that key.
Result<Pin> find_one(Db& d, const std::string& server, const std::string& key, std::optional<ListKind> kind) {
  auto found = kind ? select_pins(d, "WHERE server = ? AND kind = ? AND key = ?", {server, kind_name(*kind), key})
                    : select_pins(d, "WHERE server = ? AND key = ?", {server, key});
  if (!found) return fail(found.error());
  if (found->empty()) {
    return fail(Error::invalid_params("no pinned item '" + peer_text(key) + "' of server '" + peer_text(server) +
                                      "' (mcp-trust gateway pins lists them)"));
  }
  if (found->size() > 1) {
    std::string kinds;
    for (const auto& p : *found) kinds += (kinds.empty() ? "" : ", ") + kind_name(p.kind);
    return fail(Error::invalid_params("'" + peer_text(key) + "' names more than one item (" + kinds +
                                      "): say which with --kind"));
  }
  return std::move(found->front());
}

std::int64_t bytes_of(const Pin& p) {
  return static_cast<std::int64_t>(p.seen_definition.size() +
                                   (p.approved_definition ? p.approved_definition->size() : 0));
}

}  // namespace

std::string_view to_string(PinState s) {
  switch (s) {
    case PinState::approved: return "approved";
    case PinState::quarantined: return "quarantined";
    case PinState::rejected: return "rejected";
  }
  return "rejected";
}

Result<std::unique_ptr<PinStore>> PinStore::open(std::shared_ptr<Db> db, std::shared_ptr<AuditLog> audit) {
  auto ok = db->transaction([](Db& d) {
    return d.exec(
        "CREATE TABLE IF NOT EXISTS pins (server TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL,"
        " approved_hash TEXT, approved_definition TEXT, seen_hash TEXT NOT NULL, seen_definition TEXT NOT NULL,"
        " state TEXT NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (server, kind, key))");
  });
  if (!ok) return fail(ok.error());
  // Needed by every process that changes pins, not only by those that cache them: a change whose
  // counter is not bumped would go unseen by a gateway's cache until its time bound.
  auto changes = SharedCounter::open(db->file().parent_path() / "pins-changes");
  if (!changes) return fail(changes.error());
  return std::unique_ptr<PinStore>(new PinStore(std::move(db), std::move(audit), std::move(*changes)));
}

void PinStore::changed() {
  // Own count first: a usage checked between the two sees no change by another process.
  own_changes_.fetch_add(1);
  changes_->bump();
}

Result<PinStore::Usage> PinStore::usage_of(Db& d, const std::string& server) {
  // Read before the database: a change committed after them makes the next use load again.
  const std::uint64_t own = own_changes_.load();
  const std::uint64_t counter = changes_->load();
  {
    std::lock_guard lock(usage_mu_);
    if (auto it = usage_.find(server); it != usage_.end()) {
      if (counter - it->second.counter <= own - it->second.own) return it->second.use;
      usage_.erase(it);  // another process changed pins since: loaded again
    }
  }
  // Bytes, not characters (SQLite's length() of TEXT counts characters).
  auto row = d.first_row(
      "SELECT count(*), coalesce(sum(length(CAST(seen_definition AS BLOB)) + "
      "coalesce(length(CAST(approved_definition AS BLOB)), 0)), 0) FROM pins WHERE server = ?",
      server);
  if (!row) return fail(row.error());
  Usage u;
  if (*row) u = Usage{(*row)->integer(0), (*row)->integer(1)};
  std::lock_guard lock(usage_mu_);
  return usage_.insert_or_assign(server, Loaded{u, counter, own}).first->second.use;
}

bool PinStore::change_allowed(const std::string& server) {
  std::lock_guard lock(usage_mu_);
  auto& budget = changes_budget_[server];
  if (!budget) budget = std::make_unique<detail::LogBudget>(kChangesBurst, kChangesPerSecond);
  return budget->take().has_value();
}

void PinStore::used(const std::string& server, Usage more) {
  std::lock_guard lock(usage_mu_);
  if (auto it = usage_.find(server); it != usage_.end()) {
    it->second.use.pins += more.pins;
    it->second.use.bytes += more.bytes;
  }
}

void PinStore::forgotten(const std::string& server) {
  std::lock_guard lock(usage_mu_);
  usage_.erase(server);
}

Result<PinStore::Observation> PinStore::observe_in(Db& d, const std::string& server, ListKind kind, const std::string& key,
                                                   const std::string& canonical, NewItems policy, bool& wrote) {
  const std::string hash = trust::sha256_tag(canonical);
  static const std::string not_kept(kNotKept);
  Observation seen{.state = PinState::quarantined};
  Usage more;  // what this observation adds to the server's usage, once committed
  auto found = select_pins(d, "WHERE server = ? AND kind = ? AND key = ?", {server, kind_name(kind), key});
  if (!found) return fail(found.error());
  auto use = usage_of(d, server);
  if (!use) return fail(use.error());
  const auto size = [](const std::string& t) { return static_cast<std::int64_t>(t.size()); };
  Pin p;
  std::optional<std::string> record;  // the audit kind, if this changes anything
  if (found->empty()) {
    if (use->pins >= kMaxPinsPerServer) {
      seen.limited = Limited::pins;
      return seen;  // not pinned: quarantined, and nothing written
    }
    const std::int64_t copies = policy == NewItems::allow ? 2 : 1;
    const std::string& kept = use->bytes + copies * size(canonical) > kMaxPinBytesPerServer ? not_kept : canonical;
    more = Usage{1, copies * size(kept)};
    p = Pin{server, kind, key, std::nullopt, std::nullopt, hash, kept, PinState::quarantined, ""};
    if (policy == NewItems::allow) {
      p.approved_hash = hash;
      p.approved_definition = kept;
      p.state = PinState::approved;
      record = "pin";
    } else {
      record = "quarantine";
    }
  } else {
    p = std::move(found->front());
    const PinState before = p.state;
    const bool changed = p.seen_hash != hash;
    if (changed) {
      const std::int64_t grows = size(canonical) - size(p.seen_definition);
      const std::string& kept = grows > 0 && use->bytes + grows > kMaxPinBytesPerServer ? not_kept : canonical;
      more.bytes = size(kept) - size(p.seen_definition);
      p.seen_definition = kept;
    }
    p.seen_hash = hash;
    if (p.state != PinState::rejected) p.state = p.approved_hash == hash ? PinState::approved : PinState::quarantined;
    if (p.state != before) record = p.state == PinState::approved ? "restore" : "quarantine";
    else if (changed) record = "change";  // still blocked, now with another definition
  }
  if (!record) {
    seen.state = p.state;
    return seen;
  }
  // Within the upstream's budget of change records (kChangesBurst). A quarantine is always
  // written: the pin must never say approved for a definition that is not. Past the budget, a
  // restore waits (the pin stays quarantined, as the verdict says), and a blocked item's new
  // definition is pinned without its record (so a person approving it sees what is served).
  bool recorded = true;
  if (*record != "quarantine" && !found->empty() && !change_allowed(server)) {
    if (*record == "restore") {
      seen.limited = Limited::changes;
      return seen;
    }
    recorded = false;
  }
  seen.state = p.state;
  wrote = true;
  if (auto w = write_pin(d, p); !w) return fail(w.error());
  used(server, more);
  if (!recorded) return seen;
  json::object body = item_of(p);
  body["hash"] = hash;
  if (p.approved_hash) body["approvedHash"] = *p.approved_hash;
  if (auto a = AuditLog::append_in(d, *record, body); !a) return fail(a.error());
  return seen;
}

Result<PinState> PinStore::observe(const std::string& server, ListKind kind, const std::string& key,
                                   const json::object& definition, NewItems policy, Limited* limited) {
  auto seen = observe_all(server, kind, {Observed{.key = key, .definition = &definition}}, policy);
  if (!seen) return fail(seen.error());
  if (limited) *limited = seen->front().limited;
  return seen->front().state;
}

Result<std::vector<PinStore::Observation>> PinStore::observe_all(const std::string& server, ListKind kind,
                                                                 const std::vector<Observed>& items, NewItems policy) {
  std::vector<std::string> canonical;
  canonical.reserve(items.size());
  for (const auto& item : items) {
    auto c = trust::canonicalize(*item.definition);
    if (!c) return fail(c.error());
    canonical.push_back(std::move(*c));
  }
  std::vector<Observation> seen;
  seen.reserve(items.size());
  bool wrote = false;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto one = observe_in(d, server, kind, items[i].key, canonical[i], policy, wrote);
      if (!one) return fail(one.error());
      seen.push_back(*one);
    }
    return {};
  });
  if (wrote) changed();  // committed, or rolled back: either way no cache keeps what it read before
  if (!ok) {
    if (wrote) forgotten(server);  // counted, not committed
    return fail(ok.error());
  }
  return seen;
}

Result<std::optional<PinState>> PinStore::state(const std::string& server, ListKind kind, const std::string& key) const {
  // On every call: from the cache while no process has changed a pin since it was filled (the
  // count is read before the database, so a change committed meanwhile makes the next call read
  // again) and for at most kCacheFor (a change that bumped nothing: its process killed between
  // its commit and the bump, or the database edited directly); else the state column alone, by a
  // statement whose text is a constant.
  const std::uint64_t seen = changes_->load();
  // Made in this thread's buffer: a hit (nearly every call) allocates nothing.
  thread_local std::string cache_key;
  cache_key.assign(server).push_back('\0');
  cache_key.append(kind_name(kind)).push_back('\0');
  cache_key.append(key);
  {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(cache_mu_);
    if (cache_changes_ != seen || now - cache_since_ > kCacheFor) {
      cache_.clear();
      cache_changes_ = seen;
      cache_since_ = now;
    } else if (auto it = cache_.find(cache_key); it != cache_.end()) {
      return it->second;
    }
  }
  std::optional<PinState> out;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto row =
        d.first_row("SELECT state FROM pins WHERE server = ? AND kind = ? AND key = ?", server, kind_name(kind), key);
    if (!row) return fail(row.error());
    // An unknown state (a hand-edited file) blocks the item rather than allowing it.
    if (*row) out = state_named((*row)->text(0)).value_or(PinState::rejected);
    return {};
  });
  if (!ok) return fail(ok.error());
  {
    std::lock_guard lock(cache_mu_);
    if (cache_changes_ == seen && cache_.size() < kMaxCached) cache_.emplace(cache_key, out);
  }
  return out;
}

Result<std::int64_t> PinStore::count_blocked(const std::string& server) const {
  std::int64_t n = 0;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto row = d.first_row("SELECT COUNT(*) FROM pins WHERE server = ? AND state != 'approved'", server);
    if (!row) return fail(row.error());
    n = *row ? (*row)->integer(0) : 0;
    return {};
  });
  if (!ok) return fail(ok.error());
  return n;
}

Result<std::vector<Pin>> PinStore::pins(const std::optional<std::string>& server) const {
  std::vector<Pin> out;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto found = server ? select_pins(d, "WHERE server = ?", {*server}) : select_pins(d, "", {});
    if (!found) return fail(found.error());
    out = std::move(*found);
    return {};
  });
  if (!ok) return fail(ok.error());
  return out;
}

Result<PinStore::Page> PinStore::page(std::size_t max_changes, std::size_t max_listed) const {
  Page out;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto count = d.first_row("SELECT COUNT(*) FROM pins");
    if (!count) return fail(count.error());
    if (*count) out.total = static_cast<std::size_t>((*count)->integer(0));
    auto changes = d.prepare("SELECT " + std::string(kColumns) +
                             " FROM pins WHERE state != 'approved' ORDER BY server, kind, key LIMIT ?");
    if (!changes) return fail(changes.error());
    changes->bind(1, static_cast<std::int64_t>(max_changes));
    if (auto r = changes->each_row([&](const Stmt& row) { out.changes.push_back(read_pin(row)); }); !r) return r;
    // substr counts characters: at most 4 bytes each, cut again to bytes below.
    auto listed = d.prepare(
        "SELECT server, kind, substr(key, 1, ?), state, updated FROM pins ORDER BY server, kind, key LIMIT ?");
    if (!listed) return fail(listed.error());
    listed->bind(1, static_cast<std::int64_t>(kMaxListedKeyBytes)).bind(2, static_cast<std::int64_t>(max_listed));
    return listed->each_row([&](const Stmt& row) {
      Pin p;
      p.server = row.text(0);
      p.kind = list_kind_of_result_key(row.text(1)).value_or(ListKind::tools);
      p.key = row.text(2);
      if (p.key.size() > kMaxListedKeyBytes) p.key.resize(kMaxListedKeyBytes);  // the page cuts it on a character
      p.state = state_named(row.text(3)).value_or(PinState::rejected);
      p.updated = row.text(4);
      out.listed.push_back(std::move(p));
    });
  });
  if (!ok) return fail(ok.error());
  return out;
}

Result<Pin> PinStore::decide(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                             const std::string& who, bool approve, const std::optional<std::string>& expected) {
  Pin decided;
  Usage more;
  bool wrote = false;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    auto found = find_one(d, server, key, kind);
    if (!found) return fail(found.error());
    decided = std::move(*found);
    if (expected && decided.seen_hash != *expected) {
      // The upstream changed it again after the person looked: what they saw is not what would be pinned.
      return fail(Error::invalid_params("the definition of '" + peer_text(key) + "' changed again since it was shown (now " +
                                        decided.seen_hash + "): review it again"));
    }
    if (approve) {
      more.bytes = static_cast<std::int64_t>(decided.seen_definition.size()) -
                   static_cast<std::int64_t>(decided.approved_definition ? decided.approved_definition->size() : 0);
      decided.approved_hash = decided.seen_hash;
      decided.approved_definition = decided.seen_definition;
      decided.state = PinState::approved;
    } else {
      decided.state = PinState::rejected;
    }
    if (auto w = write_pin(d, decided); !w) return w;
    wrote = true;
    used(server, more);
    json::object body = item_of(decided);
    body["hash"] = decided.seen_hash;
    body["by"] = who;
    if (auto a = AuditLog::append_in(d, approve ? "approve" : "reject", body); !a) return fail(a.error());
    return {};
  });
  changed();
  if (!ok) {
    if (wrote) forgotten(server);  // counted, not committed
    return fail(ok.error());
  }
  return decided;
}

Result<Pin> PinStore::forget(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                             const std::string& who) {
  Pin gone;
  bool wrote = false;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    auto found = find_one(d, server, key, kind);
    if (!found) return fail(found.error());
    gone = std::move(*found);
    if (auto done = d.run("DELETE FROM pins WHERE server = ? AND kind = ? AND key = ?", gone.server,
                          kind_name(gone.kind), gone.key);
        !done) {
      return fail(done.error());
    }
    wrote = true;
    used(server, Usage{-1, -bytes_of(gone)});  // if loaded; else loaded at its next use
    json::object body = item_of(gone);
    body["hash"] = gone.seen_hash;
    if (gone.approved_hash) body["approvedHash"] = *gone.approved_hash;
    body["state"] = to_string(gone.state);
    body["by"] = who;
    if (auto a = AuditLog::append_in(d, "forget", body); !a) return fail(a.error());
    return {};
  });
  changed();
  if (!ok) {
    if (wrote) forgotten(server);
    return fail(ok.error());
  }
  return gone;
}

Result<std::int64_t> PinStore::forget_all(const std::string& server, Forget which, const std::string& who) {
  std::int64_t count = 0;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    auto done = d.run(which == Forget::all
                          ? "DELETE FROM pins WHERE server = ?"
                          : "DELETE FROM pins WHERE server = ? AND state = 'quarantined' AND approved_hash IS NULL",
                      server);
    if (!done) return fail(done.error());
    count = d.changes();
    // One record for them all: a person's one decision, however many pins it drops.
    json::object body{
        {"server", server}, {"which", which == Forget::all ? "all" : "new"}, {"count", count}, {"by", who}};
    if (auto a = AuditLog::append_in(d, "forget", body); !a) return fail(a.error());
    return {};
  });
  forgotten(server);  // loaded again at its next use, whatever happened
  changed();
  if (!ok) return fail(ok.error());
  return count;
}

Result<Pin> PinStore::approve(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                              const std::string& who, const std::optional<std::string>& expected) {
  return decide(server, key, kind, who, true, expected);
}

Result<Pin> PinStore::reject(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                             const std::string& who, const std::optional<std::string>& expected) {
  return decide(server, key, kind, who, false, expected);
}

}  // namespace mcp::gateway
