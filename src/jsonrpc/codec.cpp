#include "mcp/jsonrpc/codec.hpp"

#include "json/write_json.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <mutex>

namespace mcp::jsonrpc {

namespace {

bool valid_id(const json::value& v) { return v.is_string() || v.is_int64() || v.is_uint64(); }

DecodeFailure invalid(std::string msg, Id id = nullptr, bool answer = true) {
  return DecodeFailure{Error::invalid_request(std::move(msg)), std::move(id), answer};
}

std::expected<std::optional<json::object>, DecodeFailure> take_params(json::object& o, const Id& id) {
  auto it = o.find("params");
  if (it == o.end() || it->value().is_null()) return std::optional<json::object>{};
  if (!it->value().is_object()) {
    return std::unexpected(DecodeFailure{Error::invalid_params("params must be an object"), id, true});
  }
  return std::optional<json::object>(std::move(it->value().get_object()));
}

}  // namespace

std::string id_key(const Id& id) {
  // What json::serialize writes, without its serializer for the common ids (every request takes
  // this key several times): an integer, or a string that needs no escape.
  if (id.is_int64()) return std::to_string(id.get_int64());
  if (const auto* s = id.if_string()) {
    const bool plain = std::all_of(s->begin(), s->end(), [](char c) {
      return static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
    });
    if (plain) {
      std::string key;
      key.reserve(s->size() + 2);
      key += '"';
      key.append(s->data(), s->size());
      key += '"';
      return key;
    }
  }
  return json::serialize(id);
}

std::expected<Message, DecodeFailure> decode(std::string_view bytes, const Limits& limits) {
  if (bytes.size() > limits.max_message_bytes) {
    // Framers may hand over only the first max+1 bytes of an oversized frame, so the size is not quoted.
    return std::unexpected(invalid("message exceeds the limit of " + std::to_string(limits.max_message_bytes) +
                                   " bytes (max_message_bytes)"));
  }
  // Strict: a repeated member name is refused, so every reader of this message sees the same one.
  auto v = parse_json_strict(bytes, limits.max_depth);
  if (!v) return std::unexpected(DecodeFailure{std::move(v.error()), nullptr, true});
  return decode_value(std::move(*v));
}

std::expected<Message, DecodeFailure> decode_value(json::value v) {
  if (v.is_array()) return std::unexpected(invalid("batches are not supported by MCP; send one message per frame"));
  if (!v.is_object()) return std::unexpected(invalid("a JSON-RPC message must be an object"));
  json::object& o = v.get_object();

  // Read the id first so that every later error can be answered to the right request.
  Id id = nullptr;
  bool has_id = false;
  if (auto it = o.find("id"); it != o.end()) {
    if (!valid_id(it->value())) {
      if (!it->value().is_null()) return std::unexpected(invalid("id must be a string or an integer"));
    } else {
      id = it->value();
      has_id = true;
    }
  }
  const json::value* method = o.if_contains("method");
  // Malformed responses are dropped, not answered: answering a response could loop forever.
  const bool answer = method || !(o.contains("result") || o.contains("error"));

  const json::value* ver = o.if_contains("jsonrpc");
  if (!ver || !ver->is_string() || ver->get_string() != "2.0") {
    return std::unexpected(invalid("\"jsonrpc\" must be \"2.0\"", id, answer));
  }

  if (method) {
    if (!method->is_string() || method->get_string().empty()) {
      return std::unexpected(invalid("method must be a non-empty string", id));
    }
    if (o.contains("result") || o.contains("error")) {
      return std::unexpected(invalid("a request cannot carry result or error", id));
    }
    std::string name(method->get_string());
    auto params = take_params(o, id);
    if (!params) return std::unexpected(params.error());
    if (has_id) return Request{std::move(id), std::move(name), std::move(*params)};
    if (o.contains("id")) return std::unexpected(invalid("a request id must not be null"));
    return Notification{std::move(name), std::move(*params)};
  }

  json::value* result = o.if_contains("result");
  const json::value* error = o.if_contains("error");
  if (result && error) return std::unexpected(invalid("a response cannot carry both result and error", id, false));
  if (result) {
    if (!has_id) return std::unexpected(invalid("a result must carry the request's id", nullptr, false));
    // Moved, not copied: a result may be large, and the message is this decoder's to take apart.
    return Response{std::move(id), std::move(*result)};
  }
  if (error) {
    if (!error->is_object()) return std::unexpected(invalid("error must be an object", id, false));
    const auto& eo = error->get_object();
    const json::value* code = eo.if_contains("code");
    const json::value* msg = eo.if_contains("message");
    if (!code || !code->is_int64() || !msg || !msg->is_string()) {
      return std::unexpected(invalid("error needs an integer code and a string message", id, false));
    }
    Error e{static_cast<int>(code->get_int64()), std::string(msg->get_string()), {}};
    if (auto d = eo.if_contains("data")) e.data = *d;
    e.from_peer = true;
    return ErrorResponse{std::move(id), std::move(e)};
  }
  return std::unexpected(invalid("not a request, notification or response", id));
}

namespace {

// Encoders write the envelope by hand and serialise only the payload, so a large result is never
// deep-copied into a temporary envelope object. A message is written into a buffer on the stack
// first and copied out once, at its exact size: json::serialize would make a string per piece,
// and the message grow to take copies of them. One that outgrows the buffer continues on the heap.
class Writer {
 public:
  Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // The two ways text goes in, one character or a piece: inlined, since a message is written in
  // hundreds of them (every quote, comma and colon is one).
  [[gnu::always_inline]] void put(char c) {
    if (cur_ == end_) grow(1);
    *cur_++ = c;
  }
  [[gnu::always_inline]] void raw(std::string_view text) {
    if (text.size() > static_cast<std::size_t>(end_ - cur_)) grow(text.size());
    std::memcpy(cur_, text.data(), text.size());
    cur_ += text.size();
  }
  // Room for `n` bytes at the cursor, for the caller to fill (write_json.hpp's RoomySink).
  [[gnu::always_inline]] char* room(std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - cur_)) grow(n);
    char* at = cur_;
    cur_ += n;
    return at;
  }
  // The text of a value (src/json/write_json.hpp: not Boost.JSON's serializer, which copies a long
  // string one byte at a time into a buffer smaller than what is left of it).
  void value(const json::value& v) { detail::write_json(*this, v); }
  void value(const json::object& o) { detail::write_json(*this, o); }
  // A string, quoted and escaped, without making a json::string of it first.
  void quoted(std::string_view text) { detail::write_json_string(*this, text); }
  std::string take() {
    if (!heap_) return std::string(buf_, static_cast<std::size_t>(cur_ - buf_));
    big_.resize(static_cast<std::size_t>(cur_ - big_.data()));
    return std::move(big_);
  }

