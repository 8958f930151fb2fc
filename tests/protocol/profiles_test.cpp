// Server profiles (mcp/protocol/profiles.hpp): profile URLs and their versions, the rules of a
// server's list, and the negotiation table of the proposal, minMcpVersion included.
#include <gtest/gtest.h>

#include <fstream>

#include "mcp/protocol/profiles.hpp"

using namespace mcp;

namespace {

ProfileSpec spec(std::string url, bool is_default = false, std::string min = "2025-06-18") {
  return ProfileSpec{.profile_url = std::move(url), .default_ = is_default, .min_mcp_version = std::move(min)};
}

const std::string kA10 = "https://example.com/profiles/a/1.0";
const std::string kA12 = "https://example.com/profiles/a/1.2";
const std::string kA13 = "https://example.com/profiles/a/1.3";
const std::string kA20 = "https://example.com/profiles/a/2.0";
const std::string kB10 = "https://example.com/profiles/b/1.0";

TEST(ProfileUrl, TheLastSegmentIsMajorDotMinor) {
  auto id = parse_profile_url(kA12);
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(id->family, "https://example.com/profiles/a");
  EXPECT_EQ(id->major, 1u);
  EXPECT_EQ(id->minor, 2u);
  for (const char* bad : {"https://example.com/profiles/a", "https://example.com/profiles/a/1", "https://example.com/a/1.x",
                          "https://example.com/a/01.0", "https://example.com/a/1.0.0", "ftp://example.com/a/1.0",
                          "https://example.com", "https://example.com/a/1.0/", "not a url"}) {
    EXPECT_FALSE(parse_profile_url(bad)) << bad;
  }
  EXPECT_FALSE(parse_profile_url("https://example.com/" + std::string(3000, 'a') + "/1.0"));
}

TEST(ProfileUrl, AHigherMinorOfTheSameMajorSatisfiesALowerOne) {
  auto id = [](const std::string& u) { return *parse_profile_url(u); };
  EXPECT_TRUE(satisfies(id(kA12), id(kA10)));
  EXPECT_TRUE(satisfies(id(kA12), id(kA12)));
  EXPECT_FALSE(satisfies(id(kA12), id(kA13)));  // 1.3 is not met by 1.2
  EXPECT_FALSE(satisfies(id(kA20), id(kA10)));  // never by another major
  EXPECT_FALSE(satisfies(id(kA10), id(kA20)));
  EXPECT_FALSE(satisfies(id(kB10), id(kA10)));  // another profile
}

TEST(ProfileList, TheProposalsRulesAreChecked) {
  EXPECT_TRUE(check_profiles({}));
  EXPECT_TRUE(check_profiles({spec(kA10, true), spec(kB10)}));
  auto late_default = check_profiles({spec(kA10), spec(kB10, true)});
  ASSERT_FALSE(late_default);
  EXPECT_NE(late_default.error().message.find("only the first"), std::string::npos);
  EXPECT_FALSE(check_profiles({spec(kA10, true), spec(kB10, true)}));
  EXPECT_FALSE(check_profiles({spec(kA10, false, "June 2025")}));
  EXPECT_FALSE(check_profiles({spec(kA10), spec(kA10)}));
  EXPECT_FALSE(check_profiles({spec("https://example.com/no-version")}));
}

TEST(ProfileList, TheWellKnownDocumentRoundTrips) {
  const std::vector<ProfileSpec> profiles{spec(kA12, true), spec(kB10, false, "2026-07-28")};
  json::value doc = profiles_document(profiles);
  EXPECT_EQ(doc.at(0).at("profileURL").as_string(), kA12);
  EXPECT_EQ(doc.at(0).at("default"), true);
  EXPECT_EQ(doc.at(1).at("minMcpVersion"), "2026-07-28");
  auto back = parse_profiles_document(doc);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[1].profile_url, kB10);
  EXPECT_FALSE(parse_profiles_document(json::object{}));
  EXPECT_FALSE(parse_profiles_document(json::array{json::object{{"default", true}}}));  // no profileURL
}

struct Case {
  const char* what;
  std::vector<ProfileSpec> offered;
  std::vector<std::string> requested;
  const char* revision;
  std::optional<std::string> chosen;  // empty and refused=false: no profile
  bool refused;
};

