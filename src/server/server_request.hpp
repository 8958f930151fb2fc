// Private: one request on its way through a server session's chain to its handler and back.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "mcp/protocol/completion.hpp"
#include "mcp/protocol/prompt.hpp"
#include "mcp/protocol/resource.hpp"
#include "mcp/protocol/tool_call.hpp"
#include "mcp/server/context.hpp"
#include "mcp/server/stage.hpp"
#include "server/chain.hpp"
#include "server/server_impl.hpp"

namespace mcp {

struct ServerRequest {
  // The context is made here, after `in`: it reads the params it is given for its whole life, and
  // these are the ones that stay put (RequestContext's constructor).
  ServerRequest(InboundRequest&& request, std::shared_ptr<const ClientView> view, ClientChannel& channel,
                Responder responder, ChainView stages, std::shared_ptr<void> session)
      : in(std::move(request)), ctx(std::move(view), channel, in.id, in.params, in.cancel), reply(std::move(responder)),
        chain(std::move(stages)), keep_session(std::move(session)) {}

  InboundRequest in;
  RequestContext ctx;
  Responder reply;
  ChainView chain;
  // What the handler's ClientChannel points at: kept alive while an asynchronous handler holds ctx.
  std::shared_ptr<void> keep_session;
  std::optional<Target> target;  // what the request names (for error messages)
  bool found = false;            // ... and it is registered: the stages see it as call.target
  Call call{in.method, in.params, ctx, nullptr};
  std::size_t depth = 0;  // how many stages saw the request (see ChainView::enter)
  std::atomic<bool> answered{false};
  int input_rounds = 0;  // 2025-11-25 sessions: times the handler asked for the client's input
  // The capability signature it is served under: its session's (fixed at initialize), or for a
  // stateless request the server's current one. Null: none.
  std::shared_ptr<const SessionSignature> signature{};

  // Found before the chain by the method's find step (copied out of the registry under its lock).
  std::shared_ptr<const Server::Impl::ToolEntry> tool;  // null: no such tool
  // resources/* and prompts/get: what their find step matched (null: nothing, or another
  // method). Held apart, each allocated only by its own methods: every request allocates this
  // struct, and under glibc's per-thread cache limit (~1 KiB) it is allocated and freed without
  // the allocator's slow path, which consolidates its free lists on every larger request
  // (bench/RESULTS.md, "Fewer allocations and copies per call").
  struct ResourceMatch {
    ResourceHandlers reader{};  // a static resource's, for resources/read
    TemplateHandlers template_reader{};  // or the matching template's, and its variables
    UriTemplate::Variables variables{};
    // SEP-2093: the matched item's hooks (null: none) and its definition (a template's, under the URI).
    std::shared_ptr<const ResourceTree> tree{};
    std::optional<Resource> definition{};
  };
  std::unique_ptr<const ResourceMatch> resource;
  std::unique_ptr<const Server::Impl::PromptEntry> prompt;
};

// The bound the comment above explains (glibc's tcache serves up to 1032 bytes; make_shared adds
// its control block).
static_assert(sizeof(ServerRequest) <= 960, "ServerRequest grew past the allocator's per-thread cache");

}  // namespace mcp