 private:
  // Room for `more` bytes: the message moves to the heap, or its heap buffer doubles. The string's
  // bytes past the cursor are scratch until take().
  [[gnu::noinline]] void grow(std::size_t more) {
    std::size_t len;
    if (!heap_) {
      len = static_cast<std::size_t>(cur_ - buf_);
      big_.assign(buf_, len);
      heap_ = true;
    } else {
      len = static_cast<std::size_t>(cur_ - big_.data());
    }
    big_.resize(std::max(2 * (len + more), std::size_t{8192}));
    cur_ = big_.data() + len;
    end_ = big_.data() + big_.size();
  }

  char buf_[4096];
  char* cur_ = buf_;
  char* end_ = buf_ + sizeof buf_;
  bool heap_ = false;
  std::string big_;
};

json::value error_value(const Error& e) {
  json::object eo;
  eo.emplace("code", e.code);
  eo.emplace("message", e.message);
  if (e.data) eo.emplace("data", *e.data);
  return eo;
}

}  // namespace

namespace {

// A request up to its method: what both forms of encode_request start with.
void write_request_head(Writer& out, const Id& id, std::string_view method) {
  out.raw(R"({"jsonrpc":"2.0","id":)");
  out.value(id);
  out.raw(R"(,"method":)");
  out.quoted(method);
}

}  // namespace

std::string encode_request(const Id& id, std::string_view method, const json::object* params) {
  Writer out;
  write_request_head(out, id, method);
  if (params) {
    out.raw(R"(,"params":)");
    out.value(*params);
  }
  out.raw("}");
  return out.take();
}

namespace {

bool names(const MetaMembers* meta, std::string_view key) {
  if (meta) {
    for (const auto& m : *meta) {
      if (m.key == key) return true;
    }
  }
  return false;
}

// Whether the params' own _meta member `key` gives way to an added one.
bool replaced(const MetaMembers* meta, std::optional<std::int64_t> progress_token, std::string_view key) {
  return names(meta, key) || (progress_token && key == "progressToken");
}

void write_member(Writer& out, bool& first, std::string_view key) {
  if (!first) out.raw(",");
  first = false;
  out.quoted(key);
  out.raw(":");
}

// params._meta: the added members, then the params' own ones that they do not name.
void write_meta(Writer& out, const json::object* own, const MetaMembers* meta, std::optional<std::int64_t> progress_token) {
  out.raw("{");
  bool first = true;
  if (meta) {
    for (const auto& m : *meta) {
      write_member(out, first, m.key);
      out.raw(m.text);
    }
  }
  if (progress_token) {
    write_member(out, first, "progressToken");
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, *progress_token).ptr;
    out.raw(std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  if (own) {
    for (const auto& kv : *own) {
      if (replaced(meta, progress_token, kv.key())) continue;
      write_member(out, first, kv.key());
      out.value(kv.value());
    }
  }
  out.raw("}");
}

}  // namespace

std::string encode_request(const Id& id, std::string_view method, const json::object& params, const MetaMembers* meta,
                           std::optional<std::int64_t> progress_token) {
  if ((!meta || meta->empty()) && !progress_token) return encode_request(id, method, &params);
  Writer out;
  write_request_head(out, id, method);
  out.raw(R"(,"params":{)");
  bool first = true;
  const json::object* own_meta = nullptr;
  for (const auto& kv : params) {
    if (kv.key() == "_meta") {
      own_meta = kv.value().if_object();
      continue;
    }
    write_member(out, first, kv.key());
    out.value(kv.value());
  }
  write_member(out, first, "_meta");
  write_meta(out, own_meta, meta, progress_token);
  out.raw("}}");
  return out.take();
}

MetaMember meta_member(std::string key, json::value value) {
  std::string text = json::serialize(value);
  return MetaMember{std::move(key), std::move(value), std::move(text)};
}

namespace {

// The storage of the params a value transport carries: one block, made with its shared owner.
// Copying the envelope into _meta and the params' members beside it took ~15 small allocations
// per request on an in-process link, each freed on the peer's thread later; now one, freed at
// once when the last value using it goes (a copy of a member keeps it: Boost.JSON copies keep
// their source's storage). Nothing is freed before then, so what is added to such values comes
// from the block too, or past its end from the heap. Allocation is safe from any thread: the
// peer's session may add to the params while a copy of a member is changed elsewhere.
class OneBlock final : public json::memory_resource {
 public:
  // A small call's params with its envelope (~600 bytes), and the whole object (with its shared
  // owner's count) within what glibc serves from a thread's own cache (1,032 bytes): a larger
  // one takes the arena's lock, which other threads freeing their requests' blocks contend for.
  static constexpr std::size_t kBytes = 768;

