// Views that never touch the device: ops::infer_shape / reshape_strides / reshape (view cases),
// transpose, swapaxes, squeeze, expand_dims, diagonal, broadcast_to and basic_index.
// Arrays are views of a Buffer with a null pointer, which never reaches the memory pool (Buffer::~Buffer
// releases only a non-null pointer), so no CUDA call is made. Expected shapes, strides and byte offsets
// come from NumPy 2.4 (float64 or float32 sources as noted). Like the Python suite's assert_strides_match,
// strides are compared on the axes longer than 1 only, and neither strides nor offset for empty results:
// nothing else affects addressing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/error.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/indexing.h"
#include "cuarray/ops/shape_ops.h"
#include "test_util.h"

namespace {

using cuarray::Array;
using cuarray::DType;
using cuarray::Shape;
using cuarray::Strides;
using cuarray::ops::IndexItem;
using ::testing::HasSubstr;

Array make_view(Shape shape, Strides strides, DType dtype = DType::Float64, std::int64_t offset = 0) {
  auto buffer = std::make_shared<cuarray::cuda::Buffer>(nullptr, 0, 0, nullptr, nullptr);
  return Array(std::move(buffer), offset, std::move(shape), std::move(strides), dtype);
}

// The strides that matter for addressing: those of axes longer than 1, none for an empty array.
Strides addressing(const Shape& shape, const Strides& strides) {
  Strides out;
  if (cuarray::size_of(shape) == 0) return out;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 1) out.push_back(strides[i]);
  return out;
}

// `r` is a view of `src`'s buffer with NumPy's shape, strides and byte offset (relative to `src`).
void expect_view(const Array& r, const Array& src, const Shape& shape, const Strides& strides, std::int64_t offset) {
  EXPECT_EQ(r.buffer(), src.buffer());
  EXPECT_EQ(r.dtype(), src.dtype());
  ASSERT_EQ(r.shape(), shape);
  ASSERT_EQ(r.strides().size(), shape.size());
  EXPECT_EQ(addressing(r.shape(), r.strides()), addressing(shape, strides))
      << "got strides " << cuarray::shape_str(r.strides()) << ", NumPy's " << cuarray::shape_str(strides);
  if (cuarray::size_of(shape) != 0) EXPECT_EQ(r.offset() - src.offset(), offset);
}

// np.zeros((2, 3, 4)) and friends.
Array c234() { return make_view({2, 3, 4}, {96, 32, 8}); }

// ---- infer_shape --------------------------------------------------------------------------------

TEST(InferShape, ResolvesMinusOne) {
  using cuarray::ops::infer_shape;
  EXPECT_EQ(infer_shape({-1, 4}, 24), (Shape{6, 4}));
  EXPECT_EQ(infer_shape({2, -1, 3}, 24), (Shape{2, 4, 3}));
  EXPECT_EQ(infer_shape({1, -1, 1}, 5), (Shape{1, 5, 1}));
  EXPECT_EQ(infer_shape({-1}, 0), (Shape{0}));
  EXPECT_EQ(infer_shape({-1}, 1), (Shape{1}));
  EXPECT_EQ(infer_shape({2, 3}, 6), (Shape{2, 3}));
  EXPECT_EQ(infer_shape({}, 1), (Shape{}));
  EXPECT_EQ(infer_shape({3, 0}, 0), (Shape{3, 0}));
  EXPECT_EQ(infer_shape({2, -5}, 6), (Shape{2, 3}));  // any negative length is the unknown one
  EXPECT_EQ(infer_shape({-7}, 1), (Shape{1}));
}

TEST(InferShape, Errors) {
  using cuarray::ops::infer_shape;
  EXPECT_EQ(message_of<cuarray::ValueError>([] {
              infer_shape({-1, -1}, 6);
            }),
            "can only specify one unknown dimension");
  EXPECT_EQ(message_of<cuarray::ValueError>([] {
              infer_shape({-1, -2}, 6);
            }),
            "can only specify one unknown dimension");
  EXPECT_EQ(message_of<cuarray::ValueError>([] { infer_shape({4}, 6); }),
            "cannot reshape array of size 6 into shape (4,)");
  EXPECT_THAT(message_of<cuarray::ValueError>([] {
                infer_shape({-1, 4}, 6);
              }),
              HasSubstr("cannot reshape array of size 6 into shape"));
  EXPECT_THROW(infer_shape({}, 2), cuarray::ValueError);
  EXPECT_THROW(infer_shape({0, -1}, 0), cuarray::ValueError);  // NumPy: the -1 is ambiguous
  EXPECT_THROW(infer_shape({2, 3}, 0), cuarray::ValueError);
}

TEST(InferShape, HugeDimensionsDoNotWrapAround) {
  // np.zeros(0).reshape(2**32, 2**32): "cannot reshape array of size 0 into shape (4294967296,4294967296)".
  // The product 2**64 must not wrap to 0 and match the size.
  const std::int64_t big = std::int64_t(1) << 32;
  EXPECT_THROW(cuarray::ops::infer_shape({big, big}, 0), cuarray::ValueError);
}

// ---- reshape_strides / reshape ------------------------------------------------------------------

struct ReshapeCase {
  const char* src;
  Shape shape;
  Strides strides;
  Shape target;
  char order;
  bool view;         // NumPy's reshape returned a view (np.shares_memory)
  Strides expected;  // its strides
};

