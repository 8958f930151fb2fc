// Private to the gateway: the state folder (--state DIR; default $XDG_STATE_HOME/mcp-trust or
// ~/.local/state/mcp-trust), holding gateway.db: the pins and the audit log, in one SQLite file so
// that a decision and its audit record commit together.
#pragma once

#include <filesystem>
#include <memory>

#include "gateway/approvals.hpp"
#include "gateway/audit_log.hpp"
#include "gateway/ask_store.hpp"
#include "gateway/pin_store.hpp"
#include "mcp/trust/ed25519.hpp"

namespace mcp::gateway {

struct State {
  std::shared_ptr<Db> db;
  std::shared_ptr<AuditLog> audit;
  std::shared_ptr<PinStore> pins;
  std::shared_ptr<AskStore> asks;  // calls waiting for a person's decision (ask_store.hpp)
  // Where those calls wait (approvals.hpp); made by a serving gateway, null for the commands that
  // only read or decide.
  std::shared_ptr<Approvals> approvals;
  // The gateway's signing key (key.hpp), for what it vouches for; null: nothing is signed.
  // open_state leaves it null (the pins and audit commands do not sign).
  std::shared_ptr<const trust::Ed25519SecretKey> key;
};

std::filesystem::path default_state_dir();
// `given` (a --state option), or the default when it is empty.
std::filesystem::path state_dir_or_default(const std::string& given);
Result<State> open_state(const std::filesystem::path& dir);

}  // namespace mcp::gateway
