// Private to the gateway: secrets kept in the state folder (its signing key, the review page's
// token). Created once, atomically, mode 0600; read back only when they are still private.
//
// Threat model: anyone who can read such a file holds the secret. A file readable by group or
// others, or owned by another user (who then knows it), is refused, not used.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "mcp/error.hpp"

namespace mcp::gateway {

// The content of `file` (at most `max_bytes`), if it is a private regular file of ours.
[[nodiscard]] Result<std::string> read_private_file(const std::filesystem::path& file, std::size_t max_bytes);
// Creates `file` holding `content`, mode 0600, synced: written to a private temporary file whose
// name ends with `nonce` (unpredictable, so a file planted there cannot stop us), then linked into
// place, so a reader never sees half of it and of two racing writers exactly one wins. False
// (and nothing written) if `file` exists already.
[[nodiscard]] Result<bool> create_private_file(const std::filesystem::path& file, std::string_view content,
                                               std::string_view nonce);

}  // namespace mcp::gateway
