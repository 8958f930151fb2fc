#include "mcp/trust/trust_store.hpp"

#include <fstream>
#include <iterator>

#include "mcp/trust/jcs.hpp"
#include "trust/manifest_fields.hpp"

namespace mcp::trust {
namespace {

constexpr std::uintmax_t kMaxStoreFileBytes = std::uintmax_t{16} << 20;

Error invalid(std::string msg) { return Error::invalid_params("trust store: " + std::move(msg)); }

Result<std::optional<std::int64_t>> read_time(const json::object& o, std::string_view key, const std::string& where) {
  auto it = o.find(key);
  if (it == o.end()) return std::optional<std::int64_t>{};
  auto t = detail::safe_integer(it->value());
  if (!t) return fail(invalid(where + "." + std::string(key) + ": expected Unix milliseconds as an integer below 2^53"));
  return std::optional<std::int64_t>(*t);
}

Result<TrustedKey> read_entry(const json::value& v, const std::string& where) {
  if (!v.is_object()) return fail(invalid(where + ": expected an object"));
  const json::object& o = v.get_object();
  for (const auto& kv : o) {
    const auto k = kv.key();
    if (k != "keyId" && k != "algorithm" && k != "publicKey" && k != "issuer" && k != "notBefore" &&
        k != "notAfter" && k != "comment")
      return fail(invalid(where + ": unknown member \"" + std::string(k.substr(0, 64)) + "\""));
  }
  if (auto alg = o.find("algorithm"); alg != o.end()) {
    if (!alg->value().is_string() || alg->value().get_string() != "ed25519")
      return fail(invalid(where + ".algorithm: only \"ed25519\" is supported"));
  }
  auto pk = o.find("publicKey");
  if (pk == o.end() || !pk->value().is_string())
    return fail(invalid(where + ".publicKey: required, 64 hex digits or an SPKI PEM string"));
  auto key = Ed25519PublicKey::parse(pk->value().get_string());
  if (!key) return fail(invalid(where + ".publicKey: " + key.error().message));
  std::string key_id = key->key_id();
  if (auto id = o.find("keyId"); id != o.end()) {
    if (!id->value().is_string() || id->value().get_string().empty())
      return fail(invalid(where + ".keyId: expected a non-empty string"));
    key_id = std::string(id->value().get_string());
  }
  std::optional<std::string> issuer;
  if (auto is = o.find("issuer"); is != o.end()) {
    if (!is->value().is_string()) return fail(invalid(where + ".issuer: expected a string"));
    issuer = std::string(is->value().get_string());
  }
  if (auto c = o.find("comment"); c != o.end() && !c->value().is_string())
    return fail(invalid(where + ".comment: expected a string"));
  auto nb = read_time(o, "notBefore", where);
  if (!nb) return fail(nb.error());
  auto na = read_time(o, "notAfter", where);
  if (!na) return fail(na.error());
  return TrustedKey{std::move(key_id), *key, *nb, *na, std::move(issuer)};
}

}  // namespace

Result<void> TrustStore::add(TrustedKey key) {
  if (key.key_id.empty()) return fail(invalid("a key id must not be empty"));
  if (key.not_before_ms && key.not_after_ms && *key.not_before_ms > *key.not_after_ms)
    return fail(invalid("key \"" + key.key_id + "\": notBefore is after notAfter"));
  if (keys_.contains(key.key_id)) return fail(invalid("duplicate key id \"" + key.key_id + "\""));
  std::string id = key.key_id;
  keys_.emplace(std::move(id), std::move(key));
  return {};
}

const TrustedKey* TrustStore::find(std::string_view key_id) const noexcept {
  auto it = keys_.find(key_id);
  return it == keys_.end() ? nullptr : &it->second;
}

Result<TrustStore> TrustStore::from_json(const json::value& v) {
  if (!v.is_object()) return fail(invalid("expected an object {\"keys\": [...]}"));
  const json::object& o = v.get_object();
  for (const auto& kv : o)
    if (kv.key() != "keys") return fail(invalid("unknown member \"" + std::string(kv.key().substr(0, 64)) + "\""));
  auto keys = o.find("keys");
  if (keys == o.end() || !keys->value().is_array()) return fail(invalid("\"keys\" must be an array"));
  TrustStore store;
  const json::array& arr = keys->value().get_array();
  for (std::size_t i = 0; i < arr.size(); ++i) {
    auto entry = read_entry(arr[i], "keys[" + std::to_string(i) + "]");
    if (!entry) return fail(entry.error());
    if (auto r = store.add(std::move(*entry)); !r) return fail(r.error());
  }
  return store;
}

Result<TrustStore> TrustStore::parse(std::string_view text) {
  auto v = parse_strict(text, JcsLimits{16, kMaxStoreFileBytes});
  if (!v) return fail(Error::parse_error("trust store: " + v.error().message));
  return from_json(*v);
}

Result<TrustStore> TrustStore::load_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return fail(invalid("\"" + path.string() + "\" is not a readable regular file"));
  if (std::filesystem::file_size(path, ec) > kMaxStoreFileBytes || ec)
    return fail(invalid("\"" + path.string() + "\" is larger than 16 MiB or unreadable"));
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(invalid("cannot open \"" + path.string() + "\""));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return fail(invalid("cannot read \"" + path.string() + "\""));
  auto store = parse(text);
  if (!store) {
    Error e = store.error();
    e.message = path.string() + ": " + e.message;
    return fail(std::move(e));
  }
  return store;
}

json::value TrustStore::to_json() const {
  json::array arr;
  for (const auto& [id, k] : keys_) {
    json::object e;
    e["keyId"] = k.key_id;
    e["algorithm"] = "ed25519";
    e["publicKey"] = k.public_key.hex();
    if (k.issuer) e["issuer"] = *k.issuer;
    if (k.not_before_ms) e["notBefore"] = *k.not_before_ms;
    if (k.not_after_ms) e["notAfter"] = *k.not_after_ms;
    arr.push_back(std::move(e));
  }
  return json::object{{"keys", std::move(arr)}};
}

}  // namespace mcp::trust
