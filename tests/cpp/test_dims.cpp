// cuarray::Dims (cuarray/dims.h): a std::vector<int64_t> in behaviour, held in place up to kInline values.
// Each case runs on both sides of kInline and compares with std::vector doing the same.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "cuarray/dims.h"

namespace {

using cuarray::Dims;
using Vec = std::vector<std::int64_t>;

constexpr std::size_t kInline = Dims::kInline;

Vec iota(std::size_t n, std::int64_t first = 1) {
  Vec v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

Vec as_vec(const Dims& d) { return Vec(d.begin(), d.end()); }

class DimsSizes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(DimsSizes, ConstructsAsVectorDoes) {
  const std::size_t n = GetParam();
  EXPECT_EQ(as_vec(Dims(n)), Vec(n));
  EXPECT_EQ(as_vec(Dims(n, 7)), Vec(n, 7));
  const Vec v = iota(n);
  EXPECT_EQ(as_vec(Dims(v.begin(), v.end())), v);
  EXPECT_EQ(as_vec(Dims(v)), v);
  EXPECT_EQ(Vec(Dims(v)), v);
  EXPECT_EQ(Dims(v).size(), n);
  EXPECT_EQ(Dims(v).empty(), n == 0);
}

TEST_P(DimsSizes, CopiesAndMovesKeepValuesAndLeaveTheSourceUsable) {
  const Vec v = iota(GetParam());
  Dims a(v);
  Dims copy(a);
  EXPECT_EQ(as_vec(copy), v);
  if (!v.empty()) copy[0] = 99;  // writing the copy leaves the original alone
  EXPECT_EQ(as_vec(a), v);
  Dims moved(std::move(a));
  EXPECT_EQ(as_vec(moved), v);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from Dims is empty and usable
  a.push_back(5);
  EXPECT_EQ(as_vec(a), Vec{5});
  Dims assigned;
  assigned = moved;
  EXPECT_EQ(as_vec(assigned), v);
  Dims big(iota(3 * kInline));
  big = std::move(moved);  // a heap block is freed, an in-place one copied, as the sizes fall
  EXPECT_EQ(as_vec(big), v);
  big = big;  // NOLINT(clang-diagnostic-self-assign-overloaded)
  EXPECT_EQ(as_vec(big), v);
}

TEST_P(DimsSizes, EditsAsVectorDoes) {
  const std::size_t n = GetParam();
  Dims d(iota(n));
  Vec v = iota(n);
  d.push_back(-1), v.push_back(-1);
  d.insert(d.begin(), 40), v.insert(v.begin(), 40);
  d.insert(d.begin() + 1, 3, 8), v.insert(v.begin() + 1, 3, 8);
  const Vec more = iota(kInline, 100);
  d.insert(d.end(), more.begin(), more.end()), v.insert(v.end(), more.begin(), more.end());
  d.insert(d.begin() + 2, d.begin(), d.begin() + 3);  // values from the sequence itself
  const Vec first3(v.begin(), v.begin() + 3);
  v.insert(v.begin() + 2, first3.begin(), first3.end());
  EXPECT_EQ(as_vec(d), v);
  d.erase(d.begin() + 1), v.erase(v.begin() + 1);
  d.erase(d.begin() + 2, d.begin() + 5), v.erase(v.begin() + 2, v.begin() + 5);
  d.pop_back(), v.pop_back();
  EXPECT_EQ(as_vec(d), v);
  EXPECT_EQ(d.front(), v.front());
  EXPECT_EQ(d.back(), v.back());
  EXPECT_EQ(Vec(d.rbegin(), d.rend()), Vec(v.rbegin(), v.rend()));
  d.resize(n + 2 * kInline, 3), v.resize(n + 2 * kInline, 3);
  EXPECT_EQ(as_vec(d), v);
  d.resize(1), v.resize(1);
  EXPECT_EQ(as_vec(d), v);
  d.assign(n, 4), v.assign(n, 4);
  EXPECT_EQ(as_vec(d), v);
  d.clear();
  EXPECT_TRUE(d.empty());
}

TEST_P(DimsSizes, ComparesAsVectorDoes) {
  const Vec v = iota(GetParam());
  Vec w = v;
  w.push_back(0);
  EXPECT_TRUE(Dims(v) == Dims(v));
  EXPECT_FALSE(Dims(v) != Dims(v));
  EXPECT_TRUE(Dims(v) != Dims(w));
  EXPECT_EQ(Dims(v) < Dims(w), v < w);
  EXPECT_EQ(Dims(w) < Dims(v), w < v);
}

INSTANTIATE_TEST_SUITE_P(InPlaceAndOnTheHeap, DimsSizes,
                         ::testing::Values(0, 1, kInline - 1, kInline, kInline + 1, 4 * kInline));

TEST(Dims, HoldsUpToKInlineValuesInPlace) {
  Dims d(iota(kInline));
  const auto* inside = reinterpret_cast<const char*>(&d);
  const auto* data = reinterpret_cast<const char*>(d.data());
  EXPECT_TRUE(data >= inside && data < inside + sizeof(Dims));  // no heap block
  d.push_back(0);
  data = reinterpret_cast<const char*>(d.data());
  EXPECT_FALSE(data >= inside && data < inside + sizeof(Dims));
  EXPECT_EQ(d.size(), kInline + 1);
}

}  // namespace
