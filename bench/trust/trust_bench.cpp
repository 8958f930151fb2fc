// Trust primitives: RFC 8785 canonicalization, SHA-256, Ed25519 (libsodium, and OpenSSL beside it to
// back the library choice), and full verification of a 100-tool signed manifest. The node side of
// the comparison is trust_bench.mjs on the same fixtures; run.sh runs both. Figures: bench/RESULTS.md.
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include "mcp/json.hpp"
#include "mcp/trust/ed25519.hpp"
#include "mcp/trust/hex.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"
#include "mcp/trust/verify.hpp"

namespace {

using namespace mcp;
using namespace mcp::trust;

std::string fixture(const char* name) {
  std::ifstream in(std::string(MCP_TRUST_BENCH_DATA) + "/" + name, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("missing fixture ") + name);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const std::string& tools_50k() { static const std::string s = fixture("tools_list_50k.json"); return s; }
const std::string& small_message() { static const std::string s = fixture("message_small.json"); return s; }

// ---- canonicalization

// From text: strict parse + canonical write, what verification of received bytes costs.
void BM_JcsText(benchmark::State& state, const std::string& (*doc)()) {
  const std::string& text = doc();
  for (auto _ : state) {
    auto r = canonicalize_text(text);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK_CAPTURE(BM_JcsText, tools_list_50k, tools_50k);
BENCHMARK_CAPTURE(BM_JcsText, message_small, small_message);

// From a DOM already in memory: what a signer pays (bytes counted are the input text's).
void BM_JcsValue(benchmark::State& state, const std::string& (*doc)()) {
  const json::value v = json::parse(doc());
  std::string out;
  for (auto _ : state) {
    out.clear();
    auto r = canonicalize_into(v, out);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * doc().size()));
}
BENCHMARK_CAPTURE(BM_JcsValue, tools_list_50k, tools_50k);
BENCHMARK_CAPTURE(BM_JcsValue, message_small, small_message);

// The two halves of BM_JcsText, and Boost.JSON's own (non-strict) parser for scale.
void BM_ParseStrict(benchmark::State& state) {
  for (auto _ : state) {
    json::monotonic_resource arena;
    auto r = parse_strict(tools_50k(), {}, &arena);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * tools_50k().size()));
}
BENCHMARK(BM_ParseStrict);

void BM_ParseStrictHeap(benchmark::State& state) {
  for (auto _ : state) {
    auto r = parse_strict(tools_50k());
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * tools_50k().size()));
}
BENCHMARK(BM_ParseStrictHeap);

void BM_BoostParse(benchmark::State& state) {
  for (auto _ : state) {
    json::monotonic_resource arena;
    auto v = json::parse(tools_50k(), &arena);
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * tools_50k().size()));
}
BENCHMARK(BM_BoostParse);

void BM_Sha256(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(sha256(std::string_view(tools_50k())));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * tools_50k().size()));
}
BENCHMARK(BM_Sha256);

// ---- Ed25519 on a 64-byte message: libsodium (used) and OpenSSL EVP (compared)

const std::string kMessage(64, 'm');

void BM_Ed25519Sign_libsodium(benchmark::State& state) {
  const auto key = Ed25519SecretKey::generate();
  for (auto _ : state) benchmark::DoNotOptimize(key.sign(kMessage));
}
BENCHMARK(BM_Ed25519Sign_libsodium);

void BM_Ed25519Verify_libsodium(benchmark::State& state) {
  const auto key = Ed25519SecretKey::generate();
  const auto sig = key.sign(kMessage);
  const Ed25519PublicKey pub = key.public_key();
  for (auto _ : state) benchmark::DoNotOptimize(pub.verify(kMessage, sig));
}
BENCHMARK(BM_Ed25519Verify_libsodium);

struct EvpKey {
  EVP_PKEY* k;
  ~EvpKey() { EVP_PKEY_free(k); }
};

// OpenSSL with the key object built once, the fair comparison (only the context is per call).
void BM_Ed25519Sign_openssl(benchmark::State& state) {
  const auto key = Ed25519SecretKey::generate();
  std::array<std::uint8_t, 32> seed{};
  from_hex(key.seed_hex(), seed);
  EvpKey k{EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed.data(), seed.size())};
  std::array<std::uint8_t, 64> sig{};
  for (auto _ : state) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    std::size_t len = sig.size();
    EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, k.k);
    EVP_DigestSign(ctx, sig.data(), &len, reinterpret_cast<const unsigned char*>(kMessage.data()), kMessage.size());
    EVP_MD_CTX_free(ctx);
    benchmark::DoNotOptimize(sig);
  }
}
BENCHMARK(BM_Ed25519Sign_openssl);

void BM_Ed25519Verify_openssl(benchmark::State& state) {
  const auto key = Ed25519SecretKey::generate();
  const auto sig = key.sign(kMessage);
  EvpKey k{EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, key.public_key().bytes().data(), 32)};
  for (auto _ : state) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, k.k);
    int ok = EVP_DigestVerify(ctx, sig.data(), sig.size(), reinterpret_cast<const unsigned char*>(kMessage.data()),
                              kMessage.size());
    EVP_MD_CTX_free(ctx);
    benchmark::DoNotOptimize(ok);
  }
}
BENCHMARK(BM_Ed25519Verify_openssl);

// Verification over the ~117 KB canonical bytes of the 100-tool manifest: here Ed25519's SHA-512
// pass over the message, not the curve arithmetic, dominates.
void BM_Ed25519VerifyLarge_libsodium(benchmark::State& state) {
  const auto key = Ed25519SecretKey::generate();
  const std::string msg = *canonicalize_text(fixture("tools_100.json"));
  const auto sig = key.sign(msg);
  const Ed25519PublicKey pub = key.public_key();
  for (auto _ : state) benchmark::DoNotOptimize(pub.verify(msg, sig));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
}
BENCHMARK(BM_Ed25519VerifyLarge_libsodium);

void BM_Ed25519VerifyLarge_openssl(benchmark::State& state) {
  const auto key = Ed25519SecretKey::generate();
  const std::string msg = *canonicalize_text(fixture("tools_100.json"));
  const auto sig = key.sign(msg);
  EvpKey k{EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, key.public_key().bytes().data(), 32)};
  for (auto _ : state) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, k.k);
    int ok = EVP_DigestVerify(ctx, sig.data(), sig.size(), reinterpret_cast<const unsigned char*>(msg.data()), msg.size());
    EVP_MD_CTX_free(ctx);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
}
BENCHMARK(BM_Ed25519VerifyLarge_openssl);

// ---- the whole job: a received 100-tool signed manifest, from bytes to verdict

void BM_VerifyManifest100(benchmark::State& state) {
  const std::string text = fixture("manifest_100.json");
  std::string pub_hex = fixture("manifest_100.pub");
  auto pub = Ed25519PublicKey::parse(pub_hex);
  if (!pub) throw std::runtime_error(pub.error().message);
  VerifyOptions opt;
  opt.now_ms = 1750000000000;
  for (auto _ : state) {
    auto r = verify_manifest(text, *pub, opt);
    if (!r.ok()) state.SkipWithError(r.detail.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_VerifyManifest100);

}  // namespace

BENCHMARK_MAIN();
