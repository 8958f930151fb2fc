// Change notifications for subscribed resources of a RootDirectory (dir_tree.hpp), from inotify:
// a watched file that is written, truncated, has its attributes changed, or is deleted or moved
// away, and a watched directory whose entries change, are reported by URI.
//
// Thread-safety: every method may be called from any thread. `on_change` runs on the watcher's
// own thread, never under its lock, so it may call back into watch/unwatch.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "dir_tree.hpp"

namespace file_manager {

class RootWatcher {
 public:
  RootWatcher(std::shared_ptr<const RootDirectory> root, std::function<void(const std::string& uri)> on_change,
              std::size_t max_watches = 1024);
  ~RootWatcher();  // wakes its thread (an eventfd) and joins it
  RootWatcher(const RootWatcher&) = delete;
  RootWatcher& operator=(const RootWatcher&) = delete;

  // Starts watching what `uri` names (checked by RootDirectory::resolve). Counted: each watch()
  // of a URI needs one unwatch(). Errors: the URI's, -32602 past max_watches URIs, or inotify's.
  mcp::Result<void> watch(const std::string& uri);
  void unwatch(const std::string& uri);
  std::size_t watching() const;  // distinct URIs watched now

 private:
  void run(const std::stop_token& stop);

  const std::shared_ptr<const RootDirectory> root_;
  const std::function<void(const std::string&)> on_change_;
  const std::size_t max_watches_;
  int inotify_ = -1;
  int wake_ = -1;
  mutable std::mutex mu_;
  struct Watched {
    int wd = -1;
    std::size_t count = 0;
  };
  std::map<std::string, Watched> by_uri_;
  // Several URIs may name one inode (a symlink inside the root): inotify gives them one descriptor.
  std::multimap<int, std::string> by_wd_;
  std::jthread thread_;  // last: started once the rest is ready
};

}  // namespace file_manager
