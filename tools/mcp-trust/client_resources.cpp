// `mcp-trust client ... tree [URI] [--depth N]` and `... meta URI` (client_cli.hpp): SEP-2093's
// resource graph, walked with the client's bounds, and one resource's metadata.
#include "cli_io.hpp"
#include "client_cli.hpp"
#include "commands.hpp"

namespace mcp::cli {

namespace {

// "12.3 KiB" for people; bytes under 1 KiB as they are.
std::string human_size(std::int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  std::size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

// One line of the tree: indentation by depth, the URI, then what the metadata says of it.
std::string tree_line(const WalkedResource& w) {
  const Resource& r = w.resource;
  std::string line(2 * w.depth, ' ');
  line += peer_text(r.uri, 1024);
  std::string notes;
  auto note = [&](const std::string& n) { notes += (notes.empty() ? "" : ", ") + n; };
  if (r.capabilities && r.capabilities->list == true) note("listable");
  if (r.capabilities && r.capabilities->subscribe == true) note("subscribable");
  if (r.mime_type && *r.mime_type != "inode/directory") note(peer_text(*r.mime_type, 100));
  if (r.size) note(human_size(*r.size));
  if (r.annotations && r.annotations->last_modified) note("modified " + peer_text(*r.annotations->last_modified, 64));
  if (!notes.empty()) line += "  (" + notes + ")";
  return line;
}

}  // namespace

int run_tree(ClientRun& run, const ClientAction& action) {
  ResourceWalkOptions o;
  o.max_depth = action.depth;
  auto walk = run.client->walk_resources(action.uri, o);
  if (!walk) return fail_with(run, walk.error());
  for (const auto& w : walk->resources) {
    run.emit(tree_line(w), json::object{{"event", "resource"}, {"depth", w.depth}, {"resource", to_json(w.resource)}});
  }
  json::array failed;
  std::string failures;
  for (const auto& [uri, error] : walk->failed) {
    failed.push_back(json::object{{"uri", uri}, {"code", error.code}, {"message", error.message}});
    failures += "\n  could not list " + peer_text(uri, 1024) + ": " + peer_text(error.message, 1024);
  }
  std::string summary = std::to_string(walk->resources.size()) + " resources";
  if (walk->repeats) summary += ", " + std::to_string(walk->repeats) + " met again (cycles or shared children)";
  if (walk->truncated) summary += "; stopped at " + *walk->truncated;
  run.emit(summary + failures,
           json::object{{"event", "tree"},
                        {"count", walk->resources.size()},
                        {"repeats", walk->repeats},
                        {"truncated", walk->truncated ? json::value(*walk->truncated) : json::value(nullptr)},
                        {"failed", std::move(failed)}});
  return walk->failed.empty() ? kExitOk : kExitError;
}

int run_meta(ClientRun& run, const ClientAction& action) {
  auto r = run.client->resource_metadata(action.uri);
  if (!r) return fail_with(run, r.error());
  return write_stdout(pretty_json(to_json(*r))) ? kExitOk : kExitError;
}

}  // namespace mcp::cli