// Generated with NumPy from float64 arrays:
//   c234 = zeros((2,3,4)), c234T = c234.T, f234 = asfortranarray(c234), c46_step2 = zeros((4,6))[:, ::2],
//   rev6 = zeros(6)[::-1], c213 = zeros((2,1,3)), c416_step = zeros((4,1,6))[:, :, ::2],
//   c34_rows = zeros((6,4))[::2].
const ReshapeCase kReshapeCases[] = {
    {"c234", {2, 3, 4}, {96, 32, 8}, {6, 4}, 'C', true, {32, 8}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {24}, 'C', true, {8}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {4, 6}, 'C', true, {48, 8}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {2, 12}, 'C', true, {96, 8}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {2, 3, 2, 2}, 'C', true, {96, 32, 16, 8}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {1, 24, 1}, 'C', true, {192, 8, 8}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {24}, 'F', false, {}},
    {"c234", {2, 3, 4}, {96, 32, 8}, {6, 4}, 'F', false, {}},
    {"c234T", {4, 3, 2}, {8, 32, 96}, {24}, 'C', false, {}},
    {"c234T", {4, 3, 2}, {8, 32, 96}, {24}, 'F', true, {8}},
    {"c234T", {4, 3, 2}, {8, 32, 96}, {4, 6}, 'C', false, {}},
    {"c234T", {4, 3, 2}, {8, 32, 96}, {12, 2}, 'C', false, {}},
    {"c234T", {4, 3, 2}, {8, 32, 96}, {4, 3, 2, 1}, 'C', true, {8, 32, 96, 96}},
    {"c234T", {4, 3, 2}, {8, 32, 96}, {2, 6, 2}, 'F', true, {8, 16, 96}},
    {"f234", {2, 3, 4}, {8, 16, 48}, {6, 4}, 'F', true, {8, 48}},
    {"f234", {2, 3, 4}, {8, 16, 48}, {24}, 'F', true, {8}},
    {"f234", {2, 3, 4}, {8, 16, 48}, {2, 12}, 'F', true, {8, 16}},
    {"f234", {2, 3, 4}, {8, 16, 48}, {24}, 'C', false, {}},
    {"f234", {2, 3, 4}, {8, 16, 48}, {2, 3, 2, 2}, 'F', true, {8, 16, 48, 96}},
    {"c46_step2", {4, 3}, {48, 16}, {12}, 'C', true, {16}},
    {"c46_step2", {4, 3}, {48, 16}, {2, 2, 3}, 'C', true, {96, 48, 16}},
    {"c46_step2", {4, 3}, {48, 16}, {4, 3, 1}, 'C', true, {48, 16, 16}},
    {"c46_step2", {4, 3}, {48, 16}, {2, 6}, 'C', true, {96, 16}},
    {"c46_step2", {4, 3}, {48, 16}, {12}, 'F', false, {}},
    {"rev6", {6}, {-8}, {2, 3}, 'C', true, {-24, -8}},
    {"rev6", {6}, {-8}, {3, 2}, 'F', true, {-8, -24}},
    {"rev6", {6}, {-8}, {6, 1}, 'C', true, {-8, -8}},
    {"rev6", {6}, {-8}, {1, 6}, 'F', true, {-8, -8}},
    {"c213", {2, 1, 3}, {24, 24, 8}, {6}, 'C', true, {8}},
    {"c213", {2, 1, 3}, {24, 24, 8}, {3, 2}, 'C', true, {16, 8}},
    {"c213", {2, 1, 3}, {24, 24, 8}, {6}, 'F', false, {}},
    {"c213", {2, 1, 3}, {24, 24, 8}, {2, 3, 1}, 'F', true, {24, 8, 24}},
    {"c416_step", {4, 1, 3}, {48, 48, 16}, {12}, 'C', true, {16}},
    {"c416_step", {4, 1, 3}, {48, 48, 16}, {4, 3}, 'C', true, {48, 16}},
    {"c416_step", {4, 1, 3}, {48, 48, 16}, {2, 2, 3}, 'C', true, {96, 48, 16}},
    {"c416_step", {4, 1, 3}, {48, 48, 16}, {4, 1, 3, 1}, 'C', true, {48, 48, 16, 16}},
    {"c416_step", {4, 1, 3}, {48, 48, 16}, {12}, 'F', false, {}},
    {"c34_rows", {3, 4}, {64, 8}, {12}, 'C', false, {}},
    {"c34_rows", {3, 4}, {64, 8}, {3, 2, 2}, 'C', true, {64, 16, 8}},
    {"c34_rows", {3, 4}, {64, 8}, {3, 4, 1}, 'C', true, {64, 8, 8}},
    {"c34_rows", {3, 4}, {64, 8}, {12}, 'F', false, {}},
    {"c34_rows", {3, 4}, {64, 8}, {4, 3}, 'F', false, {}},
};

TEST(ReshapeStrides, ViewOrCopyAsNumPy) {
  for (const auto& c : kReshapeCases) {
    SCOPED_TRACE(std::string(c.src) + " -> " + cuarray::shape_str(c.target) + " order " + c.order);
    Array a = make_view(c.shape, c.strides);
    std::optional<Strides> s = cuarray::ops::reshape_strides(a, c.target, c.order);
    ASSERT_EQ(s.has_value(), c.view);
    if (s) {
      ASSERT_EQ(s->size(), c.target.size());
      EXPECT_EQ(addressing(c.target, *s), addressing(c.target, c.expected))
          << "got " << cuarray::shape_str(*s) << ", NumPy's " << cuarray::shape_str(c.expected);
    }
  }
}

