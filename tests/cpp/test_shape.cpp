// Host-only layout logic: cuarray/shape.h and cuarray/ops/strided_args.h. Expected values follow NumPy
// (checked against numpy 2.4); strides are in bytes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cuarray/error.h"
#include "cuarray/ops/strided_args.h"
#include "cuarray/shape.h"
#include "test_util.h"

namespace {

using cuarray::Coalesced;
using cuarray::Shape;
using cuarray::Strides;
using ::testing::HasSubstr;

constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();

// ---- checked_size / size_of -------------------------------------------------------------------

TEST(CheckedSize, CountsElements) {
  EXPECT_EQ(cuarray::checked_size({2, 3, 4}, 8), 24);
  EXPECT_EQ(cuarray::checked_size({7}, 1), 7);
  EXPECT_EQ(cuarray::checked_size({}, 4), 1);  // 0-d
  EXPECT_EQ(cuarray::checked_size({kI64Max}, 1), kI64Max);
  EXPECT_EQ(cuarray::checked_size({std::int64_t(1) << 61, 2}, 1), std::int64_t(1) << 62);
}

TEST(CheckedSize, ZeroDimensionGivesZero) {
  EXPECT_EQ(cuarray::checked_size({0}, 8), 0);
  EXPECT_EQ(cuarray::checked_size({2, 0, 3}, 8), 0);
  EXPECT_EQ(cuarray::checked_size({kI64Max / 16, 0}, 16), 0);  // np.empty((2**63-1, 0), complex) is too big
}

TEST(CheckedSize, NegativeDimensionIsValueError) {
  EXPECT_EQ(message_of<cuarray::ValueError>([] {
              cuarray::checked_size({2, -1}, 8);
            }),
            "negative dimensions are not allowed");
  // Checked even when another dimension is zero (np.empty((0, -1)) raises too).
  EXPECT_THROW(cuarray::checked_size({0, -3}, 8), cuarray::ValueError);
}

TEST(CheckedSize, ElementCountOverflowIsValueError) {
  std::int64_t big = std::int64_t(1) << 32;
  EXPECT_THAT(message_of<cuarray::ValueError>([&] {
                cuarray::checked_size({big, big}, 1);
              }),
              HasSubstr("array is too big"));
  EXPECT_THROW(cuarray::checked_size({std::int64_t(1) << 62, 2}, 1), cuarray::ValueError);
  EXPECT_THROW(cuarray::checked_size({kI64Max, 2}, 1), cuarray::ValueError);
}

TEST(CheckedSize, ByteCountOverflowIsValueError) {
  // 2**62 elements fit in int64, 2**62 * itemsize 2 does not.
  EXPECT_THROW(cuarray::checked_size({std::int64_t(1) << 61, 2}, 2), cuarray::ValueError);
  EXPECT_THROW(cuarray::checked_size({std::int64_t(1) << 60}, 16), cuarray::ValueError);
  EXPECT_EQ(cuarray::checked_size({std::int64_t(1) << 58}, 16), std::int64_t(1) << 58);  // 2**62 bytes
}

TEST(CheckedSize, OverflowBeforeAZeroDimensionIsStillValueError) {
  // NumPy multiplies the nonzero dimensions (and the itemsize) with overflow checks, skipping zeros:
  // np.empty((2**62, 4, 0)) and np.empty((2**31, 2**31, 4, 0), np.int8) raise "array is too big".
  EXPECT_THROW(cuarray::checked_size({std::int64_t(1) << 62, 4, 0}, 8), cuarray::ValueError);
  EXPECT_THROW(cuarray::checked_size({std::int64_t(1) << 31, std::int64_t(1) << 31, 4, 0}, 1), cuarray::ValueError);
}

TEST(SizeOf, Multiplies) {
  EXPECT_EQ(cuarray::size_of({2, 3, 4}), 24);
  EXPECT_EQ(cuarray::size_of({}), 1);
  EXPECT_EQ(cuarray::size_of({5, 0}), 0);
}

// ---- c_strides / f_strides --------------------------------------------------------------------

TEST(Strides, COrder) {
  EXPECT_EQ(cuarray::c_strides({2, 3, 4}, 8), (Strides{96, 32, 8}));
  EXPECT_EQ(cuarray::c_strides({5}, 2), (Strides{2}));
  EXPECT_EQ(cuarray::c_strides({3, 1, 2}, 4), (Strides{8, 8, 4}));
  EXPECT_EQ(cuarray::c_strides({}, 8), (Strides{}));
}

TEST(Strides, FOrder) {
  EXPECT_EQ(cuarray::f_strides({2, 3, 4}, 8), (Strides{8, 16, 48}));
  EXPECT_EQ(cuarray::f_strides({5}, 2), (Strides{2}));
  EXPECT_EQ(cuarray::f_strides({3, 1, 2}, 4), (Strides{4, 12, 12}));
  EXPECT_EQ(cuarray::f_strides({}, 8), (Strides{}));
}

// ---- contiguity flags -------------------------------------------------------------------------

struct FlagCase {
  Shape shape;
  Strides strides;
  int itemsize;
  bool c, f;
};

TEST(Contiguity, MatchesNumPyFlags) {
  const FlagCase cases[] = {
      {{2, 3, 4}, {96, 32, 8}, 8, true, false},  // np.empty((2, 3, 4))
      {{2, 3, 4}, {8, 16, 48}, 8, false, true},  // order='F'
      {{4, 3}, {48, 16}, 8, false, false},       // np.empty((4, 6))[:, ::2]
      {{3, 4}, {64, 8}, 8, false, false},        // np.empty((6, 4))[::2]
      {{5}, {8}, 8, true, true},                 // 1-d contiguous is both
      {{5}, {16}, 8, false, false},              // 1-d strided
      {{5}, {-8}, 8, false, false},              // reversed
      {{2, 3}, {12, 4}, 8, false, false},        // strides of a 4-byte type, itemsize 8
      {{2, 3}, {12, 4}, 4, true, false},
      {{}, {}, 8, true, true},                    // 0-d
      {{3, 1, 4}, {32, 999, 8}, 8, true, false},  // a length-1 dim's stride is ignored
      {{3, 1, 4}, {8, -7, 24}, 8, false, true},
      {{1, 1}, {1000, -5}, 8, true, true},    // size 1: any strides
      {{1, 5, 1}, {0, 8, 0}, 8, true, true},  // only one dim > 1
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(cuarray::shape_str(c.shape) + " strides " + cuarray::shape_str(c.strides));
    EXPECT_EQ(cuarray::is_c_contiguous(c.shape, c.strides, c.itemsize), c.c);
    EXPECT_EQ(cuarray::is_f_contiguous(c.shape, c.strides, c.itemsize), c.f);
  }
}

TEST(Contiguity, SizeZeroIgnoresStridesOfOtherDims) {
  // as_strided(np.empty(100), shape=(0, 3), strides=(48, 16)).flags: C and F contiguous (NumPy keeps
  // scanning after a mismatch and a zero-length dim makes the array contiguous). Such a view arises
  // from np.empty((0, 6))[:, ::2] in cuarray, whose strides are (48, 16).
  EXPECT_TRUE(cuarray::is_c_contiguous({0, 3}, {48, 16}, 8));
  EXPECT_TRUE(cuarray::is_f_contiguous({0, 3}, {48, 16}, 8));
  EXPECT_TRUE(cuarray::is_c_contiguous({3, 0}, {16, 48}, 8));
  EXPECT_TRUE(cuarray::is_f_contiguous({3, 0}, {16, 48}, 8));
  // The C strides of (2, 0, 3) (what c_strides gives) are F contiguous too.
  EXPECT_TRUE(cuarray::is_c_contiguous({2, 0, 3}, {24, 24, 8}, 8));
  EXPECT_TRUE(cuarray::is_f_contiguous({2, 0, 3}, {24, 24, 8}, 8));
}

// ---- broadcasting -----------------------------------------------------------------------------

TEST(BroadcastShapes, Shapes) {
  EXPECT_EQ(cuarray::broadcast_shapes({3, 1, 5}, {4, 1}), (Shape{3, 4, 5}));
  EXPECT_EQ(cuarray::broadcast_shapes({4, 1}, {3, 1, 5}), (Shape{3, 4, 5}));
  EXPECT_EQ(cuarray::broadcast_shapes({}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(cuarray::broadcast_shapes({2, 3}, {}), (Shape{2, 3}));
  EXPECT_EQ(cuarray::broadcast_shapes({}, {}), (Shape{}));
  EXPECT_EQ(cuarray::broadcast_shapes({5, 1}, {1}), (Shape{5, 1}));
  EXPECT_EQ(cuarray::broadcast_shapes({0}, {1}), (Shape{0}));
  EXPECT_EQ(cuarray::broadcast_shapes({1}, {0}), (Shape{0}));
  EXPECT_EQ(cuarray::broadcast_shapes({2, 1, 0}, {3, 1}), (Shape{2, 3, 0}));
}

TEST(BroadcastShapes, MismatchNamesBothShapes) {
  EXPECT_EQ(message_of<cuarray::ValueError>([] {
              cuarray::broadcast_shapes({2, 3}, {4});
            }),
            "operands could not be broadcast together with shapes (2,3) (4,) ");  // NumPy's, trailing space too
  EXPECT_EQ(message_of<cuarray::ValueError>([] { cuarray::broadcast_shapes({0}, {2}); }),
            "operands could not be broadcast together with shapes (0,) (2,) ");
}

TEST(BroadcastStrides, ZeroStrideOnBroadcastDims) {
  EXPECT_EQ(cuarray::broadcast_strides({3}, {8}, {4, 2, 3}), (Strides{0, 0, 8}));
  EXPECT_EQ(cuarray::broadcast_strides({3, 1}, {8, 8}, {3, 4}), (Strides{8, 0}));
  EXPECT_EQ(cuarray::broadcast_strides({}, {}, {2, 2}), (Strides{0, 0}));
  EXPECT_EQ(cuarray::broadcast_strides({1}, {8}, {0}), (Strides{0}));
  EXPECT_EQ(cuarray::broadcast_strides({4, 1}, {-24, -8}, {4, 5}), (Strides{-24, 0}));
  // A length-1 dim that is not broadcast keeps its stride (np.broadcast_to(np.ones((1, 3)), (1, 3))).
  EXPECT_EQ(cuarray::broadcast_strides({1, 3}, {24, 8}, {1, 3}), (Strides{24, 8}));
}

TEST(BroadcastStrides, Errors) {
  EXPECT_EQ(message_of<cuarray::ValueError>([] { cuarray::broadcast_strides({3}, {8}, {4}); }),
            "could not broadcast input array from shape (3,) into shape (4,)");
  EXPECT_THROW(cuarray::broadcast_strides({2, 3}, {24, 8}, {3}), cuarray::ValueError);
  EXPECT_THROW(cuarray::broadcast_strides({2, 3}, {24, 8}, {2, 1}), cuarray::ValueError);
}

// ---- normalize_axis / shape_str ---------------------------------------------------------------

TEST(NormalizeAxis, InRange) {
  EXPECT_EQ(cuarray::normalize_axis(0, 3), 0);
  EXPECT_EQ(cuarray::normalize_axis(2, 3), 2);
  EXPECT_EQ(cuarray::normalize_axis(-1, 3), 2);
  EXPECT_EQ(cuarray::normalize_axis(-3, 3), 0);
}

TEST(NormalizeAxis, OutOfRangeIsAxisError) {
  EXPECT_EQ(message_of<cuarray::AxisError>([] { cuarray::normalize_axis(3, 2); }),
            "axis 3 is out of bounds for array of dimension 2");
  EXPECT_EQ(message_of<cuarray::AxisError>([] { cuarray::normalize_axis(-3, 2); }),
            "axis -3 is out of bounds for array of dimension 2");
  EXPECT_EQ(message_of<cuarray::AxisError>([] { cuarray::normalize_axis(0, 0); }),
            "axis 0 is out of bounds for array of dimension 0");
  EXPECT_THROW(cuarray::normalize_axis(std::numeric_limits<std::int64_t>::min(), 4), cuarray::AxisError);
  EXPECT_THROW(cuarray::normalize_axis(std::int64_t(1) << 40, 4), cuarray::AxisError);
}

TEST(ShapeStr, PythonTupleSpelling) {
  EXPECT_EQ(cuarray::shape_str({2, 3}), "(2, 3)");
  EXPECT_EQ(cuarray::shape_str({4}), "(4,)");
  EXPECT_EQ(cuarray::shape_str({}), "()");
  EXPECT_EQ(cuarray::shape_str({0, 1, 12345678901}), "(0, 1, 12345678901)");
}

// ---- coalesce ---------------------------------------------------------------------------------

TEST(Coalesce, MergesContiguousDimsOfEveryOperand) {
  // C-contiguous (2, 3, 4) float64 with a broadcast operand (all strides 0): one dimension.
  Coalesced c = cuarray::coalesce({2, 3, 4}, {{96, 32, 8}, {0, 0, 0}});
  EXPECT_EQ(c.shape, (Shape{24}));
  ASSERT_EQ(c.strides.size(), 2u);
  EXPECT_EQ(c.strides[0], (Strides{8}));
  EXPECT_EQ(c.strides[1], (Strides{0}));
}

TEST(Coalesce, StopsWhereAnyOperandIsNotContiguous) {
  // Operand 1 is np.empty((2, 3, 8))[:, :, :4]: dims 0-1 merge, dims 1-2 do not.
  Coalesced c = cuarray::coalesce({2, 3, 4}, {{96, 32, 8}, {192, 64, 8}});
  EXPECT_EQ(c.shape, (Shape{6, 4}));
  ASSERT_EQ(c.strides.size(), 2u);
  EXPECT_EQ(c.strides[0], (Strides{32, 8}));
  EXPECT_EQ(c.strides[1], (Strides{64, 8}));
}

TEST(Coalesce, TransposedOperandIsNotMerged) {
  Coalesced c = cuarray::coalesce({3, 4}, {{8, 24}});
  EXPECT_EQ(c.shape, (Shape{3, 4}));
  EXPECT_EQ(c.strides[0], (Strides{8, 24}));
  Coalesced d = cuarray::coalesce({3, 4}, {{32, 8}, {8, 24}});
  EXPECT_EQ(d.shape, (Shape{3, 4}));
  EXPECT_EQ(d.strides[0], (Strides{32, 8}));
  EXPECT_EQ(d.strides[1], (Strides{8, 24}));
}

TEST(Coalesce, DropsLengthOneDims) {
  Coalesced c = cuarray::coalesce({2, 1, 3}, {{24, 999, 8}});
  EXPECT_EQ(c.shape, (Shape{6}));
  EXPECT_EQ(c.strides[0], (Strides{8}));
  // A length-1 dim between two dims that cannot merge.
  Coalesced d = cuarray::coalesce({4, 1, 3}, {{48, 48, 8}});
  EXPECT_EQ(d.shape, (Shape{4, 3}));
  EXPECT_EQ(d.strides[0], (Strides{48, 8}));
}

TEST(Coalesce, AllOnesAndZeroDimBecomeEmpty) {
  Coalesced c = cuarray::coalesce({1, 1}, {{8, 8}, {0, 0}});
  EXPECT_EQ(c.shape, (Shape{}));
  ASSERT_EQ(c.strides.size(), 2u);
  EXPECT_EQ(c.strides[0], (Strides{}));
  EXPECT_EQ(c.strides[1], (Strides{}));
  Coalesced d = cuarray::coalesce({}, {{}});
  EXPECT_EQ(d.shape, (Shape{}));
  ASSERT_EQ(d.strides.size(), 1u);
}

TEST(Coalesce, NegativeStridesMergeWhenConsistent) {
  // np.empty((2, 3))[::-1, ::-1]: strides (-24, -8) walk memory backwards contiguously.
  Coalesced c = cuarray::coalesce({2, 3}, {{-24, -8}});
  EXPECT_EQ(c.shape, (Shape{6}));
  EXPECT_EQ(c.strides[0], (Strides{-8}));
  // np.empty((2, 3))[::-1]: (-24, 8) cannot merge.
  Coalesced d = cuarray::coalesce({2, 3}, {{-24, 8}});
  EXPECT_EQ(d.shape, (Shape{2, 3}));
}

// ---- byte_extent and strided_args.h ------------------------------------------------------------

TEST(ByteExtent, PositiveNegativeAndEmpty) {
  using P = std::pair<std::int64_t, std::int64_t>;
  EXPECT_EQ(cuarray::byte_extent({3}, {8}, 8), (P{0, 24}));
  EXPECT_EQ(cuarray::byte_extent({3}, {-8}, 8), (P{-16, 8}));
  EXPECT_EQ(cuarray::byte_extent({2, 3}, {-24, 8}, 8), (P{-24, 24}));
  EXPECT_EQ(cuarray::byte_extent({4, 3}, {48, 16}, 8), (P{0, 184}));
  EXPECT_EQ(cuarray::byte_extent({4}, {0}, 4), (P{0, 4}));  // broadcast
  EXPECT_EQ(cuarray::byte_extent({}, {}, 16), (P{0, 16}));  // 0-d
  EXPECT_EQ(cuarray::byte_extent({0, 3}, {-24, 8}, 8), (P{0, 0}));
  EXPECT_EQ(cuarray::byte_extent({3, 0}, {8, 8}, 8), (P{0, 0}));
}

TEST(ByteExtent, OverflowIsValueError) {
  EXPECT_THAT(message_of<cuarray::ValueError>([] { cuarray::byte_extent({3}, {kI64Max / 2 + 1}, 8); }),
              HasSubstr("array is too big"));
  EXPECT_THROW(cuarray::byte_extent({2, 2}, {kI64Max / 2, kI64Max / 2}, 8), cuarray::ValueError);
  EXPECT_THROW(cuarray::byte_extent({2, 2}, {-kI64Max, -kI64Max}, 8), cuarray::ValueError);
}

TEST(CoalesceInMemoryOrder, TransposedOperandZero) {
  // Operand 0 is np.empty((4, 3)).T (strides (8, 24)); operand 1 a C-contiguous (3, 4).
  Coalesced c = cuarray::ops::coalesce_in_memory_order({3, 4}, {{8, 24}, {32, 8}});
  EXPECT_EQ(c.shape, (Shape{4, 3}));
  ASSERT_EQ(c.strides.size(), 2u);
  EXPECT_EQ(c.strides[0], (Strides{24, 8}));
  EXPECT_EQ(c.strides[1], (Strides{8, 32}));
  // Alone, the transposed operand is one contiguous run.
  Coalesced d = cuarray::ops::coalesce_in_memory_order({3, 4}, {{8, 24}});
  EXPECT_EQ(d.shape, (Shape{12}));
  EXPECT_EQ(d.strides[0], (Strides{8}));
}

TEST(CoalesceInMemoryOrder, OrdersByAbsoluteStride) {
  // (2, 3, 4) transposed to (4, 2, 3) with strides (8, 96, 32); reversed on the middle axis.
  Coalesced c = cuarray::ops::coalesce_in_memory_order({4, 2, 3}, {{8, -96, 32}});
  EXPECT_EQ(c.shape, (Shape{2, 12}));
  EXPECT_EQ(c.strides[0], (Strides{-96, 8}));
}

std::vector<std::int64_t> packed(cuarray::ops::StridedArgs& a, size_t n) {
  std::vector<std::int64_t> out(n);
  std::memcpy(out.data(), a.data(), n * sizeof(std::int64_t));
  return out;
}

TEST(StridedArgsTest, PacksExtentsThenOneStrideRowPerOperand) {
  Coalesced c{{4, 3}, {{24, 8}, {8, 32}, {0, 4}}};
  cuarray::ops::StridedArgs a(c);
  EXPECT_EQ(a.ndim(), 2);
  EXPECT_FALSE(a.wide());
  EXPECT_EQ(packed(a, 8), (std::vector<std::int64_t>{4, 3, 24, 8, 8, 32, 0, 4}));
}

TEST(StridedArgsTest, ZeroDimBecomesOneElement) {
  Coalesced c{{}, {{}, {}}};
  cuarray::ops::StridedArgs a(c);
  EXPECT_EQ(a.ndim(), 1);
  EXPECT_FALSE(a.wide());
  EXPECT_EQ(packed(a, 3), (std::vector<std::int64_t>{1, 0, 0}));
}

TEST(StridedArgsTest, WideWhenElementCountExceeds32Bits) {
  const std::int64_t i32max = std::numeric_limits<std::int32_t>::max();
  // Broadcast operands (stride 0) isolate the element-count rule.
  EXPECT_FALSE(cuarray::ops::StridedArgs(Coalesced{{i32max}, {{0}}}).wide());
  EXPECT_TRUE(cuarray::ops::StridedArgs(Coalesced{{i32max + 1}, {{0}}}).wide());
  EXPECT_TRUE(cuarray::ops::StridedArgs(Coalesced{{1 << 16, 1 << 16}, {{0, 0}}}).wide());
  EXPECT_FALSE(cuarray::ops::StridedArgs(Coalesced{{1 << 15, 1 << 15}, {{0, 0}}}).wide());
}

TEST(StridedArgsTest, WideWhenByteReachExceeds32Bits) {
  const std::int64_t two31 = std::int64_t(1) << 31;
  EXPECT_FALSE(cuarray::ops::StridedArgs(Coalesced{{1000}, {{8}}}).wide());
  EXPECT_FALSE(cuarray::ops::StridedArgs(Coalesced{{1000, 3}, {{8, -8000}}}).wide());
  EXPECT_TRUE(cuarray::ops::StridedArgs(Coalesced{{2}, {{two31}}}).wide());
  EXPECT_TRUE(cuarray::ops::StridedArgs(Coalesced{{2}, {{-two31}}}).wide());
  // Only the second operand reaches far (a small array beside a widely strided one).
  EXPECT_TRUE(cuarray::ops::StridedArgs(Coalesced{{3, 2}, {{16, 8}, {8, two31}}}).wide());
  // 2**29 float64 elements: 4 GiB of reach, with an element count that fits.
  EXPECT_TRUE(cuarray::ops::StridedArgs(Coalesced{{1 << 29}, {{8}}}).wide());
}

// ---- the layout of new arrays from several operands (Note [Layout of new arrays]) ----------------------

struct LayoutCase {
  Shape shape;
  std::vector<std::pair<Shape, Strides>> operands;
  Strides numpy;  // NumPy 2.4's strides of np.add(*operands) or np.concatenate(operands) (float64)
};

// Drawn at random (2-4 axes of length 1-4, transposed, strided, reversed and broadcast operands, never all
// C-contiguous) and computed by NumPy, with a few chosen ones first: C + F, F + C, F + F, F + a column, F + a row;
// transposed strided views concatenated and stacked.
const LayoutCase kIteratorCases[] = {
    {{3, 4}, {{{3, 4}, {32, 8}}, {{3, 4}, {8, 24}}}, {32, 8}},
    {{3, 4}, {{{3, 4}, {8, 24}}, {{3, 4}, {32, 8}}}, {32, 8}},
    {{3, 4}, {{{3, 4}, {8, 24}}, {{3, 4}, {8, 24}}}, {8, 24}},
    {{3, 4}, {{{3, 4}, {8, 24}}, {{3, 1}, {8, 0}}}, {8, 24}},
    {{3, 4}, {{{3, 4}, {8, 24}}, {{4}, {8}}}, {8, 24}},
    {{2, 4, 1}, {{{2, 1, 1}, {8, 64, -32}}, {{2, 4, 1}, {8, -16, -64}}}, {8, 16, 8}},
    {{1, 3}, {{{1, 3}, {16, 16}}, {{1, 3}, {-96, -16}}}, {24, 8}},
    {{3, 2, 2}, {{{3, 2, 2}, {-256, 64, 16}}, {{2}, {-8}}}, {32, 16, 8}},
    {{1, 1, 3}, {{{1, 3}, {48, -8}}, {{1, 1, 3}, {-96, -8, 16}}}, {24, 24, 8}},
    {{1, 4, 1, 2}, {{{4, 1, 2}, {-32, -8, -8}}, {{1, 4, 1, 2}, {256, 32, 8, 8}}}, {64, 16, 16, 8}},
    {{1, 1, 1, 2}, {{{1, 1, 1, 2}, {-8, -16, 32, 64}}, {{1, 1, 1}, {8, -16, 8}}}, {16, 16, 16, 8}},
    {{3, 3, 3, 4}, {{{3, 3, 4}, {384, 64, -8}}, {{3, 1, 3, 4}, {384, 384, 16, -48}}}, {288, 96, 32, 8}},
    {{2, 2, 4, 3}, {{{2, 2, 4, 3}, {-1536, 128, 16, 512}}, {{1, 1, 4, 3}, {-192, 192, -48, -8}}}, {192, 96, 24, 8}},
    {{4, 4}, {{{4, 4}, {8, 32}}, {{4, 4}, {16, 128}}}, {8, 32}},
    {{4, 2, 2, 1}, {{{4, 2, 2, 1}, {-8, -128, 64, 32}}, {{1, 2, 2, 1}, {16, -32, 128, -256}}}, {8, 64, 32, 8}},
    {{4, 1}, {{{4, 1}, {8, -64}}, {{4, 1}, {-8, 64}}}, {8, 8}},
    {{1, 1, 4}, {{{1, 4}, {-16, -32}}, {{1, 1, 1}, {32, 16, 64}}}, {32, 32, 8}},
    {{1, 3}, {{{1, 1}, {32, -16}}, {{3}, {-8}}}, {24, 8}},
    {{3, 1}, {{{3, 1}, {-8, 24}}, {{3, 1}, {16, 8}}}, {8, 8}},
    {{1, 4, 4}, {{{1, 4, 4}, {256, 64, -16}}, {{1, 4, 4}, {16, 128, 32}}}, {128, 32, 8}},
    {{4, 3, 2, 3}, {{{1, 1, 1, 1}, {16, -32, -8, 16}}, {{4, 3, 2, 3}, {-24, 8, -192, 384}}}, {24, 8, 96, 192}},
    {{3, 2, 1}, {{{3, 2, 1}, {-8, 48, 192}}, {{3, 2, 1}, {16, 8, 8}}}, {16, 8, 8}},
    {{3, 1}, {{{3, 1}, {-8, -24}}, {{3, 1}, {-16, 48}}}, {8, 8}},
    {{2, 2, 2}, {{{2, 2, 2}, {128, 16, 64}}, {{2, 2, 2}, {64, -32, -16}}}, {32, 16, 8}},
    {{1, 2, 4, 3}, {{{1, 2, 4, 3}, {192, -48, -192, 16}}, {{1, 2, 4, 3}, {192, -24, -48, 8}}}, {192, 24, 48, 8}},
    {{3, 1, 3, 2}, {{{3, 1, 3, 2}, {-64, 1152, -384, -16}}, {{3, 2}, {-16, 96}}}, {16, 144, 48, 8}},
    {{1, 3}, {{{1, 1}, {-16, 32}}, {{1, 3}, {-16, -16}}}, {24, 8}},
    {{3, 4}, {{{3, 4}, {32, -8}}, {{3, 4}, {64, 8}}}, {32, 8}},
    {{4, 3, 3}, {{{4, 3, 1}, {48, 8, 24}}, {{4, 3, 3}, {-96, 768, 16}}}, {72, 24, 8}},
    {{1, 2}, {{{1, 1}, {-16, -16}}, {{1, 2}, {-32, -8}}}, {16, 8}},
    {{1, 1, 2, 1}, {{{1, 1, 2, 1}, {8, -128, -32, -16}}, {{1, 1, 2, 1}, {-8, 16, -8, -8}}}, {16, 16, 8, 8}},
    {{1, 1, 1, 3}, {{{1, 1, 1, 3}, {-96, -96, 96, -16}}, {{1, 1, 1, 3}, {-16, 16, -16, 16}}}, {24, 24, 24, 8}},
    {{4, 3, 2, 4}, {{{1, 3, 2, 1}, {-8, 16, -48, -8}}, {{4, 3, 2, 4}, {8, -512, 32, 64}}}, {8, 256, 32, 64}},
    {{4, 4}, {{{4, 4}, {-8, 32}}, {{4}, {-16}}}, {8, 32}},
    {{2, 1, 1}, {{{1, 1, 1}, {16, 32, -64}}, {{2, 1, 1}, {16, -16, 64}}}, {8, 8, 8}},
    {{1, 1, 3}, {{{1, 1, 1}, {-32, 64, 16}}, {{1, 1, 3}, {-96, 8, 16}}}, {24, 24, 8}},
    {{3, 2, 2, 3}, {{{3, 2, 2, 3}, {16, 576, -48, -96}}, {{3, 1, 1, 3}, {-48, 48, 48, -16}}}, {48, 144, 8, 16}},
    {{1, 3, 3}, {{{1, 3, 1}, {-48, 16, 96}}, {{3}, {8}}}, {72, 24, 8}},
    {{4, 2}, {{{4, 2}, {8, 64}}, {{4, 2}, {-32, 16}}}, {16, 8}},
    {{4, 4}, {{{1, 1}, {-16, -16}}, {{4, 4}, {-64, -16}}}, {32, 8}},
};
const LayoutCase kConcatenateCases[] = {
    {{10, 2}, {{{5, 2}, {16, -160}}, {{5, 2}, {16, -160}}}, {8, 80}},
    {{5, 2, 2}, {{{5, 1, 2}, {16, 0, -160}}, {{5, 1, 2}, {16, 0, -160}}}, {16, 8, 80}},
    {{1, 6, 2}, {{{1, 2, 2}, {16, 64, -16}}, {{1, 3, 2}, {48, 8, -24}}, {{1, 1, 2}, {-32, 32, 16}}}, {96, 16, 8}},
    {{1, 2}, {{{1, 2}, {-16, 16}}}, {16, 8}},
    {{4, 1, 2, 6},
     {{{4, 1, 2, 1}, {-16, 256, 128, 16}}, {{4, 1, 2, 3}, {-32, -16, -128, 512}}, {{4, 1, 2, 2}, {128, -64, -16, 8}}},
     {96, 96, 48, 8}},
    {{4, 1, 4}, {{{4, 1, 4}, {-8, 64, 128}}}, {8, 8, 32}},
    {{6, 1, 3, 1},
     {{{2, 1, 3, 1}, {-16, 16, 32, 96}}, {{2, 1, 3, 1}, {-48, 192, -16, 384}}, {{2, 1, 3, 1}, {-48, -192, 16, -192}}},
     {24, 24, 8, 8}},
    {{1, 7}, {{{1, 3}, {-16, -32}}, {{1, 2}, {-32, 16}}, {{1, 2}, {-8, -8}}}, {56, 8}},
    {{2, 1, 1}, {{{2, 1, 1}, {32, -16, 8}}}, {8, 8, 8}},
    {{1, 2}, {{{1, 2}, {16, -16}}}, {16, 8}},
    {{8, 3, 1, 3},
     {{{2, 3, 1, 3}, {8, 32, -96, 192}}, {{3, 3, 1, 3}, {-16, -288, 1728, 96}}, {{3, 3, 1, 3}, {16, -144, -432, 48}}},
     {8, 192, 8, 64}},
    {{4, 4, 1}, {{{3, 4, 1}, {8, 48, 192}}, {{1, 4, 1}, {8, 16, 16}}}, {8, 32, 8}},
    {{3, 1}, {{{3, 1}, {-8, 8}}}, {8, 8}},
    {{1, 2}, {{{1, 2}, {16, 32}}}, {16, 8}},
    {{2, 3}, {{{2, 2}, {-32, -16}}, {{2, 1}, {-32, 16}}}, {24, 8}},
    {{1, 5, 1}, {{{1, 3, 1}, {-8, 16, 16}}, {{1, 2, 1}, {-8, 32, -16}}}, {40, 8, 8}},
    {{3, 6, 2, 3},
     {{{3, 1, 2, 3}, {-48, 576, -288, -16}},
      {{3, 3, 2, 3}, {-16, 96, -1728, 288}},
      {{3, 2, 2, 3}, {-128, 16, -32, -768}}},
     {288, 8, 144, 48}},
    {{3, 2, 2, 7},
     {{{3, 2, 2, 3}, {64, -8, -16, 384}}, {{3, 2, 2, 1}, {-16, 48, 8, -96}}, {{3, 2, 2, 3}, {192, -32, -16, 64}}},
     {224, 16, 8, 32}},
    {{7, 4}, {{{3, 4}, {64, -8}}, {{3, 4}, {-32, -8}}, {{1, 4}, {-8, -8}}}, {32, 8}},
    {{6, 1, 4}, {{{3, 1, 4}, {-128, 768, -16}}, {{3, 1, 4}, {-64, 384, 16}}}, {32, 32, 8}},
    {{2, 2, 4}, {{{2, 2, 1}, {-32, -16, -8}}, {{2, 2, 3}, {-32, 8, -64}}}, {16, 8, 32}},
    {{2, 4, 1}, {{{2, 4, 1}, {-64, -8, 32}}}, {32, 8, 8}},
    {{3, 2, 2}, {{{3, 2, 2}, {-16, -48, -96}}}, {8, 24, 48}},
    {{2, 4, 7, 2},
     {{{2, 4, 2, 2}, {256, -64, -16, -1024}}, {{2, 4, 2, 2}, {128, 512, -64, 16}}, {{2, 4, 3, 2}, {-96, 192, 16, 48}}},
     {448, 112, 16, 8}},
    {{2, 3}, {{{2, 3}, {16, -32}}}, {8, 16}},
    {{3, 1, 4, 1}, {{{2, 1, 4, 1}, {32, -16, 128, -64}}, {{1, 1, 4, 1}, {-16, -64, -128, 32}}}, {8, 8, 24, 8}},
    {{5, 1}, {{{1, 1}, {-16, 16}}, {{1, 1}, {-8, 16}}, {{3, 1}, {32, -16}}}, {8, 8}},
    {{3, 4, 2}, {{{3, 4, 2}, {-512, -16, 128}}}, {64, 8, 32}},
    {{4, 1, 6, 2},
     {{{4, 1, 2, 2}, {-64, -8, 16, 256}}, {{4, 1, 1, 2}, {16, -8, 128, 8}}, {{4, 1, 3, 2}, {-16, -8, -128, 64}}},
     {96, 96, 16, 8}},
    {{1, 5, 1}, {{{1, 3, 1}, {-8, -16, -8}}, {{1, 1, 1}, {16, 32, -32}}, {{1, 1, 1}, {8, 16, 8}}}, {40, 8, 8}},
};

Strides layout(const LayoutCase& c, cuarray::LayoutRule rule) {
  std::vector<cuarray::LayoutOperand> ops;
  for (const auto& [shape, strides] : c.operands) ops.push_back({&shape, &strides});
  return cuarray::strides_like(c.shape, ops.data(), static_cast<int>(ops.size()), 8, rule);
}

TEST(Layout, UfuncOutputsAreLaidOutAsNumPysIterator) {
  for (const LayoutCase& c : kIteratorCases) {
    const Strides got = layout(c, cuarray::LayoutRule::Iterator);
    // The memory order: the strides of the axes longer than 1 (NumPy's strides of length-1 axes are its own).
    for (std::size_t d = 0; d < c.shape.size(); ++d)
      if (c.shape[d] > 1) EXPECT_EQ(got[d], c.numpy[d]) << "axis " << d << " of case " << (&c - kIteratorCases);
  }
}

TEST(Layout, ConcatenatedArraysAreLaidOutAsNumPys) {
  for (const LayoutCase& c : kConcatenateCases)
    EXPECT_EQ(layout(c, cuarray::LayoutRule::Concatenate), c.numpy) << "case " << (&c - kConcatenateCases);
}

// ---- the layout of a reduction's new result (reduction_strides) ------------------------------------------------

struct ReductionLayoutCase {
  Shape shape;
  Strides strides;  // the input's (float64, zero along broadcast axes)
  std::vector<bool> reduced;
  Strides numpy;  // NumPy 2.4's strides of np.sum(input, axis=reduced), for the kept axes
};

// Drawn at random (2-4 axes of length 1-4, transposed, strided, reversed, often broadcast along some axes, two or
// more kept axes) and computed by NumPy: the first 25 are ones where ordering the kept axes alone gives another
// layout (270 of 30,000 draws), the last 10 are ordinary draws. The rule matched NumPy on all 30,000.
const ReductionLayoutCase kReductionCases[] = {
    {{4, 4, 3, 2}, {512, 0, 4096, -16}, {false, false, true, false}, {16, 64, 8}},
    {{4, 2, 2}, {-8, 0, 256}, {false, false, true}, {8, 32}},
    {{2, 2, 4, 3}, {128, 0, 0, 256}, {false, false, false, true}, {8, 64, 16}},
    {{3, 3, 2}, {-16, 0, 96}, {false, false, true}, {8, 24}},
    {{3, 3, 2}, {-16, 0, 96}, {false, false, true}, {8, 24}},
    {{2, 2, 3, 4}, {96, 8, 0, 192}, {false, true, false, true}, {8, 16}},
    {{3, 4, 2, 3}, {96, 0, 2304, 0}, {false, false, true, false}, {24, 72, 8}},
    {{3, 3, 2, 4}, {-8, 48, 0, -1152}, {false, true, false, true}, {8, 24}},
    {{2, 4, 3, 4}, {-96, 0, 0, -384}, {false, true, false, true}, {8, 16}},
    {{3, 4, 4, 2}, {-16, 0, -3072, 768}, {false, false, true, true}, {8, 24}},
    {{3, 2, 3, 4}, {96, 0, -8, 288}, {false, false, false, true}, {24, 72, 8}},
    {{2, 2, 2, 2}, {8, 0, -128, 0}, {false, false, true, false}, {16, 32, 8}},
    {{2, 4, 4, 3}, {0, -8, 0, -256}, {true, false, false, true}, {8, 32}},
    {{2, 1, 2, 2}, {8, 0, 0, -64}, {false, true, false, true}, {8, 16}},
    {{4, 2, 3}, {16, 0, -128}, {false, false, true}, {8, 32}},
    {{4, 4, 4, 4}, {64, 4096, 0, 512}, {false, false, false, true}, {8, 128, 32}},
    {{3, 2, 4}, {16, 0, 192}, {false, false, true}, {8, 24}},
    {{2, 4, 4, 3}, {-64, 0, 16, 1024}, {false, false, false, true}, {32, 64, 8}},
    {{1, 3, 2, 4}, {0, 8, 0, 192}, {true, false, false, true}, {8, 24}},
    {{2, 4, 3, 4}, {-64, 0, -256, 768}, {false, false, true, true}, {8, 16}},
    {{4, 3, 3, 3}, {0, -96, 0, -288}, {false, false, false, true}, {72, 8, 24}},
    {{2, 3, 3, 2}, {192, 0, 384, 0}, {false, false, true, true}, {8, 16}},
    {{4, 2, 1, 2}, {8, 0, 0, -32}, {false, false, false, true}, {8, 32, 32}},
    {{4, 4, 1, 3}, {8, 0, 0, 32}, {false, false, false, true}, {8, 32, 32}},
    {{2, 2, 3, 4}, {-24, 0, 0, -48}, {false, false, false, true}, {8, 48, 16}},
    {{2, 4, 1}, {0, 32, 0}, {true, false, false}, {8, 8}},
    {{1, 4, 1, 2}, {16, -128, -8, -32}, {false, false, true, true}, {32, 8}},
    {{3, 4, 2}, {8, 48, -24}, {false, true, false}, {8, 24}},
    {{1, 2, 4}, {0, -32, 0}, {true, false, false}, {32, 8}},
    {{1, 2, 3, 2}, {-8, 96, -16, 192}, {false, true, false, false}, {48, 8, 24}},
    {{2, 4, 2}, {0, 0, 128}, {false, false, true}, {32, 8}},
    {{4, 3, 2, 2}, {8, 0, 128, -32}, {false, false, true, false}, {8, 64, 32}},
    {{3, 2, 3, 2}, {0, 0, 0, 0}, {false, false, true, true}, {16, 8}},
    {{3, 4, 2, 1}, {0, 96, 48, 0}, {true, false, false, false}, {16, 8, 8}},
    {{3, 2, 4, 4}, {0, 0, 0, 0}, {true, false, false, true}, {32, 8}},
};

TEST(Layout, ReductionResultsAreLaidOutAsNumPys) {
  for (const ReductionLayoutCase& c : kReductionCases) {
    const cuarray::LayoutOperand op{&c.shape, &c.strides};
    const Strides got = cuarray::reduction_strides(c.shape, c.reduced, &op, 1, 8);
    ASSERT_EQ(got.size(), c.numpy.size());
    for (std::size_t d = 0, j = 0; d < c.shape.size(); ++d) {
      if (c.reduced[d]) continue;
      if (c.shape[d] > 1) EXPECT_EQ(got[j], c.numpy[j]) << "axis " << d << " of case " << (&c - kReductionCases);
      ++j;
    }
  }
}

}  // namespace

TEST(KOrderAxes, BroadcastAxesKeepTheirCPlaces) {
  using Axes = std::vector<std::int64_t>;
  // broadcast_to(arange(3.), (2, 3)): the stride-0 axis orders against nothing and stays outermost.
  EXPECT_EQ(cuarray::k_order_axes({2, 3}, {0, 8}), (Axes{0, 1}));
  // a transposed (3, 4) array: axis 1 (stride 32) outermost; negative strides count by magnitude.
  EXPECT_EQ(cuarray::k_order_axes({3, 4}, {8, 24}), (Axes{1, 0}));
  EXPECT_EQ(cuarray::k_order_axes({3, 4}, {-8, 24}), (Axes{1, 0}));
  // (4, 2, 3) taken from a C-ordered (2, 3, 4) by transpose(2, 0, 1): back to the memory order.
  EXPECT_EQ(cuarray::k_order_axes({4, 2, 3}, {8, 96, 32}), (Axes{1, 2, 0}));
  EXPECT_EQ(cuarray::k_order_axes({}, {}), Axes{});
}
