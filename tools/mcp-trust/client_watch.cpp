// mcp-trust client ... watch --for DURATION: the lists, then each list_changed as it comes, every
// list checked by the client in the chosen mode, until the time is up or strict mode stops it.
#include <map>

#include "client_cli.hpp"

namespace mcp::cli {

int run_watch(ClientRun& run, std::chrono::milliseconds duration) {
  const auto deadline = std::chrono::steady_clock::now() + duration;
  std::map<ListKind, std::optional<std::set<std::string>>> seen;
  auto relist = [&](ListKind kind) -> std::optional<Error> {
    auto items = list_kind(*run.client, kind);
    if (!items) return items.error();
    seen[kind] = run.print_list(kind, *items, seen[kind]);
    return std::nullopt;
  };
  for (ListKind k : supported_lists(*run.client))
    if (auto e = relist(k)) return fail_with(run, *e);

  std::unique_lock lock(run.mu);
  for (;;) {
    run.cv.wait_until(lock, deadline, [&] { return !run.changed.empty() || run.closed; });
    if (run.closed) {
      Error e = run.close_reason.value_or(Error::connection_closed("the server closed the connection"));
      lock.unlock();
      return fail_with(run, e);
    }
    if (run.changed.empty()) break;  // the time is up
    std::set<ListKind> changed;
    changed.swap(run.changed);
    lock.unlock();
    for (ListKind k : changed) {
      run.emit("list_changed: " + std::string(list_method(k)),
               json::object{{"event", "list_changed"}, {"list", list_method(k)}});
      if (auto e = relist(k)) return fail_with(run, *e);
      // A resources list_changed covers the templates too.
      if (k == ListKind::resources)
        if (auto e = relist(ListKind::resource_templates)) return fail_with(run, *e);
    }
    lock.lock();
  }
  lock.unlock();
  const auto found = run.client->signature_violations().size() + run.client->manifest_violations().size();
  run.emit("done: " + std::to_string(found) + " violation(s)",
           json::object{{"event", "done"}, {"violations", found}});
  return 0;
}

}  // namespace mcp::cli