 private:
  void* do_allocate(std::size_t n, std::size_t align) override {
    // The block is aligned for any scalar type; a stricter alignment is the heap's to give.
    for (std::size_t at = used_.load(std::memory_order_relaxed); align <= alignof(std::max_align_t);) {
      const std::size_t start = (at + align - 1) & ~(align - 1);
      if (start + n > kBytes || start < at) break;
      if (used_.compare_exchange_weak(at, start + n, std::memory_order_relaxed)) return block_ + start;
    }
    std::lock_guard lock(mu_);
    return spill_.allocate(n, align);
  }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(const json::memory_resource& other) const noexcept override { return this == &other; }

  alignas(std::max_align_t) unsigned char block_[kBytes];
  std::atomic<std::size_t> used_{0};
  std::mutex mu_;
  json::monotonic_resource spill_;  // guarded by mu_
};
static_assert(sizeof(OneBlock) + 32 <= 1032, "OneBlock and its owner's count outgrow glibc's per-thread cache");

}  // namespace

json::object request_params(const json::object& params, const MetaMembers* meta, std::optional<std::int64_t> progress_token) {
  if ((!meta || meta->empty()) && !progress_token) return params;
  json::object out(params.size() + 1, json::make_shared_resource<OneBlock>());
  const json::object* own_meta = nullptr;
  for (const auto& kv : params) {
    if (kv.key() == "_meta") own_meta = kv.value().if_object();
    else out.emplace(kv.key(), kv.value());
  }
  json::object m(out.storage());
  if (meta) {
    for (const auto& member : *meta) m.emplace(member.key, member.value);
  }
  if (progress_token) m.emplace("progressToken", *progress_token);
  if (own_meta) {
    for (const auto& kv : *own_meta) {
      if (!replaced(meta, progress_token, kv.key())) m.emplace(kv.key(), kv.value());
    }
  }
  out.emplace("_meta", std::move(m));
  return out;
}

std::string encode_notification(std::string_view method, const json::object* params) {
  Writer out;
  out.raw(R"({"jsonrpc":"2.0","method":)");
  out.quoted(method);
  if (params) {
    out.raw(R"(,"params":)");
    out.value(*params);
  }
  out.raw("}");
  return out.take();
}

std::string encode_result(const Id& id, const json::value& result) {
  Writer out;
  out.raw(R"({"jsonrpc":"2.0","id":)");
  out.value(id);
  out.raw(R"(,"result":)");
  out.value(result);
  out.raw("}");
  return out.take();
}

std::string encode_error(const Id& id, const Error& error) {
  // An error about a message whose id could not be read has no id. JSON-RPC 2.0 writes null there;
  // MCP's schema (2025-11-25 and 2026-07-28) makes "id" optional and a string or integer, and the
  // reference TypeScript SDK rejects a null id, so the member is left out.
  Writer out;
  out.raw(R"({"jsonrpc":"2.0")");
  if (!id.is_null()) {
    out.raw(R"(,"id":)");
    out.value(id);
  }
  out.raw(R"(,"error":)");
  out.value(error_value(error));
  out.raw("}");
  return out.take();
}

std::string encode(const Message& m) {
  struct Visitor {
    std::string operator()(const Request& r) const {
      return encode_request(r.id, r.method, r.params ? &*r.params : nullptr);
    }
    std::string operator()(const Notification& n) const {
      return encode_notification(n.method, n.params ? &*n.params : nullptr);
    }
    std::string operator()(const Response& r) const { return encode_result(r.id, r.result); }
    std::string operator()(const ErrorResponse& e) const { return encode_error(e.id, e.error); }
  };
  return std::visit(Visitor{}, m);
}

}  // namespace mcp::jsonrpc