TEST(ReshapeStrides, EmptyAndSingleElementArraysAlwaysView) {
  // np.zeros((0, 6))[:, ::2].reshape(3, 0) and a size-1 array with arbitrary strides.
  Array empty = make_view({0, 3}, {48, 16});
  EXPECT_TRUE(cuarray::ops::reshape_strides(empty, {3, 0}, 'C').has_value());
  EXPECT_TRUE(cuarray::ops::reshape_strides(empty, {0}, 'F').has_value());
  Array one = make_view({1, 1}, {1000, -24});
  std::optional<Strides> s = cuarray::ops::reshape_strides(one, {1, 1, 1}, 'C');
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->size(), 3u);
}

TEST(ReshapeStrides, EmptyArraysAreLaidOutAsIfEachZeroWereOne) {
  // np.zeros((2, 0, 3)).reshape((5, 0, 4), order=o).strides: (32, 32, 8) in C order, (8, 40, 40) in F.
  Array empty = make_view({2, 0, 3}, {0, 0, 0});
  EXPECT_EQ(*cuarray::ops::reshape_strides(empty, {5, 0, 4}, 'C'), (Strides{32, 32, 8}));
  EXPECT_EQ(*cuarray::ops::reshape_strides(empty, {5, 0, 4}, 'F'), (Strides{8, 40, 40}));
}

TEST(Reshape, ViewCasesShareTheBuffer) {
  Array a = c234();
  expect_view(cuarray::ops::reshape(a, {-1, 4}), a, {6, 4}, {32, 8}, 0);
  expect_view(cuarray::ops::reshape(a, {2, 12}), a, {2, 12}, {96, 8}, 0);
  Array t = make_view({4, 3, 2}, {8, 32, 96}, DType::Float64, 40);  // c234.T
  expect_view(cuarray::ops::reshape(t, {24}, 'F'), t, {24}, {8}, 0);
  expect_view(cuarray::ops::reshape(t, {4, 3, 2}), t, {4, 3, 2}, {8, 32, 96}, 0);  // same shape
  Array f = make_view({2, 3, 4}, {8, 16, 48});
  expect_view(cuarray::ops::reshape(f, {6, -1}, 'F'), f, {6, 4}, {8, 48}, 0);
  EXPECT_TRUE(cuarray::ops::reshape(f, {6, -1}, 'F').f_contiguous());
  EXPECT_THROW(cuarray::ops::reshape(a, {5, -1}), cuarray::ValueError);
}

// ---- transpose / swapaxes ---------------------------------------------------------------------

TEST(Transpose, Strides) {
  Array a = c234();
  expect_view(cuarray::ops::transpose(a), a, {4, 3, 2}, {8, 32, 96}, 0);
  expect_view(cuarray::ops::transpose(a, {1, 0, 2}), a, {3, 2, 4}, {32, 96, 8}, 0);
  expect_view(cuarray::ops::transpose(a, {-1, 0, 1}), a, {4, 2, 3}, {8, 96, 32}, 0);
  EXPECT_TRUE(cuarray::ops::transpose(a).f_contiguous());
  EXPECT_FALSE(cuarray::ops::transpose(a).c_contiguous());
  Array s = make_view({}, {});
  expect_view(cuarray::ops::transpose(s), s, {}, {}, 0);
}

TEST(Transpose, Errors) {
  Array a = make_view({2, 3}, {24, 8});
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::transpose(a, {0}); }), "axes don't match array");
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::transpose(a, {0, 0}); }), "repeated axis in transpose");
  EXPECT_EQ(message_of<cuarray::ValueError>([&] {
              cuarray::ops::transpose(a, {1, -1});
            }),
            "repeated axis in transpose");
  EXPECT_EQ(message_of<cuarray::AxisError>([&] {
              cuarray::ops::transpose(a, {0, 2});
            }),
            "axis 2 is out of bounds for array of dimension 2");
}

TEST(SwapAxes, Strides) {
  Array a = c234();
  expect_view(cuarray::ops::swapaxes(a, 0, -1), a, {4, 3, 2}, {8, 32, 96}, 0);
  expect_view(cuarray::ops::swapaxes(a, 1, 1), a, {2, 3, 4}, {96, 32, 8}, 0);
}

TEST(SwapAxes, Errors) {
  Array a = make_view({2, 3}, {24, 8});
  EXPECT_THAT(message_of<cuarray::AxisError>([&] { cuarray::ops::swapaxes(a, 0, -3); }),
              HasSubstr("axis -3 is out of bounds for array of dimension 2"));
}

// ---- squeeze / expand_dims ----------------------------------------------------------------------

using Axes = std::vector<std::int64_t>;

TEST(Squeeze, DropsLengthOneAxes) {
  Array b = make_view({1, 3, 1, 2}, {48, 16, 16, 8});  // np.zeros((1, 3, 1, 2))
  expect_view(cuarray::ops::squeeze(b), b, {3, 2}, {16, 8}, 0);
  expect_view(cuarray::ops::squeeze(b, Axes{-2}), b, {1, 3, 2}, {48, 16, 8}, 0);
  expect_view(cuarray::ops::squeeze(b, Axes{0}), b, {3, 1, 2}, {16, 16, 8}, 0);
  expect_view(cuarray::ops::squeeze(b, Axes{2, 0}), b, {3, 2}, {16, 8}, 0);
}

