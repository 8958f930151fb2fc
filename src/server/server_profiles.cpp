// Server profiles on the server (Server::set_profiles; mcp/protocol/profiles.hpp).
#include "server/server_impl.hpp"

namespace mcp {

Result<void> Server::set_profiles(std::vector<ProfileSpec> profiles) {
  if (auto ok = check_profiles(profiles); !ok) return ok;
  std::lock_guard lock(impl_->mu);
  impl_->profiles = std::make_shared<const std::vector<ProfileSpec>>(std::move(profiles));
  return {};
}

std::vector<ProfileSpec> Server::profiles() const { return *impl_->profiles_now(); }

Result<std::optional<std::string>> Server::Impl::negotiate_profile(const std::vector<std::string>& requested,
                                                                    std::string_view revision) const {
  return mcp::negotiate_profile(*profiles_now(), requested, revision);
}

}  // namespace mcp
