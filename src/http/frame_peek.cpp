#include "http/frame_peek.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <array>
#include <cstring>

#include "mcp/protocol/stateless.hpp"

namespace mcp::http {

namespace {

// The containers whose members are read; everything else is `other`, passed over.
enum class Where : unsigned char { other, top, params, result, meta };

// What the value after the current key is for.
enum class Slot : unsigned char { none, id, method, params, result, name, uri, request_id, meta, meta_version, result_version };

Slot classify(Where where, std::string_view key) {
  switch (where) {
    case Where::top:
      if (key == "id") return Slot::id;
      if (key == "method") return Slot::method;
      if (key == "params") return Slot::params;
      if (key == "result") return Slot::result;
      return Slot::none;
    case Where::params:
      if (key == "name") return Slot::name;
      if (key == "uri") return Slot::uri;
      if (key == "requestId") return Slot::request_id;
      if (key == "_meta") return Slot::meta;
      return Slot::none;
    case Where::result:
      return key == "protocolVersion" ? Slot::result_version : Slot::none;
    case Where::meta:
      return key == meta_key::kProtocolVersion ? Slot::meta_version : Slot::none;
    case Where::other:
      break;
  }
  return Slot::none;
}

class PeekHandler {
 public:
  static constexpr std::size_t max_object_size = json::object::max_size();
  static constexpr std::size_t max_array_size = json::array::max_size();
  static constexpr std::size_t max_key_size = json::string::max_size();
  static constexpr std::size_t max_string_size = json::string::max_size();

  FramePeek out;

  bool on_document_begin(boost::system::error_code&) { return true; }
  bool on_document_end(boost::system::error_code&) { return true; }

  bool on_object_begin(boost::system::error_code&) {
    Where where = Where::other;
    if (depth_ == 0) {
      where = Where::top;
      out.is_object = true;
    } else if (slot_ == Slot::params) {
      where = Where::params;
    } else if (slot_ == Slot::result) {
      where = Where::result;
    } else if (slot_ == Slot::meta) {
      where = Where::meta;
    }
    open(where);
    return true;
  }
  bool on_object_end(std::size_t, boost::system::error_code&) { return close(); }
  bool on_array_begin(boost::system::error_code&) {
    open(Where::other);  // an array "id" is no id: left unset
    return true;
  }
  bool on_array_end(std::size_t, boost::system::error_code&) { return close(); }

  bool on_key_part(std::string_view s, std::size_t, boost::system::error_code&) {
    append_key(s);
    return true;
  }
  bool on_key(std::string_view s, std::size_t, boost::system::error_code&) {
    append_key(s);
    const Where where = here();
    const std::string_view key(key_.data(), key_size_);
    slot_ = key_too_long_ ? Slot::none : classify(where, key);
    if (where == Where::top && !key_too_long_) {
      if (key == "method") out.has_method = true;
      if (key == "error") out.has_error = true;
    }
    key_size_ = 0;
    key_too_long_ = false;
    return true;
  }

  bool on_string_part(std::string_view s, std::size_t, boost::system::error_code&) {
    if (slot_ != Slot::none) text_.append(s);
    return true;
  }
  bool on_string(std::string_view s, std::size_t, boost::system::error_code&) {
    if (slot_ == Slot::none) return true;
    text_.append(s);
    switch (slot_) {
      case Slot::id: out.id = json::value(json::string_view(text_)); break;
      case Slot::request_id: out.request_id = json::value(json::string_view(text_)); break;
      case Slot::method: out.method = text_; break;
      case Slot::name: out.name = text_; break;
      case Slot::uri: out.uri = text_; break;
      case Slot::meta_version: out.meta_version = text_; break;
      case Slot::result_version: out.result_version = text_; break;
      default: break;
    }
    text_.clear();
    slot_ = Slot::none;
    return true;
  }

  bool on_number_part(std::string_view, boost::system::error_code&) { return true; }
  bool on_int64(std::int64_t v, std::string_view, boost::system::error_code&) { return scalar(json::value(v)); }
  bool on_uint64(std::uint64_t v, std::string_view, boost::system::error_code&) { return scalar(json::value(v)); }
  bool on_double(double v, std::string_view, boost::system::error_code&) { return scalar(json::value(v)); }
  bool on_bool(bool v, boost::system::error_code&) { return scalar(json::value(v)); }
  bool on_null(boost::system::error_code&) { return scalar(json::value(nullptr)); }
  bool on_comment_part(std::string_view, boost::system::error_code&) { return true; }
  bool on_comment(std::string_view, boost::system::error_code&) { return true; }

 private:
  // Only the first few levels can hold what is read; deeper ones are counted, not remembered.
  static constexpr std::size_t kTracked = 3;
  // No key read here is longer; a longer one is not gathered at all.
  static constexpr std::size_t kMaxKey = 64;

  Where here() const { return depth_ == 0 || depth_ > kTracked ? Where::other : stack_[depth_ - 1]; }
  void open(Where where) {
    if (depth_ < kTracked) stack_[depth_] = where;
    ++depth_;
    slot_ = Slot::none;  // a container is no string or scalar of the slot that held it
  }
  bool close() {
    --depth_;
    slot_ = Slot::none;
    return true;
  }
  void append_key(std::string_view s) {
    if (key_too_long_ || here() == Where::other) return;
    if (key_size_ + s.size() > kMaxKey) {
      key_too_long_ = true;
      key_size_ = 0;
      return;
    }
    if (s.empty()) return;  // (an empty part may come with no data pointer)
    std::memcpy(key_.data() + key_size_, s.data(), s.size());
    key_size_ += s.size();
  }
  bool scalar(json::value v) {
    if (slot_ == Slot::id) out.id = std::move(v);
    else if (slot_ == Slot::request_id) out.request_id = std::move(v);
    slot_ = Slot::none;
    return true;
  }

  std::array<Where, kTracked> stack_{};
  std::size_t depth_ = 0;
  Slot slot_ = Slot::none;
  // The key read so far, in place: a 2026-07-28 envelope's keys are longer than a string's
  // in-place room, and a string here cost an allocation per frame.
  std::array<char, kMaxKey> key_{};
  std::size_t key_size_ = 0;
  bool key_too_long_ = false;
  std::string text_;
};

}  // namespace

FramePeek peek_frame(std::string_view frame, std::size_t max_depth) {
  json::parse_options options;
  options.max_depth = max_depth;
  json::basic_parser<PeekHandler> parser(options);
  boost::system::error_code ec;
  const std::size_t used = parser.write_some(false, frame.data(), frame.size(), ec);
  if (ec || used != frame.size()) return {};
  return std::move(parser.handler().out);
}

}  // namespace mcp::http
