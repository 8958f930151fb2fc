// What a value transport carries (src/jsonrpc/codec.cpp, request_params): the params made in one
// block that their values share, past it from the heap, usable from any thread for as long as
// any copy of a member lives. And src/json/equal.hpp: JSON equality without copies or recursion.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <thread>

#include "json/equal.hpp"
#include "mcp/jsonrpc/codec.hpp"

using namespace mcp;
using namespace mcp::jsonrpc;

namespace {

const MetaMembers& envelope() {
  static const MetaMembers m{
      meta_member("io.modelcontextprotocol/protocolVersion", "2026-07-28"),
      meta_member("io.modelcontextprotocol/clientInfo", json::object{{"name", "a client with a long name"}}),
      meta_member("io.modelcontextprotocol/clientCapabilities", json::object{{"sampling", json::object{}}})};
  return m;
}

}  // namespace

TEST(ValueParams, ParamsLargerThanTheBlockAreWhatTheTextCarries) {
  json::object arguments;
  for (int i = 0; i < 500; ++i) arguments["key-" + std::to_string(i)] = std::string(100 + i, 'x');
  arguments["big"] = std::string(64 << 10, 'y');
  const json::object params{{"name", "tool"}, {"arguments", arguments}};
  const json::object built = request_params(params, &envelope(), 7);
  auto decoded = decode(encode_request(json::value(1), "tools/call", params, &envelope(), 7));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(built, *std::get<Request>(*decoded).params);
  EXPECT_EQ(built.at("arguments").at("big").as_string().size(), std::size_t{64} << 10);
}

TEST(ValueParams, CopiesOfMembersOutliveTheParamsAndGrowFromTwoThreads) {
  std::optional<json::value> one, two;
  {
    const json::object built = request_params(json::object{{"a", json::object{{"x", 1}}}, {"b", json::array{1, 2}}},
                                              &envelope(), std::nullopt);
    one.emplace(built.at("a"));  // a copy made from a member keeps its storage: the block
    two.emplace(built.at("_meta"));
    ASSERT_EQ(one->storage().get(), built.storage().get());
    ASSERT_EQ(two->storage().get(), built.storage().get());
  }
  json::value& first = *one;
  json::value& second = *two;
  // Both draw on the one block (and past it, the heap) at once; TSan and ASan runs check it.
  std::thread grow([&] {
    for (int i = 0; i < 2000; ++i) first.as_object()["k" + std::to_string(i)] = std::string(40, 'a');
  });
  for (int i = 0; i < 2000; ++i) second.as_object()["m" + std::to_string(i)] = json::array{i, std::string(40, 'b')};
  grow.join();
  EXPECT_EQ(first.as_object().size(), 2001u);
  EXPECT_EQ(first.at("x"), 1);
  EXPECT_EQ(second.at("io.modelcontextprotocol/clientInfo").at("name"), "a client with a long name");
  EXPECT_EQ(second.at("m1999").at(1).as_string().size(), 40u);
}

TEST(JsonEqual, SaysWhatEqualitySays) {
  const json::value cases[] = {
      json::value(nullptr),
      json::value(true),
      json::value(1),
      json::value(1u),
      json::value(1.0),
      json::value("1"),
      json::array{},
      json::array{1, 2},
      json::array{2, 1},
      json::object{},
      json::object{{"a", 1}, {"b", json::array{1}}},
      json::object{{"b", json::array{1}}, {"a", 1}},
      json::object{{"a", 1}, {"b", json::array{2}}},
      json::object{{"a", 1}},
      json::object{{"a", json::object{{"b", json::object{{"c", nullptr}}}}}},
      json::object{{"a", json::object{{"b", json::object{{"c", 0}}}}}},
  };
  for (const auto& a : cases) {
    for (const auto& b : cases) {
      EXPECT_EQ(detail::json_equal(a, b), a == b) << json::serialize(a) << " vs " << json::serialize(b);
      if (a.is_object() && b.is_object()) EXPECT_EQ(detail::json_equal(a.get_object(), b.get_object()), a == b);
    }
  }
}

TEST(JsonEqual, DeepValuesDoNotReachTheStack) {
  // Built and compared by loops; deep enough that one frame per level would show under ASan.
  auto deep = [](int leaf) {
    json::value v = leaf;
    for (int i = 0; i < 4000; ++i) v = json::object{{"n", json::array{std::move(v)}}};
    return v;
  };
  const json::value a = deep(1), b = deep(1), c = deep(2);
  EXPECT_TRUE(detail::json_equal(a, b));
  EXPECT_FALSE(detail::json_equal(a, c));
}

TEST(ValueParams, TheBlockGivesWhateverAlignmentIsAskedFor) {
  const json::object built = request_params(json::object{{"a", 1}}, &envelope(), std::nullopt);
  for (std::size_t align : {1u, 8u, 16u, 64u, 256u}) {
    void* p = built.storage()->allocate(24, align);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << align;
  }
}