TEST(Squeeze, Errors) {
  Array a = make_view({2, 1}, {8, 8});
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::squeeze(a, Axes{0}); }),
            "cannot select an axis to squeeze out which has size not equal to one");
  EXPECT_EQ(message_of<cuarray::AxisError>([&] { cuarray::ops::squeeze(a, Axes{2}); }),
            "axis 2 is out of bounds for array of dimension 2");
}

TEST(Squeeze, RepeatedAxisIsValueError) {
  // np.squeeze(np.ones((1, 3)), axis=(0, 0)): ValueError "duplicate value in 'axis'".
  Array a = make_view({1, 3}, {24, 8});
  EXPECT_THROW(cuarray::ops::squeeze(a, Axes{0, 0}), cuarray::ValueError);
  EXPECT_THROW(cuarray::ops::squeeze(a, Axes{0, -2}), cuarray::ValueError);
}

TEST(ExpandDims, InsertsAxes) {
  Array c = make_view({2, 3}, {24, 8});
  expect_view(cuarray::ops::expand_dims(c, {0, -1}), c, {1, 2, 3, 1}, {48, 24, 8, 8}, 0);
  expect_view(cuarray::ops::expand_dims(c, {1}), c, {2, 1, 3}, {24, 24, 8}, 0);
  expect_view(cuarray::ops::expand_dims(c, {2}), c, {2, 3, 1}, {24, 8, 8}, 0);
  EXPECT_TRUE(cuarray::ops::expand_dims(c, {1}).c_contiguous());
}

TEST(ExpandDims, Errors) {
  Array c = make_view({2, 3}, {24, 8});
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::expand_dims(c, {0, 0}); }), "repeated axis");
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::expand_dims(c, {0, -4}); }), "repeated axis");
  EXPECT_EQ(message_of<cuarray::AxisError>([&] { cuarray::ops::expand_dims(c, {3}); }),
            "axis 3 is out of bounds for array of dimension 3");
}

// ---- diagonal -----------------------------------------------------------------------------------

TEST(Diagonal, OffsetsAndAxes) {
  Array d = make_view({4, 5}, {20, 4}, DType::Float32);  // np.zeros((4, 5), np.float32)
  expect_view(cuarray::ops::diagonal(d, 0, 0, 1), d, {4}, {24}, 0);
  expect_view(cuarray::ops::diagonal(d, 1, 0, 1), d, {4}, {24}, 4);
  expect_view(cuarray::ops::diagonal(d, -2, 0, 1), d, {2}, {24}, 40);
  expect_view(cuarray::ops::diagonal(d, 4, 0, 1), d, {1}, {24}, 16);
  expect_view(cuarray::ops::diagonal(d, 7, 0, 1), d, {0}, {24}, 0);
  expect_view(cuarray::ops::diagonal(d, -9, 0, 1), d, {0}, {24}, 0);
  Array e = make_view({3, 4, 5}, {80, 20, 4}, DType::Float32);
  expect_view(cuarray::ops::diagonal(e, 0, 0, 1), e, {5, 3}, {4, 100}, 0);
  expect_view(cuarray::ops::diagonal(e, 0, 1, 2), e, {3, 4}, {80, 24}, 0);
  expect_view(cuarray::ops::diagonal(e, 1, 0, 2), e, {4, 3}, {20, 84}, 4);
  expect_view(cuarray::ops::diagonal(e, -1, 2, 0), e, {4, 3}, {20, 84}, 4);
  // Reversed rows: np.zeros((4, 5), np.float32)[::-1].
  Array r = make_view({4, 5}, {-20, 4}, DType::Float32, 60);
  expect_view(cuarray::ops::diagonal(r, 0, 0, 1), r, {4}, {-16}, 0);
  expect_view(cuarray::ops::diagonal(r, 1, 0, 1), r, {4}, {-16}, 4);
  expect_view(cuarray::ops::diagonal(r, -2, 0, 1), r, {2}, {-16}, -40);
}

TEST(Diagonal, Errors) {
  EXPECT_EQ(message_of<cuarray::ValueError>([] { cuarray::ops::diagonal(make_view({3}, {8}), 0, 0, 1); }),
            "diag requires an array of at least two dimensions");
  Array a = make_view({2, 3}, {24, 8});
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::diagonal(a, 0, 1, -1); }),
            "axis1 and axis2 cannot be the same");
  EXPECT_THAT(message_of<cuarray::AxisError>([&] { cuarray::ops::diagonal(a, 0, 0, 2); }),
              HasSubstr("axis 2 is out of bounds for array of dimension 2"));
}

// ---- broadcast_to -------------------------------------------------------------------------------

