// A real directory seen as SEP-2093 resources, read-only: file:/// is the directory itself and
// file:///a/b.txt is DIR/a/b.txt. Directories are listable (their URIs end in '/'), regular files
// subscribable; nothing else (FIFOs, sockets, devices) is listed or opened.
//
// Nothing outside DIR is ever listed or read. A URI is parsed strictly (only file:///, no query or
// fragment, every segment percent-decoded once and refused if it is empty, "." or "..", or holds an
// encoded '/' or NUL), then the path it names is resolved with realpath(3) and must be DIR or under
// it. A symlink pointing outside is therefore neither listed nor read (it answers as not found, so
// that what exists outside is not revealed); one pointing inside is served under its own URI. The
// check and the open are two steps: a local user able to swap a directory for a symlink between
// them could race it, which a read-only example accepts (openat2's RESOLVE_BENEATH would close it).
//
// Thread-safety: immutable once open; every method may be called concurrently.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"
#include "mcp/protocol/resource.hpp"

namespace file_manager {

struct RootOptions {
  std::size_t page_size = 500;                      // children per resources/list page
  std::uint64_t max_read_bytes = 8 * 1024 * 1024;  // a larger file is refused, nothing read
};

class RootDirectory {
 public:
  // Fails, naming the path, if `dir` is not an existing directory.
  static mcp::Result<std::shared_ptr<const RootDirectory>> open(const std::filesystem::path& dir,
                                                                RootOptions options = {});

  // The resource `uri` names: -32602 for a malformed URI, -32002 (with data.uri) for one that names
  // nothing under the root.
  mcp::Result<mcp::Resource> metadata(std::string_view uri) const;
  // One page of a directory's direct children, in byte order of their names. Each page is one pass
  // over the directory keeping only page_size names: O(page_size) memory whatever its size. The
  // cursor is the last name of the previous page, hex-encoded behind "after:".
  mcp::Result<mcp::ListResourcesResult> children(std::string_view uri, const std::optional<std::string>& cursor) const;
  // A file: one element, text if it is UTF-8 without NUL, else a base64 blob, with its metadata. A
  // directory: a text listing of its first page (one name per line, directories ending in '/').
  mcp::Result<mcp::ReadResourceResult> read(std::string_view uri) const;
  // The real path `uri` names, checked as above (for the watcher).
  mcp::Result<std::filesystem::path> resolve(std::string_view uri) const;

  const std::filesystem::path& root() const { return root_; }
  const RootOptions& options() const { return options_; }

  RootDirectory(std::filesystem::path root, RootOptions options) : root_(std::move(root)), options_(options) {}

 private:
  std::filesystem::path root_;  // canonical
  RootOptions options_;
};

}  // namespace file_manager
