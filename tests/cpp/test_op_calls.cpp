// Host-only decisions of the core's calls that the bindings hand their converted arguments to: a ufunc call's
// argument count (ops/ufunc_call.h), the range and sign of Python ints (Note [Out-of-range comparisons]),
// NumPy's ndarray `**` shortcuts, a reduction's axes of a 0-d array (Note [Axes of 0-d arrays]) and a fused
// function's call signatures. Expected values follow NumPy 2.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include "cuarray/cuda/memory_pool.h"
#include "cuarray/error.h"
#include "cuarray/ops/fusion.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/reduction.h"
#include "cuarray/ops/ufunc_call.h"
#include "test_util.h"

namespace {

using cuarray::Array;
using cuarray::DType;
using cuarray::Shape;
using cuarray::ops::Scalar;

// A view of no memory: the builders look at shapes and dtypes only.
Array fake(Shape shape, DType dtype) {
  auto buffer = std::make_shared<cuarray::cuda::Buffer>(nullptr, 0, 0, nullptr, nullptr);
  cuarray::Strides strides(shape.size(), 0);
  return Array(std::move(buffer), 0, std::move(shape), std::move(strides), dtype);
}

Scalar python_int(Scalar::Tag tag, std::int64_t i, std::uint64_t u = 0) {
  Scalar s;
  s.tag = tag;
  s.i = i;
  s.u = u;
  return s;
}

TEST(UfuncCallTest, ArgumentCountIsPythonsTypeError) {
  const int add = cuarray::ops::ufunc_index("add"), negative = cuarray::ops::ufunc_index("negative");
  EXPECT_EQ(message_of<cuarray::TypeError>([&] { cuarray::ops::UfuncCall(add, 1); }),
            "add() takes 2 positional input arguments but 1 were given");
  EXPECT_EQ(message_of<cuarray::TypeError>([&] { cuarray::ops::UfuncCall(negative, 2); }),
            "negative() takes 1 positional input argument but 2 were given");
  cuarray::ops::UfuncCall ok(add, 2);
  EXPECT_STREQ(ok.name(), "add");
  EXPECT_EQ(ok.nout(), 1);
}

TEST(PythonIntTest, RangeOfEachIntegerType) {
  using Tag = Scalar::Tag;
  const Scalar small = python_int(Tag::Int, 300), negative = python_int(Tag::Int, -1);
  EXPECT_FALSE(cuarray::ops::int_fits(small, DType::Int8));
  EXPECT_FALSE(cuarray::ops::int_fits(small, DType::UInt8));
  EXPECT_TRUE(cuarray::ops::int_fits(small, DType::Int16));
  EXPECT_FALSE(cuarray::ops::int_fits(negative, DType::UInt64));
  EXPECT_TRUE(cuarray::ops::int_fits(negative, DType::Int8));
  // 2**63 fits uint64 alone; past uint64 or below int64 nothing.
  const Scalar big = python_int(Tag::UInt, 1, 1ull << 63);
  EXPECT_TRUE(cuarray::ops::int_fits(big, DType::UInt64));
  EXPECT_FALSE(cuarray::ops::int_fits(big, DType::Int64));
  EXPECT_FALSE(cuarray::ops::int_fits(python_int(Tag::BigInt, 1), DType::UInt64));
  EXPECT_FALSE(cuarray::ops::int_fits(python_int(Tag::BigInt, -1), DType::Int64));
}

TEST(PythonIntTest, SignOfEachTag) {
  using Tag = Scalar::Tag;
  EXPECT_EQ(cuarray::ops::int_sign(python_int(Tag::Int, 300)), 1);
  EXPECT_EQ(cuarray::ops::int_sign(python_int(Tag::Int, -300)), -1);
  EXPECT_EQ(cuarray::ops::int_sign(python_int(Tag::Int, 0)), 0);
  EXPECT_EQ(cuarray::ops::int_sign(python_int(Tag::UInt, 1, 1ull << 63)), 1);
  EXPECT_EQ(cuarray::ops::int_sign(python_int(Tag::BigInt, 1)), 1);    // 2**64 and above
  EXPECT_EQ(cuarray::ops::int_sign(python_int(Tag::BigInt, -1)), -1);  // below -2**63
}

TEST(PowerOperatorTest, NumpysFastScalarPowers) {
  using Tag = Scalar::Tag;
  const int reciprocal = cuarray::ops::ufunc_index("reciprocal"), square = cuarray::ops::ufunc_index("square"),
            sqrt = cuarray::ops::ufunc_index("sqrt");
  Scalar half;
  half.tag = Tag::Float;
  half.re = 0.5;
  for (DType t : {DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128}) {
    EXPECT_EQ(cuarray::ops::power_operator_ufunc(t, python_int(Tag::Int, -1)), reciprocal) << cuarray::name(t);
    EXPECT_EQ(cuarray::ops::power_operator_ufunc(t, python_int(Tag::Int, 2)), square) << cuarray::name(t);
    EXPECT_EQ(cuarray::ops::power_operator_ufunc(t, half), sqrt) << cuarray::name(t);
    EXPECT_EQ(cuarray::ops::power_operator_ufunc(t, python_int(Tag::Int, 3)), -1) << cuarray::name(t);
  }
  // Integers and bfloat16 take power; so do a Python bool, a 2.0 and a NumPy scalar exponent.
  for (DType t : {DType::Int32, DType::BFloat16})
    EXPECT_EQ(cuarray::ops::power_operator_ufunc(t, python_int(Tag::Int, 2)), -1) << cuarray::name(t);
  // A bool array squared is int8 (square), to other exponents power's int64.
  EXPECT_EQ(cuarray::ops::power_operator_ufunc(DType::Bool, python_int(Tag::Int, 2)), square);
  EXPECT_EQ(cuarray::ops::power_operator_ufunc(DType::Bool, python_int(Tag::Int, -1)), -1);
  EXPECT_EQ(cuarray::ops::power_operator_ufunc(DType::Bool, half), -1);
  Scalar two_float = half, typed;
  two_float.re = 2.0;
  typed.tag = Tag::Typed;
  typed.dtype = DType::Int64;
  EXPECT_EQ(cuarray::ops::power_operator_ufunc(DType::Float64, python_int(Tag::Bool, 1)), -1);
  EXPECT_EQ(cuarray::ops::power_operator_ufunc(DType::Float64, two_float), -1);
  EXPECT_EQ(cuarray::ops::power_operator_ufunc(DType::Float64, typed), -1);
}

// NumPy: np.sum(np.float64(1.0) as a 0-d array, axis=0) is 1.0; np.mean(..., axis=0) raises AxisError.
TEST(ZeroDAxisTest, UfuncReductionsReadAxisZeroOfAScalar) {
  const Array f = fake({}, DType::Float32), i = fake({}, DType::Int8);
  const std::vector<std::int64_t> zero{0}, minus_one{-1}, one{1};
  const auto& sum = cuarray::ops::reduction("sum");
  EXPECT_TRUE(cuarray::ops::reads_zero_d_axis(sum, f, zero));
  EXPECT_TRUE(cuarray::ops::reads_zero_d_axis(sum, i, minus_one));
  EXPECT_FALSE(cuarray::ops::reads_zero_d_axis(sum, f, one));
  EXPECT_FALSE(cuarray::ops::reads_zero_d_axis(sum, fake({1}, DType::Float32), zero));
  EXPECT_FALSE(cuarray::ops::reads_zero_d_axis(cuarray::ops::reduction("mean"), f, zero));
  // nanmean of integers is mean (NumPy's dispatch); of floats, a ufunc reduction.
  EXPECT_FALSE(cuarray::ops::reads_zero_d_axis(cuarray::ops::reduction("nanmean"), i, zero));
  EXPECT_TRUE(cuarray::ops::reads_zero_d_axis(cuarray::ops::reduction("nanmean"), f, zero));
}

TEST(ZeroDAxisTest, OnlyAnIntegerAxisIsRead) {
  const Array a = fake({}, DType::Float64);
  const auto& sum = cuarray::ops::reduction("sum");
  const std::optional<std::vector<std::int64_t>> zero = std::vector<std::int64_t>{0};
  cuarray::ops::ReductionOperands read(sum, &a, 1, zero, true, false);
  EXPECT_TRUE(read.reduced().empty());
  // A tuple (0,) is no integer: NumPy's AxisError.
  EXPECT_THROW(cuarray::ops::ReductionOperands(sum, &a, 1, zero, false, false), cuarray::AxisError);
  EXPECT_THROW(cuarray::ops::ReductionOperands(cuarray::ops::reduction("var"), &a, 1, zero, true, false),
               cuarray::AxisError);
}

TEST(ReductionArityTest, InputsAndTypesMustMatchTheDefinition) {
  const auto& sum = cuarray::ops::reduction("sum");
  cuarray::ops::check_arity(sum, 1, 1);
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::check_arity(sum, 2, 2); }), "sum takes 1 inputs");
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::check_arity(sum, 1, 2); }), "sum takes 1 inputs");
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::reduction_types(sum, {}, std::nullopt); }),
            "sum takes 1 input dtypes");
  auto def = sum;
  def.nin = 9;
  EXPECT_EQ(message_of<cuarray::ValueError>([&] { cuarray::ops::add_definition(def); }),
            "a reduction takes 1 to 8 inputs, got 9");
}