TEST(BroadcastTo, ZeroStridesOnNewAndStretchedAxes) {
  Array f = make_view({3}, {8});
  expect_view(cuarray::ops::broadcast_to(f, {4, 2, 3}), f, {4, 2, 3}, {0, 0, 8}, 0);
  Array g = make_view({3, 1}, {8, 8});
  expect_view(cuarray::ops::broadcast_to(g, {3, 4}), g, {3, 4}, {8, 0}, 0);
  Array h = make_view({}, {});
  expect_view(cuarray::ops::broadcast_to(h, {2, 2}), h, {2, 2}, {0, 0}, 0);
  expect_view(cuarray::ops::broadcast_to(h, {}), h, {}, {}, 0);
  Array i = make_view({1}, {8});
  expect_view(cuarray::ops::broadcast_to(i, {0}), i, {0}, {0}, 0);
  // np.zeros((4, 3), np.int64)[::-1, ::-1][:, :1] -> (4, 5).
  Array j = make_view({4, 1}, {-24, -8}, DType::Int64, 88);
  expect_view(cuarray::ops::broadcast_to(j, {4, 5}), j, {4, 5}, {-24, 0}, 0);
  EXPECT_FALSE(cuarray::ops::broadcast_to(f, {4, 3}).c_contiguous());
}

TEST(BroadcastTo, Errors) {
  Array f = make_view({3}, {8});
  EXPECT_EQ(message_of<cuarray::ValueError>([&] {
              cuarray::ops::broadcast_to(f, {-1, 3});
            }),
            "all elements of broadcast shape must be non-negative");
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::broadcast_to(f, {}); }),
            "cannot broadcast a non-scalar to a scalar array");
  std::string m = message_of<cuarray::ValueError>([&] { cuarray::ops::broadcast_to(f, {4}); });
  EXPECT_THAT(m, HasSubstr("operands could not be broadcast together with remapped shapes"));
  EXPECT_THAT(m, HasSubstr("(3,)"));
  EXPECT_THAT(m, HasSubstr("requested shape (4,)"));
  EXPECT_THROW(cuarray::ops::broadcast_to(make_view({2, 3}, {24, 8}), {3, 3}), cuarray::ValueError);
}

// ---- basic_index --------------------------------------------------------------------------------

const std::optional<std::int64_t> none;

IndexItem Int(std::int64_t i) { return {IndexItem::Integer, i, 0, 1}; }
IndexItem NewAxis() { return {IndexItem::NewAxis}; }
IndexItem Ell() { return {IndexItem::Ellipsis}; }
// A Python slice as PySlice_Unpack hands it over: omitted bounds become INT64_MIN/INT64_MAX.
IndexItem Sl(std::optional<std::int64_t> start, std::optional<std::int64_t> stop, std::optional<std::int64_t> step) {
  IndexItem it{IndexItem::Slice};
  it.step = step.value_or(1);
  it.start = start ? *start : (it.step < 0 ? std::numeric_limits<std::int64_t>::max() : 0);
  it.stop = stop ? *stop
                 : (it.step < 0 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max());
  return it;
}

struct IndexCase {
  const char* src;
  Shape shape;
  Strides strides;
  std::vector<IndexItem> items;
  Shape expected_shape;
  Strides expected_strides;
  std::int64_t offset;  // bytes from the source's start
};

