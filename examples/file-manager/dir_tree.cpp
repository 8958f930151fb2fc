#include "dir_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <queue>
#include <vector>

namespace file_manager {

namespace fs = std::filesystem;
using mcp::Error;
using mcp::fail;
using mcp::Result;

namespace {

constexpr std::string_view kScheme = "file:///";
constexpr std::size_t kMaxUriBytes = 4096;
constexpr std::size_t kMaxSegments = 256;
constexpr std::string_view kCursorPrefix = "after:";
constexpr std::size_t kMaxNameBytes = NAME_MAX;
constexpr std::size_t kSniffBytes = 512;

// A URI in an error message: short, and only as the peer can see it anyway.
std::string shown(std::string_view uri) { return mcp::peer_text(uri, 100); }

Error malformed(std::string_view uri, const std::string& why) {
  return Error::invalid_params("not a resource of this directory: " + shown(uri) + " (" + why + ")");
}

Error not_found(std::string_view uri) {
  return Error{mcp::error_code::kResourceNotFound, "Resource not found: " + shown(uri),
               mcp::json::object{{"uri", std::string(uri.substr(0, kMaxUriBytes))}}};
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The decoded path segments of a file:/// URI (empty: the root), or why it is refused.
Result<std::vector<std::string>> segments_of(std::string_view uri) {
  if (uri.size() > kMaxUriBytes) return fail(malformed(uri, "longer than " + std::to_string(kMaxUriBytes) + " bytes"));
  if (!uri.starts_with(kScheme)) return fail(malformed(uri, "only file:/// URIs"));
  std::string_view rest = uri.substr(kScheme.size());
  if (rest.find_first_of("?#") != std::string_view::npos) return fail(malformed(uri, "no query or fragment"));
  if (rest.ends_with('/')) rest.remove_suffix(1);  // a directory's spelling; both are accepted
  std::vector<std::string> out;
  while (!rest.empty()) {
    const std::size_t cut = rest.find('/');
    const std::string_view raw = rest.substr(0, cut);
    rest = cut == std::string_view::npos ? std::string_view{} : rest.substr(cut + 1);
    if (cut != std::string_view::npos && rest.empty()) return fail(malformed(uri, "an empty segment"));
    if (out.size() >= kMaxSegments) return fail(malformed(uri, "more than " + std::to_string(kMaxSegments) + " segments"));
    std::string seg;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '%') {
        seg += raw[i];
        continue;
      }
      if (i + 2 >= raw.size()) return fail(malformed(uri, "a bad percent-escape"));
      const int hi = hex_value(raw[i + 1]), lo = hex_value(raw[i + 2]);
      if (hi < 0 || lo < 0) return fail(malformed(uri, "a bad percent-escape"));
      seg += static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (seg.empty()) return fail(malformed(uri, "an empty segment"));
    if (seg == "." || seg == "..") return fail(malformed(uri, "no . or .. segments"));
    if (seg.find('/') != std::string::npos || seg.find('\0') != std::string::npos)
      return fail(malformed(uri, "an encoded / or NUL in a segment"));
    if (seg.size() > kMaxNameBytes) return fail(malformed(uri, "a name longer than " + std::to_string(kMaxNameBytes) + " bytes"));
    out.push_back(std::move(seg));
  }
  return out;
}

// RFC 3986 pchar: unreserved, sub-delims, ':' and '@' stay; every other byte is %XX.
std::string encode_segment(std::string_view name) {
  static constexpr std::string_view kKeep = "-._~!$&'()*+,;=:@";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : name) {
    if (std::isalnum(c) || kKeep.find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string uri_of(const std::vector<std::string>& segments, bool directory) {
  std::string uri(kScheme);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (i) uri += '/';
    uri += encode_segment(segments[i]);
  }
  if (directory && !segments.empty()) uri += '/';
  return uri;
}

std::string iso8601(const struct timespec& t) {
  std::tm tm{};
  gmtime_r(&t.tv_sec, &tm);
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

// Strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF) without NUL:
// what a read returns as text. Anything else is a blob, or its JSON would not parse at the client.
bool valid_utf8_text(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n = 0;  // continuation bytes
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c == 0xE0) n = 2, lo = 0xA0;
    else if (c == 0xED) n = 2, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) n = 2;
    else if (c == 0xF0) n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 3;
    else if (c == 0xF4) n = 3, hi = 0x8F;
    else return false;
    if (n > s.size() - i - 1) return false;
    const auto second = static_cast<unsigned char>(s[i + 1]);
    if (second < lo || second > hi) return false;
    for (std::size_t k = 2; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += n + 1;
  }
  return true;
}

std::string_view mime_by_extension(std::string_view name) {
  static const std::array<std::pair<std::string_view, std::string_view>, 29> kTypes{{
      {".txt", "text/plain"},       {".md", "text/markdown"},        {".json", "application/json"},
      {".html", "text/html"},       {".css", "text/css"},            {".js", "text/javascript"},
      {".ts", "text/typescript"},   {".c", "text/x-c"},              {".cpp", "text/x-c++"},
      {".h", "text/x-c"},           {".hpp", "text/x-c++"},          {".py", "text/x-python"},
      {".rs", "text/x-rust"},       {".go", "text/x-go"},            {".sh", "application/x-sh"},
      {".yaml", "application/yaml"}, {".yml", "application/yaml"},   {".toml", "application/toml"},
      {".xml", "application/xml"},  {".csv", "text/csv"},            {".png", "image/png"},
      {".jpg", "image/jpeg"},       {".jpeg", "image/jpeg"},         {".gif", "image/gif"},
      {".svg", "image/svg+xml"},    {".webp", "image/webp"},         {".pdf", "application/pdf"},
      {".zip", "application/zip"},  {".gz", "application/gzip"},
  }};
  for (const auto& [ext, type] : kTypes)
    if (name.size() > ext.size() && name.ends_with(ext)) return type;
  return {};
}

// Opens a regular file for reading without following a final symlink or blocking on a FIFO, and
// checks on the descriptor that it is the regular file it was resolved as.
Result<int> open_regular(const fs::path& real, std::string_view uri) {
  const int fd = ::open(real.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(not_found(uri));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(not_found(uri));
  }
  return fd;
}

// Up to `limit` bytes of the file, or an error.
Result<std::string> read_some(int fd, std::uint64_t limit) {
  std::string out;
  std::array<char, 64 * 1024> buf{};
  while (out.size() < limit) {
    const ssize_t n = ::read(fd, buf.data(), std::min<std::uint64_t>(buf.size(), limit - out.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(Error::internal(std::string("read failed: ") + std::strerror(errno)));
    if (n == 0) break;
    out.append(buf.data(), static_cast<std::size_t>(n));
  }
  return out;
}

std::string mime_of(std::string_view name, const fs::path& real) {
  if (auto t = mime_by_extension(name); !t.empty()) return std::string(t);
  // Unknown extension: text if its first bytes are UTF-8 without NUL.
  auto fd = open_regular(real, "");
  if (!fd) return "application/octet-stream";
  auto head = read_some(*fd, kSniffBytes);
  ::close(*fd);
  if (!head) return "application/octet-stream";
  // A multi-byte character cut at the end of the sample is not a reason to call it binary.
  std::string_view h = *head;
  for (int k = 0; k < 3 && !h.empty() && (static_cast<unsigned char>(h.back()) & 0xC0) == 0x80; ++k) h.remove_suffix(1);
  if (!h.empty() && static_cast<unsigned char>(h.back()) >= 0xC0) h.remove_suffix(1);
  return valid_utf8_text(h) ? "text/plain" : "application/octet-stream";
}

}  // namespace

Result<std::shared_ptr<const RootDirectory>> RootDirectory::open(const fs::path& dir, RootOptions options) {
  std::error_code ec;
  fs::path real = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(real, ec)) {
    return fail(Error::invalid_params("--root " + dir.string() + ": not an existing directory" +
                                      (ec ? " (" + ec.message() + ")" : std::string())));
  }
  if (options.page_size == 0) options.page_size = 1;
  return std::make_shared<const RootDirectory>(std::move(real), options);
}

namespace {

// What one URI resolved to: its segments, its real path and what stat says of it.
struct Found {
  std::vector<std::string> segments;
  fs::path real;
  struct stat st {};
};

// The real path of `p` if it is the root or under it; nothing otherwise (missing or outside).
std::optional<fs::path> contained(const fs::path& root, const fs::path& p) {
  char buf[PATH_MAX];
  if (::realpath(p.c_str(), buf) == nullptr) return std::nullopt;
  std::string_view real(buf);
  const std::string& r = root.native();
  if (real != r && !(real.starts_with(r) && (r == "/" || real[r.size()] == '/'))) return std::nullopt;
  return fs::path(real);
}

Result<Found> find(const RootDirectory& dir, std::string_view uri) {
  auto segments = segments_of(uri);
  if (!segments) return fail(segments.error());
  fs::path p = dir.root();
  for (const auto& s : *segments) p /= s;
  auto real = contained(dir.root(), p);
  if (!real) return fail(not_found(uri));
  Found f{std::move(*segments), std::move(*real), {}};
  if (::stat(f.real.c_str(), &f.st) != 0) return fail(not_found(uri));
  if (!S_ISDIR(f.st.st_mode) && !S_ISREG(f.st.st_mode)) {
    return fail(Error::invalid_params(shown(uri) + " is neither a regular file nor a directory"));
  }
  // A directory may be named without its trailing '/', but a file never with one (as a path
  // "b.txt/" names nothing): a read answers with one URI, the one asked for or its directory form.
  if (S_ISREG(f.st.st_mode) && uri.ends_with('/') && uri != kScheme) return fail(not_found(uri));
  return f;
}

mcp::Resource describe(const RootDirectory& dir, const Found& f) {
  mcp::Resource r;
  const bool is_dir = S_ISDIR(f.st.st_mode);
  r.uri = uri_of(f.segments, is_dir);
  r.name = f.segments.empty() ? dir.root().filename().string() : f.segments.back();
  if (r.name.empty()) r.name = "/";
  r.annotations = mcp::Annotations{};
  r.annotations->last_modified = iso8601(f.st.st_mtim);
  if (is_dir) {
    r.mime_type = "inode/directory";
    r.capabilities = mcp::ResourceCapabilities{.list = true};
  } else {
    r.mime_type = mime_of(r.name, f.real);
    r.size = static_cast<std::int64_t>(f.st.st_size);
    r.capabilities = mcp::ResourceCapabilities{.subscribe = true};
  }
  return r;
}

Result<std::optional<std::string>> cursor_name(const std::optional<std::string>& cursor) {
  if (!cursor) return std::optional<std::string>{};
  const std::string& c = *cursor;
  auto bad = [] { return fail(Error::invalid_params("invalid cursor: not one this directory listing gave")); };
  if (!c.starts_with(kCursorPrefix) || c.size() > kCursorPrefix.size() + 2 * kMaxNameBytes) return bad();
  std::string name;
  for (std::size_t i = kCursorPrefix.size(); i + 1 < c.size(); i += 2) {
    const int hi = hex_value(c[i]), lo = hex_value(c[i + 1]);
    if (hi < 0 || lo < 0) return bad();
    name += static_cast<char>(hi * 16 + lo);
  }
  if ((c.size() - kCursorPrefix.size()) % 2 != 0 || name.empty() || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos) {
    return bad();
  }
  return std::optional<std::string>(std::move(name));
}

std::string cursor_for(std::string_view name) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string c(kCursorPrefix);
  for (unsigned char ch : name) {
    c += kHex[ch >> 4];
    c += kHex[ch & 15];
  }
  return c;
}

// Whether a directory entry is one we list: a regular file or a directory, directly or through a
// symlink that stays under the root.
bool listable_entry(const RootDirectory& dir, const fs::path& parent, const struct dirent& e) {
  if (e.d_type == DT_REG || e.d_type == DT_DIR) return true;
  if (e.d_type != DT_LNK && e.d_type != DT_UNKNOWN) return false;
  auto real = contained(dir.root(), parent / e.d_name);
  struct stat st {};
  return real && ::stat(real->c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
}

}  // namespace

Result<fs::path> RootDirectory::resolve(std::string_view uri) const {
  auto f = find(*this, uri);
  if (!f) return fail(f.error());
  return f->real;
}

Result<mcp::Resource> RootDirectory::metadata(std::string_view uri) const {
  auto f = find(*this, uri);
  if (!f) return fail(f.error());
  return describe(*this, *f);
}

Result<mcp::ListResourcesResult> RootDirectory::children(std::string_view uri,
                                                         const std::optional<std::string>& cursor) const {
  auto f = find(*this, uri);
  if (!f) return fail(f.error());
  if (!S_ISDIR(f->st.st_mode)) {
    return fail(Error{mcp::error_code::kInvalidParams, shown(uri) + " is not listable: it is a file",
                      mcp::json::object{{"uri", uri_of(f->segments, false)}}});
  }
  auto after = cursor_name(cursor);
  if (!after) return fail(after.error());
  DIR* d = ::opendir(f->real.c_str());
  if (!d) return fail(not_found(uri));
  // The page_size + 1 smallest names after the cursor (the extra one says whether more remain),
  // kept in a max-heap: one pass, O(page_size) memory.
  const std::size_t keep = options_.page_size + 1;
  std::priority_queue<std::string> heap;
  while (const struct dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    if (*after && name <= **after) continue;
    if (heap.size() == keep && name >= heap.top()) continue;
    if (!listable_entry(*this, f->real, *e)) continue;
    heap.emplace(name);
    if (heap.size() > keep) heap.pop();
  }
  ::closedir(d);
  std::vector<std::string> names;
  names.reserve(heap.size());
  for (; !heap.empty(); heap.pop()) names.push_back(heap.top());
  std::reverse(names.begin(), names.end());
  mcp::ListResourcesResult page;
  const bool more = names.size() > options_.page_size;
  if (more) names.resize(options_.page_size);
  for (const auto& name : names) {
    Found child{f->segments, f->real / name, {}};
    child.segments.push_back(name);
    // Gone since the pass, or swapped for something we do not list: left out of this page.
    if (::stat(child.real.c_str(), &child.st) != 0 || (!S_ISDIR(child.st.st_mode) && !S_ISREG(child.st.st_mode))) continue;
    page.resources.push_back(describe(*this, child));
  }
  if (more && !names.empty()) page.next_cursor = cursor_for(names.back());
  return page;
}

Result<mcp::ReadResourceResult> RootDirectory::read(std::string_view uri) const {
  auto f = find(*this, uri);
  if (!f) return fail(f.error());
  mcp::Resource meta = describe(*this, *f);
  mcp::ReadResourceResult out;
  if (S_ISDIR(f->st.st_mode)) {
    auto first = children(uri, std::nullopt);
    if (!first) return fail(first.error());
    std::string listing;
    for (const auto& c : first->resources) listing += c.name + (c.capabilities && c.capabilities->list ? "/\n" : "\n");
    if (first->next_cursor) listing += "...\n";
    mcp::TextResourceContents t{.uri = meta.uri, .mime_type = "text/plain", .text = std::move(listing)};
    t.name = meta.name;
    t.annotations = meta.annotations;
    t.capabilities = meta.capabilities;
    out.contents.push_back(std::move(t));
    return out;
  }
  if (static_cast<std::uint64_t>(f->st.st_size) > options_.max_read_bytes) {
    return fail(Error::invalid_params(shown(uri) + " is " + std::to_string(f->st.st_size) +
                                      " bytes, over the limit of " + std::to_string(options_.max_read_bytes) +
                                      " a read returns"));
  }
  auto fd = open_regular(f->real, uri);
  if (!fd) return fail(fd.error());
  // One byte past the limit tells a file that grew since stat from one that did not.
  auto bytes = read_some(*fd, options_.max_read_bytes + 1);
  ::close(*fd);
  if (!bytes) return fail(bytes.error());
  if (bytes->size() > options_.max_read_bytes) {
    return fail(Error::invalid_params(shown(uri) + " grew past the limit of " + std::to_string(options_.max_read_bytes) +
                                      " bytes a read returns"));
  }
  const auto size = static_cast<std::int64_t>(bytes->size());  // of what is read, not of what stat saw
  auto fill = [&](auto& c) {
    c.name = meta.name;
    c.annotations = meta.annotations;
    c.capabilities = meta.capabilities;
    c.size = size;
  };
  if (valid_utf8_text(*bytes)) {
    mcp::TextResourceContents t{.uri = meta.uri, .mime_type = meta.mime_type, .text = std::move(*bytes)};
    fill(t);
    out.contents.push_back(std::move(t));
  } else {
    std::string b64(sodium_base64_encoded_len(bytes->size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(), reinterpret_cast<const unsigned char*>(bytes->data()), bytes->size(),
                      sodium_base64_VARIANT_ORIGINAL);
    b64.pop_back();  // its NUL
    mcp::BlobResourceContents b{.uri = meta.uri, .mime_type = meta.mime_type, .blob = std::move(b64)};
    fill(b);
    out.contents.push_back(std::move(b));
  }
  return out;
}

}  // namespace file_manager