TEST(ProfileNegotiation, TheProposalsTable) {
  const std::vector<Case> cases = {
      {"no profiles, none requested: accepted, no profile", {}, {}, "2025-11-25", std::nullopt, false},
      {"none requested: the default", {spec(kA10, true), spec(kB10)}, {}, "2025-11-25", kA10, false},
      {"none requested, no default: refused", {spec(kA10), spec(kB10)}, {}, "2025-11-25", std::nullopt, true},
      {"one requested and implemented", {spec(kA10, true), spec(kB10)}, {kB10}, "2025-11-25", kB10, false},
      {"requested 1.0, implemented 1.2: 1.0", {spec(kA12)}, {kA10}, "2025-11-25", kA10, false},
      {"requested 1.3, implemented 1.2: refused", {spec(kA12)}, {kA13}, "2025-11-25", std::nullopt, true},
      {"requested 1.0, implemented 2.0: refused", {spec(kA20)}, {kA10}, "2025-11-25", std::nullopt, true},
      {"the client's order decides", {spec(kA10), spec(kB10)}, {kB10, kA10}, "2025-11-25", kB10, false},
      {"an unmet one is skipped", {spec(kA12)}, {kB10, kA10}, "2025-11-25", kA10, false},
      {"profiles requested of a server with none: refused", {}, {kA10}, "2025-11-25", std::nullopt, true},
      {"minMcpVersion not met: refused", {spec(kA10, false, "2026-07-28")}, {kA10}, "2025-11-25", std::nullopt, true},
      {"minMcpVersion met", {spec(kA10, false, "2026-07-28")}, {kA10}, "2026-07-28", kA10, false},
      {"a default whose minMcpVersion is not met: refused", {spec(kA10, true, "2026-07-28")}, {}, "2025-11-25", std::nullopt, true},
      {"a request that is no profile URL is never met", {spec(kA10)}, {"https://example.com/x"}, "2025-11-25", std::nullopt, true},
  };
  for (const auto& c : cases) {
    auto r = negotiate_profile(c.offered, c.requested, c.revision);
    if (c.refused) {
      ASSERT_FALSE(r) << c.what;
      EXPECT_EQ(r.error().code, error_code::kInvalidParams) << c.what;
      ASSERT_TRUE(r.error().data) << c.what;
      EXPECT_EQ(r.error().data->at("supportedProfiles").as_array().size(), c.offered.size()) << c.what;
      EXPECT_EQ(r.error().data->at("requestedProfiles").as_array().size(), c.requested.size()) << c.what;
    } else {
      ASSERT_TRUE(r) << c.what << ": " << r.error().message;
      EXPECT_EQ(*r, c.chosen) << c.what;
    }
  }
}

TEST(ProfileNegotiation, RequestedProfilesAreReadWithinBounds) {
  EXPECT_TRUE(read_requested_profiles(nullptr)->empty());
  json::value ok = json::array{kA10, kB10};
  EXPECT_EQ(read_requested_profiles(&ok)->size(), 2u);
  json::value not_array = "x";
  EXPECT_FALSE(read_requested_profiles(&not_array));
  json::value not_strings = json::array{1};
  EXPECT_FALSE(read_requested_profiles(&not_strings));
  json::array many;
  for (std::size_t i = 0; i <= kMaxRequestedProfiles; ++i) many.emplace_back(json::string(kA10));
  json::value flood = many;
  auto refused = read_requested_profiles(&flood);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("over the limit"), std::string::npos);
}

}  // namespace

namespace {
TEST(ProfileList, AFileIsReadWithinItsBoundAndErrorsNameIt) {
  auto missing = read_profiles_file("/nonexistent/profiles.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("/nonexistent/profiles.json"), std::string::npos);
  const std::string path = ::testing::TempDir() + "profiles_test.json";
  {
    std::ofstream out(path);
    out << R"([{"profileURL": "https://example.com/profiles/a/1.0", "default": true, "minMcpVersion": "2025-11-25"}])";
  }
  auto read = read_profiles_file(path);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->size(), 1u);
  {
    std::ofstream out(path);
    out << "[" << std::string(300 * 1024, ' ') << "]";
  }
  auto big = read_profiles_file(path);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("over 256 KiB"), std::string::npos);
}
}  // namespace
