// Private to the gateway: one upstream MCP server behind a Server of ours, with trust on first use.
// This first slice mirrors the upstream's tools (prompts, resources and templates are not
// forwarded yet): each tool the upstream lists is pinned (pin_store.hpp); one quarantined or
// rejected is hidden from tools/list and a call to it is refused with why and how to approve it;
// every call is appended to the audit log. A tools/list_changed from the upstream re-lists it, and
// tells our clients when what they may see changed. A decision made meanwhile by another process
// (`mcp-trust gateway approve`) holds from the next list or call: the state is read from the store
// each time.
//
// Thread-safety: the Server serves its sessions on its own threads; refresh() may be called from
// any thread.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "gateway/pin_store.hpp"
#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"

namespace mcp::gateway {

struct ProxyOptions {
  std::string name = "upstream";  // the server's name in pins, the audit log and errors
  NewItems new_items = NewItems::allow;
  std::string state_dir;          // shown in the errors that say how to approve
};

class Proxy : public std::enable_shared_from_this<Proxy> {
 public:
  // `upstream` must be connected. Lists it once, pins what it offers, and registers the tools.
  static Result<std::shared_ptr<Proxy>> start(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins,
                                              std::shared_ptr<AuditLog> audit, ProxyOptions options,
                                              ServerOptions server_options = {});
  ~Proxy();

  std::shared_ptr<Server> server() const { return server_; }
  // Lists the upstream's tools again, pins them, and registers what changed.
  [[nodiscard]] Result<void> refresh();
  // Asks for a refresh from the proxy's own thread (for the upstream's list_changed, which arrives
  // on its reader thread, where a request must not be made).
  void refresh_later();

 private:
  Proxy(std::shared_ptr<Client> upstream, std::shared_ptr<PinStore> pins, std::shared_ptr<AuditLog> audit,
        ProxyOptions options, ServerOptions server_options);
  Result<CallToolResult> call(const std::string& name, const json::object& arguments, RequestContext& ctx);
  std::optional<Error> refusal(const std::string& tool) const;

  std::shared_ptr<Client> upstream_;
  std::shared_ptr<PinStore> pins_;
  std::shared_ptr<AuditLog> audit_;
  const ProxyOptions options_;
  std::shared_ptr<Server> server_;
  std::mutex mu_;
  std::set<std::string> registered_;  // tool names registered on server_
  std::map<std::string, PinState> listed_states_;  // as of the last refresh, to tell clients of changes
  std::condition_variable_any cv_;  // with the refresher's stop_token
  bool refresh_wanted_ = false;
  std::jthread refresher_;  // last
};

}  // namespace mcp::gateway
