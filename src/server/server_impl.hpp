// Private: the Server's registry, shared by Server (writes) and its sessions (reads and dispatch).
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "mcp/server/server.hpp"

namespace mcp {

class ServerSessionImpl;

struct Server::Impl {
  explicit Impl(ServerOptions o) : opts(std::move(o)) {}

  struct ToolEntry { Tool tool; ToolHandler handler; };
  struct ResourceEntry { Resource resource; ResourceReader reader; };
  struct TemplateEntry { ResourceTemplate resource_template; UriTemplate matcher; TemplateReader reader; };
  struct PromptEntry { Prompt prompt; PromptHandler handler; };

  ServerOptions opts;
  mutable std::mutex mu;
  // Vectors keep registration order, which is the order lists are served in.
  std::vector<ToolEntry> tools;
  std::vector<ResourceEntry> resources;
  std::vector<TemplateEntry> templates;
  std::vector<PromptEntry> prompts;
  Completer completer;
  std::vector<std::weak_ptr<ServerSessionImpl>> sessions;

  json::object capabilities() const;
  // Sends a notification to every initialised session (list_changed, resources/updated, ...).
  void broadcast(std::string_view method, const json::object& params, const std::string& only_subscribers_of = {});
};

}  // namespace mcp
