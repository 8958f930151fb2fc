// The worst-case reduction (architecture brief: destructive if any is, not read-only if any is not,
// not idempotent if any is not, open-world if any is) and which listed objects a tool may carry.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "mcp/signature/reduction.hpp"

namespace mcp {
namespace {

using sigtest::hints;

json::value J(const ToolAnnotations& a) { return to_json(a); }

TEST(WorstCaseReduction, TheProposalsExample) {
  auto s = sigtest::proposal_signature();
  auto listed = listed_annotations(s.tools[0]);
  ASSERT_TRUE(listed);
  // The proposal: tools/list shows { "destructiveHint": true, "readOnlyHint": false }.
  EXPECT_EQ(J(*listed), json::parse(R"({"destructiveHint":true,"readOnlyHint":false})"));
}

TEST(WorstCaseReduction, EachHintTakesItsMostPermissiveValue) {
  std::vector<ToolAnnotations> v = {hints(true, false, true, false), hints(false, false, true, false),
                                    hints(false, true, false, false), hints(false, false, true, true)};
  ToolAnnotations w = worst_case_annotations(v);
  EXPECT_EQ(w.read_only_hint, false);   // not read-only if any is not
  EXPECT_EQ(w.destructive_hint, true);  // destructive if any is
  EXPECT_EQ(w.idempotent_hint, false);  // not idempotent if any is not
  EXPECT_EQ(w.open_world_hint, true);   // open-world if any is
}

TEST(WorstCaseReduction, DefaultsCountForAVariantThatLeavesAHintOut) {
  // {} means destructive (default true) and open-world (default true).
  ToolAnnotations w = worst_case_annotations(std::vector{hints(true, false, true, false), ToolAnnotations{}});
  EXPECT_EQ(w.read_only_hint, false);
  EXPECT_EQ(w.destructive_hint, true);
  EXPECT_EQ(w.idempotent_hint, false);
  EXPECT_EQ(w.open_world_hint, true);
  // A hint no variant states stays out (its default is already the worst case).
  ToolAnnotations none = worst_case_annotations(std::vector{hints(true, {}), hints(false, {})});
  EXPECT_FALSE(none.destructive_hint.has_value());
  EXPECT_EQ(none.read_only_hint, false);
}

TEST(WorstCaseReduction, OneObjectReducesToItself) {
  ToolAnnotations a = hints(true, false);
  a.title = "Reader";
  a.extra["x-trust"] = "high";
  EXPECT_EQ(J(worst_case_annotations(std::vector{a})), J(a));
}

TEST(WorstCaseReduction, TitleIsTheFirstAndUnrankableMembersNeedAgreement) {
  ToolAnnotations a = hints(true, false), b = hints(false, true);
  b.title = "Writer";
  a.extra["x-same"] = 1;
  b.extra["x-same"] = 1;
  a.extra["x-differs"] = "a";
  b.extra["x-differs"] = "b";
  ToolAnnotations w = worst_case_annotations(std::vector{a, b});
  EXPECT_EQ(w.title, "Writer");
  EXPECT_TRUE(w.extra.contains("x-same"));
  EXPECT_FALSE(w.extra.contains("x-differs"));
}

TEST(AnnotationSet, PermitsADeclaredObjectWhateverItsMemberOrder) {
  AnnotationSet set(sigtest::proposal_signature().tools[0].annotations);
  auto ro = json::parse(R"({"readOnlyHint":true,"destructiveHint":false})").as_object();
  EXPECT_TRUE(set.permits(&ro));
  auto rw = json::parse(R"({"readOnlyHint":false,"destructiveHint":true})").as_object();
  EXPECT_TRUE(set.permits(&rw));
}

TEST(AnnotationSet, PermitsTheWorstCaseEvenWhenNoVariantIsIt) {
  AnnotationSet set({hints(true, {}, {}, true), hints(false, {}, {}, false)});
  auto worst = json::parse(R"({"readOnlyHint":false,"openWorldHint":true})").as_object();
  EXPECT_TRUE(set.permits(&worst));
  EXPECT_EQ(set.listed(), json::value(worst));
}

TEST(AnnotationSet, RefusesAnUndeclaredObject) {
  AnnotationSet set(sigtest::proposal_signature().tools[0].annotations);
  auto flip = json::parse(R"({"readOnlyHint":false,"destructiveHint":false})").as_object();
  EXPECT_FALSE(set.permits(&flip));
  auto extra = json::parse(R"({"readOnlyHint":true,"destructiveHint":false,"x-new":true})").as_object();
  EXPECT_FALSE(set.permits(&extra));
  auto not_bool = json::parse(R"({"readOnlyHint":"yes"})").as_object();
  EXPECT_FALSE(set.permits(&not_bool));
}

TEST(AnnotationSet, AbsentAnnotationsMeanTheDefaultsWhichAreTheWorstCase) {
  // Listing a tool without annotations can only make it look more dangerous, never less.
  AnnotationSet set(sigtest::proposal_signature().tools[0].annotations);
  EXPECT_TRUE(set.permits(nullptr));
  AnnotationSet read_only({hints(true, false, true, false)});
  EXPECT_FALSE(read_only.permits(nullptr));
}

TEST(AnnotationSet, NoneDeclaredPermitsOnlyTheDefaults) {
  AnnotationSet set({});
  EXPECT_TRUE(set.permits(nullptr));
  json::object empty;
  EXPECT_TRUE(set.permits(&empty));
  auto defaults = json::parse(R"({"destructiveHint":true,"openWorldHint":true})").as_object();
  EXPECT_TRUE(set.permits(&defaults));
  auto ro = json::parse(R"({"readOnlyHint":true})").as_object();
  EXPECT_FALSE(set.permits(&ro));
  EXPECT_TRUE(set.listed().is_null());
}

}  // namespace
}  // namespace mcp
