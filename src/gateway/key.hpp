// Private to the gateway: its signing key, kept in the state folder as gateway-key.pem (PKCS#8,
// mode 0600). Made on first use. It signs what the gateway vouches for on its upstreams' behalf:
// each upstream's server card (the detached proof over its capability signature) and its
// tools/manifest. Clients pin its public half (`mcp-trust gateway key` prints it).
//
// Threat model: anyone who can read the state folder can sign as the gateway; the file is created
// 0600, and a key readable by group or others, or owned by another user, is refused, not used.
#pragma once

#include <filesystem>
#include <memory>

#include "mcp/error.hpp"
#include "mcp/trust/ed25519.hpp"

namespace mcp::gateway {

inline constexpr const char* kKeyFile = "gateway-key.pem";

// Reads DIR/gateway-key.pem, or makes a fresh key and writes it there (atomically: a gateway
// started twice at once ends up with one key). Errors: unreadable, malformed, or too open a file.
[[nodiscard]] Result<std::shared_ptr<const trust::Ed25519SecretKey>> load_or_create_key(const std::filesystem::path& dir);
// Reads it only (for commands that must not make one).
[[nodiscard]] Result<std::shared_ptr<const trust::Ed25519SecretKey>> load_key(const std::filesystem::path& dir);

// A second copy of `key` (keys are move-only; the manifest signer owns its own).
trust::Ed25519SecretKey copy_key(const trust::Ed25519SecretKey& key);

}  // namespace mcp::gateway