TEST(FusedSignaturesTest, PacksSixBitsAnArgument) {
  using S = cuarray::ops::FusedSignatures;
  const int codes[] = {S::array_code(DType::Float32), S::kInt, S::kBool};
  std::uint64_t key = 0;
  ASSERT_TRUE(S::signature(codes, 3, key));
  EXPECT_EQ(key, ((((3ull << 6) | (1 + static_cast<std::uint64_t>(DType::Float32))) << 6 | 41) << 6) | 40);
  std::uint64_t other = 0;
  ASSERT_TRUE(S::signature(codes, 2, other));
  EXPECT_NE(key, other);  // the count is part of the key
  const int unknown[] = {S::kFloat, S::kNoCode};
  EXPECT_FALSE(S::signature(unknown, 2, other));
  const int many[10] = {};
  EXPECT_FALSE(S::signature(many, 10, other));
  EXPECT_TRUE(S::signature(many, 9, other));
}

TEST(FusedSignaturesTest, ChecksTheArgumentCount) {
  cuarray::ops::FusedKernel k;
  EXPECT_EQ(message_of<cuarray::TypeError>([&] { cuarray::ops::check_fused_arity(k, 1); }),
            "fused function called with a different number of arguments");
  EXPECT_NO_THROW(cuarray::ops::check_fused_arity(k, 0));
}

}  // namespace