// Generated with NumPy: c345 = zeros((3, 4, 5), float32), rev345 = c345[::-1, :, ::-1]; an index of
// integers only is taken as a[idx + (...,)] to get a 0-d view.
const IndexCase kIndexCases[] = {
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(1)}, {4, 5}, {20, 4}, 80},                       // (1,)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(-1)}, {4, 5}, {20, 4}, 160},                     // (-1,)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(1), Int(2)}, {5}, {4}, 120},                     // (1, 2)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(1), Int(2), Int(3)}, {}, {}, 132},               // (1, 2, 3)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(-3), Int(-4), Int(-5)}, {}, {}, 0},              // (-3, -4, -5)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Sl(none, none, -1)}, {3, 4, 5}, {-80, 20, 4}, 160},  // (s(None, None, -1),)
    {"c345",
     {3, 4, 5},
     {80, 20, 4},
     {Sl(none, none, 2), Sl(1, 3, none)},
     {2, 2, 5},
     {160, 20, 4},
     20},  // (s(None, None, 2), s(1, 3, None))
    {"c345",
     {3, 4, 5},
     {80, 20, 4},
     {Sl(-2, none, none), Sl(none, -1, none), Sl(none, none, -2)},
     {2, 3, 3},
     {80, 20, -8},
     96},  // (s(-2, None, None), s(None, -1, None), s(None, None, -2))
    {"c345", {3, 4, 5}, {80, 20, 4}, {Sl(-100, 100, none)}, {3, 4, 5}, {80, 20, 4}, 0},   // (s(-100, 100, None),)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Sl(100, none, -1)}, {3, 4, 5}, {-80, 20, 4}, 160},  // (s(100, None, -1),)
    {"c345",
     {3, 4, 5},
     {80, 20, 4},
     {Sl(1, 100, 3), Sl(-100, 2, none)},
     {1, 2, 5},
     {240, 20, 4},
     80},  // (s(1, 100, 3), s(-100, 2, None))
    {"c345",
     {3, 4, 5},
     {80, 20, 4},
     {Sl(2, 0, -1), Sl(3, none, -2)},
     {2, 2, 5},
     {-80, -40, 4},
     220},                                                                           // (s(2, 0, -1), s(3, None, -2))
    {"c345", {3, 4, 5}, {80, 20, 4}, {Sl(2, 2, none)}, {0, 4, 5}, {80, 20, 4}, 0},   // (s(2, 2, None),)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Sl(3, 1, none)}, {0, 4, 5}, {80, 20, 4}, 0},   // (s(3, 1, None),)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Ell(), Int(1)}, {3, 4}, {80, 20}, 4},          // (Ellipsis, 1)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(1), Ell()}, {4, 5}, {20, 4}, 80},          // (1, Ellipsis)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Ell()}, {3, 4, 5}, {80, 20, 4}, 0},            // (Ellipsis,)
    {"c345", {3, 4, 5}, {80, 20, 4}, {NewAxis()}, {1, 3, 4, 5}, {0, 80, 20, 4}, 0},  // (None,)
    {"c345",
     {3, 4, 5},
     {80, 20, 4},
     {NewAxis(), Int(1), NewAxis(), Ell(), NewAxis()},
     {1, 1, 4, 5, 1},
     {0, 0, 20, 4, 0},
     80},  // (None, 1, None, Ellipsis, None)
    {"c345",
     {3, 4, 5},
     {80, 20, 4},
     {Sl(none, none, none), NewAxis(), Int(2)},
     {3, 1, 5},
     {80, 0, 4},
     40},  // (s(None, None, None), None, 2)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Ell(), NewAxis()}, {3, 4, 5, 1}, {80, 20, 4, 0}, 0},        // (Ellipsis, None)
    {"c345", {3, 4, 5}, {80, 20, 4}, {Int(1), Ell(), Int(2), Int(3)}, {}, {}, 132},               // (1, Ellipsis, 2, 3)
    {"c345", {3, 4, 5}, {80, 20, 4}, {}, {3, 4, 5}, {80, 20, 4}, 0},                              // ()
    {"c345", {3, 4, 5}, {80, 20, 4}, {Ell(), Sl(none, none, -3)}, {3, 4, 2}, {80, 20, -12}, 16},  // (Ellipsis, s(None,
                                                                                                  // None, -3))
    {"c345", {3, 4, 5}, {80, 20, 4}, {Sl(0, 0, -1)}, {0, 4, 5}, {80, 20, 4}, 0},                  // (s(0, 0, -1),)
    {"rev345", {3, 4, 5}, {-80, 20, -4}, {Int(0)}, {4, 5}, {20, -4}, 0},                          // (0,)
    {"rev345", {3, 4, 5}, {-80, 20, -4}, {Int(0), Int(0), Int(0)}, {}, {}, 0},                    // (0, 0, 0)
    {"rev345",
     {3, 4, 5},
     {-80, 20, -4},
     {Sl(none, none, -1), Sl(1, none, 2), Int(1)},
     {3, 2},
     {80, 40},
     -144},  // (s(None, None, -1), s(1, None, 2), 1)
    {"rev345", {3, 4, 5}, {-80, 20, -4}, {Ell(), Int(-1)}, {3, 4}, {-80, 20}, -16},  // (Ellipsis, -1)
    {"rev345",
     {3, 4, 5},
     {-80, 20, -4},
     {Sl(1, none, none), NewAxis(), Sl(none, none, -2)},
     {2, 1, 2, 5},
     {-80, 0, -40, -4},
     -20},  // (s(1, None, None), None, s(None, None, -2))
};

TEST(BasicIndex, ViewsAsNumPy) {
  for (const auto& c : kIndexCases) {
    SCOPED_TRACE(c.src);
    // rev345 starts at the last row and column of the same memory.
    std::int64_t base = std::string(c.src) == "rev345" ? 176 : 0;
    Array a = make_view(c.shape, c.strides, DType::Float32, base);
    expect_view(cuarray::ops::basic_index(a, c.items), a, c.expected_shape, c.expected_strides, c.offset);
  }
}

TEST(BasicIndex, ContiguityOfResults) {
  Array a = make_view({3, 4, 5}, {80, 20, 4}, DType::Float32);
  EXPECT_TRUE(cuarray::ops::basic_index(a, {Int(1)}).c_contiguous());
  EXPECT_FALSE(cuarray::ops::basic_index(a, {Sl(none, none, 2)}).c_contiguous());
  Array row = cuarray::ops::basic_index(a, {Int(0), Int(0)});  // shape (5,), stride 4
  EXPECT_TRUE(row.c_contiguous());
  EXPECT_TRUE(row.f_contiguous());
  Array col = cuarray::ops::basic_index(a, {Ell(), Int(0)});  // shape (3, 4), strides (80, 20)
  EXPECT_FALSE(col.c_contiguous());
  EXPECT_FALSE(col.f_contiguous());
}

TEST(BasicIndex, IntegerOutOfRange) {
  Array v = make_view({3}, {8});
  EXPECT_EQ(message_of<cuarray::IndexError>([&] { cuarray::ops::basic_index(v, {Int(5)}); }),
            "index 5 is out of bounds for axis 0 with size 3");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] { cuarray::ops::basic_index(v, {Int(3)}); }),
            "index 3 is out of bounds for axis 0 with size 3");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] { cuarray::ops::basic_index(v, {Int(-4)}); }),
            "index -4 is out of bounds for axis 0 with size 3");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] {
              cuarray::ops::basic_index(v, {NewAxis(), Int(5)});
            }),
            "index 5 is out of bounds for axis 0 with size 3");
  Array m = make_view({2, 3}, {24, 8});
  EXPECT_EQ(message_of<cuarray::IndexError>([&] {
              cuarray::ops::basic_index(m, {Int(0), Int(5)});
            }),
            "index 5 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] {
              cuarray::ops::basic_index(m, {Ell(), Int(-4)});
            }),
            "index -4 is out of bounds for axis 1 with size 3");
  Array e = make_view({0}, {8});
  EXPECT_EQ(message_of<cuarray::IndexError>([&] { cuarray::ops::basic_index(e, {Int(0)}); }),
            "index 0 is out of bounds for axis 0 with size 0");
}

