// Private: one client connection of a Server: the MCP lifecycle on top of the session engine, and
// the dispatch of each method to the Server's registry.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>

#include "mcp/server/server.hpp"
#include "server/server_impl.hpp"

namespace mcp {

class ServerSessionImpl final : public ServerSession,
                                public Session::Handler,
                                public ClientChannel,
                                public std::enable_shared_from_this<ServerSessionImpl> {
 public:
  static Result<std::shared_ptr<ServerSessionImpl>> create(std::shared_ptr<Server::Impl> server,
                                                           std::shared_ptr<Transport> transport);
  ServerSessionImpl(std::shared_ptr<Server::Impl> server, std::shared_ptr<Transport> transport);
  ~ServerSessionImpl() override;

  // ServerSession
  std::shared_ptr<const ClientView> client() const override;
  void close() override;
  void wait_closed() override;
  Result<void> notify(std::string_view method, json::object params) override;
  const std::string& id() const override { return id_; }
  void set_identity(std::optional<std::string> identity) override;
  std::shared_ptr<const ServerSignature> signature() const override;

  // Session::Handler
  Result<json::value> handle_request(InboundRequest& request) override;
  bool runs_inline(const std::string& method, const json::object* params) const override;
  void handle_notification(const jsonrpc::Notification& notification) override;
  void handle_closed(const std::optional<Error>& reason) override;
  // A running handler keeps its session: see Session::Handler::keep_alive.
  std::shared_ptr<void> keep_alive() override { return weak_from_this().lock(); }

  // ClientChannel
  Result<json::value> request(std::string_view method, json::object params, RequestOptions options) override;
  Result<void> notify(std::string_view method, json::object params, const jsonrpc::Id& related) override;
  std::string log_level() const override;
  void close_stream(const jsonrpc::Id& request_id) override { session_->close_request_stream(request_id); }

  bool subscribed(const std::string& uri) const;
  void notify_if_ready(std::string_view method, const json::object& params);
  std::optional<Error> close_reason() const;

 private:
  Result<json::value> initialize(const json::object& params);
  Result<json::value> dispatch(InboundRequest& request, RequestContext& ctx);

  // server_lists.cpp: the four lists, filtered by availability and by the session's signature.
  Result<json::value> list_tools(const json::object& params, RequestContext& ctx);
  Result<json::value> list_resources(const json::object& params, RequestContext& ctx);
  Result<json::value> list_resource_templates(const json::object& params, RequestContext& ctx);
  Result<json::value> list_prompts(const json::object& params, RequestContext& ctx);
  // The tools this request's tools/list shows, whole and unpaged (list_tools pages it; the signed
  // manifest covers it).
  json::array listed_tools(RequestContext& ctx);
  // Prompts, resources or templates: the registry's `entries`, filtered by the item hook and the
  // signature, paged under `json_key`. `item` picks the definition out of an entry, `key_of` its key.
  template <class Entry, class Item, class KeyOf>
  Result<json::value> list_items(ListKind kind, std::vector<Entry> Server::Impl::*entries, Item Entry::*item,
                                 KeyOf key_of, std::string_view json_key, const json::object& params,
                                 RequestContext& ctx);
  std::shared_ptr<const SessionSignature> session_signature() const;
  // Whether an item about to be listed keeps to the signature; logs an error naming it if not.
  bool may_list(const SessionSignature* sig, ListKind kind, const json::object& item, const std::string& key) const;
  // Whether this request may use `key` (call a tool, get a prompt, read a resource): declared, when
  // the server polices its signature, and available. `tool` is needed for the tool hook.
  bool usable(ListKind kind, const std::string& key, const Tool* tool, RequestContext& ctx) const;

  // server_methods.cpp
  Result<json::value> call_tool(const json::object& params, RequestContext& ctx);
  Result<json::value> read_resource(const json::object& params, RequestContext& ctx);
  Result<json::value> subscribe(const json::object& params, bool on);
  Result<json::value> get_prompt(const json::object& params, RequestContext& ctx);
  Result<json::value> complete(const json::object& params, RequestContext& ctx);
  Result<json::value> set_level(const json::object& params);
  // server_manifest.cpp: tools/manifest, signed over listed_tools.
  Result<json::value> tools_manifest(RequestContext& ctx);

  std::shared_ptr<Server::Impl> server_;
  std::shared_ptr<Session> session_;
  const std::string id_;
  mutable std::mutex mu_;
  std::shared_ptr<const ClientView> client_;
  std::optional<std::string> identity_;                  // applied to client_ at initialize
  std::shared_ptr<const SessionSignature> signature_;    // fixed at initialize
  bool ready_ = false;  // initialize answered: server notifications may be sent
  std::string log_level_;
  std::set<std::string> subscriptions_;
  std::optional<Error> close_reason_;
};

// Paging over a list: the page starting at `cursor` (an opaque offset) of at most `page_size`.
struct Page {
  std::size_t begin = 0, end = 0;
  std::optional<std::string> next_cursor;
};
Result<Page> page_of(const json::object& params, std::size_t total, std::size_t page_size);

}  // namespace mcp
