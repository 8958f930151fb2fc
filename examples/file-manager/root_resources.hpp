// file-manager --root DIR: a real directory served read-only as SEP-2093 resources. file:/// is DIR
// itself and file:///a/b.txt is DIR/a/b.txt; directories are listable (resources/list with their
// uri, paginated), files subscribable (inotify tells the server when they change). What may be
// read and how nothing outside DIR is reached: dir_tree.hpp.
#pragma once

#include <filesystem>
#include <memory>

#include "mcp/server/server.hpp"
#include "dir_tree.hpp"

namespace file_manager {

// Registers the root resource and the file:///{+path} template on `server`, with the hooks that
// list, describe, read and watch DIR. The returned handle owns the watcher: keep it while the
// server serves, and destroy it before the server.
mcp::Result<std::shared_ptr<void>> serve_root(mcp::Server& server, const std::filesystem::path& dir,
                                              RootOptions options = {});

}  // namespace file_manager