TEST(BasicIndex, TooManyIndicesAndEllipses) {
  Array v = make_view({3}, {8});
  EXPECT_EQ(message_of<cuarray::IndexError>([&] {
              cuarray::ops::basic_index(v, {Int(1), Int(2)});
            }),
            "too many indices for array: array is 1-dimensional, but 2 were indexed");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] {
              cuarray::ops::basic_index(v, {Sl(none, none, none), Int(0)});
            }),
            "too many indices for array: array is 1-dimensional, but 2 were indexed");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] { cuarray::ops::basic_index(make_view({}, {}), {Int(0)}); }),
            "too many indices for array: array is 0-dimensional, but 1 were indexed");
  EXPECT_EQ(message_of<cuarray::IndexError>([&] {
              cuarray::ops::basic_index(v, {Ell(), Ell()});
            }),
            "an index can only have a single ellipsis ('...')");
  // newaxis and ellipsis consume nothing.
  Array r = cuarray::ops::basic_index(v, {NewAxis(), Ell(), NewAxis(), Int(1), NewAxis()});
  EXPECT_EQ(r.shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(r.offset(), 8);
}

TEST(BasicIndex, ZeroStepIsValueError) {
  Array v = make_view({3}, {8});
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::basic_index(v, {Sl(none, none, 0)}); }),
            "slice step cannot be zero");
}

// ---- Array::from_memory (the ndarray(shape, dtype, memptr, strides) constructor) -----------------

std::shared_ptr<cuarray::cuda::Buffer> fake_buffer(std::size_t nbytes) {
  return std::make_shared<cuarray::cuda::Buffer>(nullptr, nbytes, 0, nullptr, nullptr);
}

Array from_memory(std::size_t nbytes, std::int64_t offset, Shape shape, std::optional<Strides> strides,
                  DType dtype = DType::Float64) {
  return Array::from_memory(fake_buffer(nbytes), offset, std::move(shape), std::move(strides), dtype,
                            cuarray::Order::C);
}

TEST(FromMemory, ViewsTheBufferWithTheGivenStrides) {
  Array a = from_memory(96, 0, {3, 4}, Strides{32, 8});
  EXPECT_EQ(a.strides(), (Strides{32, 8}));
  EXPECT_TRUE(a.c_contiguous());
  Array b = from_memory(96, 88, {12}, Strides{-8});  // the last element backwards to the first
  EXPECT_EQ(b.offset(), 88);
  Array c = from_memory(96, 8, {2, 2}, std::nullopt);  // C strides, 32 bytes from byte 8
  EXPECT_EQ(c.strides(), (Strides{16, 8}));
  Array d = from_memory(8, 0, {5, 3}, Strides{0, 0});  // broadcast: every element is the first
  EXPECT_EQ(d.size(), 15);
  Array e = from_memory(0, 0, {0, 3}, Strides{24, 8});  // nothing to address
  EXPECT_EQ(e.size(), 0);
}

TEST(FromMemory, ElementsOutsideTheBufferAreValueError) {
  const std::string incompatible = "strides is incompatible with shape of requested array and size of buffer";
  EXPECT_EQ(message_of<cuarray::ValueError>([] { from_memory(96, 0, {13}, Strides{8}); }), incompatible);
  EXPECT_EQ(message_of<cuarray::ValueError>([] { from_memory(96, 0, {3}, Strides{-8}); }), incompatible);
  EXPECT_EQ(message_of<cuarray::ValueError>([] { from_memory(96, 8, {12}, std::nullopt); }), incompatible);
  EXPECT_EQ(message_of<cuarray::ValueError>([] { from_memory(96, -8, {2}, std::nullopt); }), incompatible);
  EXPECT_THROW(from_memory(96, 0, {2, 2}, Strides{8, 96}), cuarray::ValueError);
}

TEST(FromMemory, MisalignedStridesOrAddressAreValueError) {
  EXPECT_THAT(message_of<cuarray::ValueError>([] { from_memory(96, 0, {3}, Strides{12}); }),
              HasSubstr("multiples of the itemsize (8 bytes)"));
  EXPECT_THROW(from_memory(96, 0, {3, 2}, Strides{-4, 8}), cuarray::ValueError);
  EXPECT_THAT(message_of<cuarray::ValueError>([] { from_memory(96, 4, {2}, std::nullopt); }), HasSubstr("not aligned"));
  EXPECT_NO_THROW(from_memory(96, 4, {2}, Strides{4}, DType::Float32));
}

TEST(FromMemory, BadShapesAndStrideCountsAreValueError) {
  EXPECT_EQ(message_of<cuarray::ValueError>([] {
              from_memory(96, 0, {3}, Strides{8, 8});
            }),
            "strides, if given, must be the same length as shape");
  EXPECT_EQ(message_of<cuarray::ValueError>([] { from_memory(96, 0, {-1}, std::nullopt); }),
            "negative dimensions are not allowed");
  std::int64_t big = std::int64_t(1) << 40;
  EXPECT_THAT(message_of<cuarray::ValueError>([&] {
                from_memory(96, 0, {big, big}, std::nullopt);
              }),
              HasSubstr("array is too big"));
  EXPECT_THAT(message_of<cuarray::ValueError>([] { from_memory(96, 0, {3}, Strides{std::int64_t(1) << 62}); }),
              HasSubstr("array is too big"));
}

