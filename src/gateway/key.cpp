#include "gateway/key.hpp"

#include <string>

#include "gateway/private_file.hpp"

namespace mcp::gateway {

namespace {

constexpr std::size_t kMaxKeyFileBytes = 4096;

Result<std::shared_ptr<const trust::Ed25519SecretKey>> read_key(const std::filesystem::path& file) {
  auto text = read_private_file(file, kMaxKeyFileBytes);
  if (!text) return fail(text.error());
  auto key = trust::Ed25519SecretKey::parse(*text);
  trust::secure_wipe(*text);
  if (!key) return fail(Error::internal(file.string() + ": " + key.error().message));
  return std::make_shared<const trust::Ed25519SecretKey>(std::move(*key));
}

}  // namespace

Result<std::shared_ptr<const trust::Ed25519SecretKey>> load_key(const std::filesystem::path& dir) {
  return read_key(dir / kKeyFile);
}

Result<std::shared_ptr<const trust::Ed25519SecretKey>> load_or_create_key(const std::filesystem::path& dir) {
  const auto file = dir / kKeyFile;
  auto key = trust::Ed25519SecretKey::generate();
  std::string pem = key.to_pem();
  // If two gateways race, exactly one key is written and the other reads it.
  auto created = create_private_file(file, pem, key.public_key().hex().substr(0, 16));
  trust::secure_wipe(pem);
  if (!created) return fail(created.error());
  if (!*created) return read_key(file);
  return std::make_shared<const trust::Ed25519SecretKey>(std::move(key));
}

trust::Ed25519SecretKey copy_key(const trust::Ed25519SecretKey& key) {
  std::string seed = key.seed_hex();
  auto copy = trust::Ed25519SecretKey::from_hex(seed);
  trust::secure_wipe(seed);
  return std::move(*copy);  // a seed this key exported always parses
}

}  // namespace mcp::gateway
