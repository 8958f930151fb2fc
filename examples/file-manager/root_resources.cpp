#include "root_resources.hpp"

#include "dir_watch.hpp"

namespace file_manager {

mcp::Result<std::shared_ptr<void>> serve_root(mcp::Server& server, const std::filesystem::path& dir,
                                              RootOptions options) {
  auto root = RootDirectory::open(dir, options);
  if (!root) return mcp::fail(root.error());
  std::shared_ptr<const RootDirectory> tree = *root;
  auto root_meta = tree->metadata("file:///");
  if (!root_meta) return mcp::fail(root_meta.error());
  // Changes reach every subscriber through the server; the watcher's thread calls this.
  auto watcher = std::make_shared<RootWatcher>(
      tree, [&server](const std::string& uri) { server.notify_resource_updated(uri); });

  mcp::ResourceTree hooks;
  hooks.metadata = [tree](const std::string& uri, mcp::RequestContext&) { return tree->metadata(uri); };
  hooks.children = [tree](const std::string& uri, const std::optional<std::string>& cursor, mcp::RequestContext&) {
    return tree->children(uri, cursor);
  };
  // Held weakly: the server may outlive the handle (its sessions release their watches late).
  hooks.watch = [weak = std::weak_ptr<RootWatcher>(watcher)](const std::string& uri, bool on) -> mcp::Result<void> {
    auto w = weak.lock();
    if (!w) return on ? mcp::Result<void>(mcp::fail(mcp::Error::internal("the file watcher has stopped"))) : mcp::Result<void>{};
    if (on) return w->watch(uri);
    w->unwatch(uri);
    return {};
  };
  auto read = [tree](const std::string& uri) { return tree->read(uri); };

  server.add_resource(
      *root_meta, [read](const std::string& uri, mcp::RequestContext&) { return read(uri); }, hooks);
  mcp::ResourceTemplate files;
  files.uri_template = "file:///{+path}";
  files.name = "file";
  files.title = "A file or directory under the root";
  files.description = "Read-only: directories list their children (resources/list with their uri), files are "
                      "subscribable";
  auto added = server.add_resource_template(
      files, [read](const std::string& uri, const mcp::UriTemplate::Variables&, mcp::RequestContext&) { return read(uri); },
      hooks);
  if (!added) return mcp::fail(added.error());
  return std::shared_ptr<void>(watcher);
}

}  // namespace file_manager
