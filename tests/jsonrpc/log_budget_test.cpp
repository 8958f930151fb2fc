// The budget of log lines a peer can make us write (src/log/log_budget.hpp): a burst, then a
// rate, and what was dropped said by the next line written. Time is passed in: no waiting.
#include <gtest/gtest.h>

#include "log/log_budget.hpp"

using mcp::detail::LogBudget;
using namespace std::chrono_literals;

namespace {

TEST(LogBudget, ABurstThenTheRateAndWhatWasDroppedIsCounted) {
  LogBudget budget;  // the per-item default: 20 at once, then one a second
  const auto t0 = std::chrono::steady_clock::now();
  int written = 0;
  for (int i = 0; i < 10'000; ++i) written += budget.take(t0).has_value();
  EXPECT_EQ(written, 20) << "a flood at one instant gets the burst";
  EXPECT_EQ(budget.dropped(), 9'980u);
  // A second later one more line, which says how many went before it.
  auto next = budget.take(t0 + 1s);
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, 9'980u);
  EXPECT_FALSE(budget.take(t0 + 1s)) << "and only one";
  // Ten quiet seconds refill ten lines, never more than the burst.
  written = 0;
  for (int i = 0; i < 100; ++i) written += budget.take(t0 + 11s).has_value();
  EXPECT_EQ(written, 10);
  written = 0;
  for (int i = 0; i < 100; ++i) written += budget.take(t0 + 1h).has_value();
  EXPECT_EQ(written, 20);
}

TEST(LogBudget, TheNoteSaysHowManyWereDroppedOnlyWhenAnyWere) {
  EXPECT_EQ(mcp::detail::dropped_note(0), "");
  EXPECT_NE(mcp::detail::dropped_note(7).find("7 similar lines dropped"), std::string::npos);
}

}  // namespace
