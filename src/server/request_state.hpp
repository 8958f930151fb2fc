// Private: the requestState of a multi round-trip result, signed so that the server can prove it
// issued it (basic/patterns/mrtr.mdx, "Security": a server whose state influences what it does
// MUST integrity-protect it and reject state that fails verification).
//
// Format: "v1." Base64url(JSON {"p": payload, "exp": unix seconds}) "." Base64url(HMAC-SHA256).
// The MAC covers the version, the body and a binding string that never travels (the method, the
// item and the caller, see binding_of in input_required.cpp): a state issued for one tool, one
// prompt or one caller fails verification anywhere else, as does an expired or altered one. It
// is signed, not encrypted: the client can read the payload.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "mcp/error.hpp"
#include "mcp/json.hpp"

namespace mcp {

class RequestStateCodec {
 public:
  using Key = std::array<std::uint8_t, 32>;
  // The longest state accepted or issued. A client echoes it on every retry, and the request-size
  // limit of each transport bounds it anyway; this bounds what one handler can make us sign.
  static constexpr std::size_t kMaxBytes = 64 * 1024;

  RequestStateCodec(Key key, std::chrono::seconds lifetime) : key_(key), lifetime_(lifetime) {}
  // 32 bytes from the operating system's random source (libsodium).
  static Key random_key();

  using Clock = std::chrono::system_clock;
  // -32603 when the sealed state would be over kMaxBytes.
  [[nodiscard]] Result<std::string> seal(const json::value& payload, std::string_view binding,
                                         Clock::time_point now = Clock::now()) const;
  // The payload; -32602 saying why when the state is malformed, over kMaxBytes, altered, bound to
  // something else, or expired.
  [[nodiscard]] Result<json::value> open(std::string_view state, std::string_view binding,
                                         Clock::time_point now = Clock::now()) const;

 private:
  std::string mac(std::string_view signed_part, std::string_view binding) const;

  Key key_;
  std::chrono::seconds lifetime_;
};

}  // namespace mcp
