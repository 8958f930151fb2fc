#include "gateway/state.hpp"

#include <cstdlib>

namespace mcp::gateway {

std::filesystem::path default_state_dir() {
  if (const char* x = std::getenv("XDG_STATE_HOME"); x && *x) return std::filesystem::path(x) / "mcp-trust";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".local/state/mcp-trust";
  return std::filesystem::path(".mcp-trust-state");
}

std::filesystem::path state_dir_or_default(const std::string& given) {
  return given.empty() ? default_state_dir() : std::filesystem::path(given);
}

Result<State> open_state(const std::filesystem::path& dir) {
  auto db = Db::open(dir / "gateway.db");
  if (!db) return fail(db.error());
  State s;
  s.db = std::move(*db);
  auto audit = AuditLog::open(s.db);
  if (!audit) return fail(audit.error());
  s.audit = std::move(*audit);
  auto pins = PinStore::open(s.db, s.audit);
  if (!pins) return fail(pins.error());
  s.pins = std::move(*pins);
  auto asks = AskStore::open(s.db, s.audit);
  if (!asks) return fail(asks.error());
  s.asks = std::move(*asks);
  return s;
}

}  // namespace mcp::gateway