TEST(FromMemory, NewMemoryWithNegativeStridesIsValueErrorBeforeAllocating) {
  // No buffer: one would be allocated, which needs a device; the checks come first.
  EXPECT_THROW(Array::from_memory(nullptr, 0, {3}, Strides{-8}, DType::Float64, cuarray::Order::C),
               cuarray::ValueError);
  EXPECT_THROW(Array::from_memory(nullptr, 0, {3}, Strides{6}, DType::Float64, cuarray::Order::C), cuarray::ValueError);
}

TEST(MaxDims, SixtyFourDimensionsAndNoMore) {
  // NumPy's limit and messages: np.ones((1,) * 65), and np.ones((1,) * 64)[..., None].
  Shape ones(64, 1);
  Array a = make_view(ones, Strides(64, 8));
  EXPECT_EQ(a.ndim(), 64);
  EXPECT_EQ(message_of<cuarray::ValueError>([] { make_view(Shape(65, 1), Strides(65, 8)); }),
            "maximum supported dimension for an ndarray is currently 64, found 65");
  EXPECT_EQ(message_of<cuarray::ValueError>([] { Array(Shape(65, 1), DType::Float64); }),
            "maximum supported dimension for an ndarray is currently 64, found 65");
  std::vector<IndexItem> items{IndexItem{IndexItem::Ellipsis}, IndexItem{IndexItem::NewAxis}};
  EXPECT_EQ(message_of<cuarray::IndexError>([&] { cuarray::ops::basic_index(a, items); }),
            "number of dimensions must be within [0, 64], indexing result would have 65");
  EXPECT_THROW(cuarray::ops::expand_dims(a, {0}), cuarray::ValueError);
  EXPECT_THROW(cuarray::ops::broadcast_to(a, Shape(65, 1)), cuarray::ValueError);
}

}  // namespace

// Note [Void storage]: a Void array's itemsize and descr are its own, kept by every view; as_units sees its bytes
// as units with one more axis. Addresses are those of a null buffer, so the unit follows the offset too.
TEST(VoidViews, ViewsKeepTheItemsizeAndDescr) {
  Array v = make_view({4, 3}, {36, 12}, DType::UInt8).view_void(12, 7);
  EXPECT_EQ(v.dtype(), DType::Void);
  EXPECT_EQ(v.itemsize(), 12);
  EXPECT_EQ(v.descr(), 7);
  EXPECT_EQ(v.nbytes(), 144);
  EXPECT_TRUE(v.c_contiguous());
  for (const Array& r : {cuarray::ops::transpose(v), v.view({3}, {12}, 36),
                         cuarray::ops::basic_index(v, {IndexItem{IndexItem::Integer, 1}})}) {
    EXPECT_EQ(r.dtype(), DType::Void);
    EXPECT_EQ(r.itemsize(), 12);
    EXPECT_EQ(r.descr(), 7);
  }
  EXPECT_TRUE(cuarray::ops::transpose(v).f_contiguous());
  // A field: another type at an offset, not contiguous.
  Array f = v.view(v.shape(), v.strides(), 4).view(DType::Int32);
  EXPECT_EQ(f.itemsize(), 4);
  EXPECT_EQ(f.descr(), 0);
  EXPECT_FALSE(f.c_contiguous());
  EXPECT_FALSE(f.f_contiguous());
}

TEST(VoidViews, UnitsAddOneAxis) {
  Array v = make_view({4, 3}, {48, 16}, DType::UInt8).view_void(16, 1);
  EXPECT_EQ(cuarray::ops::widest_unit(v), 8);
  Array u = cuarray::ops::as_units(v, 8);
  EXPECT_EQ(u.dtype(), DType::UInt64);
  EXPECT_EQ(u.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(u.strides(), (Strides{48, 16, 8}));
  EXPECT_TRUE(u.c_contiguous());
  // An odd offset or stride narrows the unit; a broadcast axis (stride 0) does not.
  EXPECT_EQ(cuarray::ops::widest_unit(v.view({4}, {12}, 4).view_void(12, 1)), 4);
  EXPECT_EQ(cuarray::ops::widest_unit(v.view({4, 3}, {0, 16}, 2)), 2);
  EXPECT_EQ(cuarray::ops::widest_unit(v.view({4}, {9}).view_void(9, 1)), 1);
  Array b = cuarray::ops::as_units(v.view({4}, {9}).view_void(9, 1), 1);
  EXPECT_EQ(b.shape(), (Shape{4, 9}));
  EXPECT_EQ(b.strides(), (Strides{9, 1}));
}

TEST(VoidViews, AVoidArrayOfUnknownItemsizeIsRefused) {
  // Array(shape, DType::Void) cannot know the itemsize: a TypeError, never a division by zero.
  EXPECT_THROW(Array(Shape{3}, DType::Void), cuarray::TypeError);
  EXPECT_THROW(Array::of_void(Shape{3}, 0, 1), cuarray::TypeError);
}
