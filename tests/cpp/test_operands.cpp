// Host-only parts of the operand builder and type resolution: ops/operands.h's scalar conversion,
// ops/type_resolution.h's reduction rules, cache and casting messages, and shape.h's IterDims coalescing.
// Expected values follow NumPy 2 (the reduction table is NumPy's add.reduce / _methods._mean results).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cuarray/error.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/type_resolution.h"
#include "cuarray/ops/ufunc.h"
#include "cuarray/shape.h"
#include "test_util.h"

namespace {

using cuarray::DType;
using cuarray::IterDims;
using cuarray::ops::Casting;
using cuarray::ops::ReductionRule;
using cuarray::ops::Scalar;

// ---- reduction type rules ---------------------------------------------------------------------------------

struct SumRow {
  DType in, out;  // numpy.add.reduce(numpy.zeros(1, in)).dtype
};
const SumRow kSum[] = {
    {DType::Bool, DType::Int64},      {DType::Int8, DType::Int64},          {DType::Int16, DType::Int64},
    {DType::Int32, DType::Int64},     {DType::Int64, DType::Int64},         {DType::UInt8, DType::UInt64},
    {DType::UInt16, DType::UInt64},   {DType::UInt32, DType::UInt64},       {DType::UInt64, DType::UInt64},
    {DType::Float16, DType::Float16}, {DType::BFloat16, DType::BFloat16},   {DType::Float32, DType::Float32},
    {DType::Float64, DType::Float64}, {DType::Complex64, DType::Complex64}, {DType::Complex128, DType::Complex128},
};

TEST(ReductionTypesTest, SumLikeFollowsAddReduce) {
  for (const SumRow& r : kSum) {
    auto t = cuarray::ops::reduction_types(ReductionRule::kSumLike, &r.in, 1, std::nullopt);
    EXPECT_EQ(t.in[0], r.out) << cuarray::name(r.in);
    EXPECT_EQ(t.out_loop, r.out) << cuarray::name(r.in);
    EXPECT_EQ(t.result, r.out) << cuarray::name(r.in);
  }
}

TEST(ReductionTypesTest, DtypeArgumentWinsForSumAndMean) {
  DType i8 = DType::Int8;
  auto s = cuarray::ops::reduction_types(ReductionRule::kSumLike, &i8, 1, DType::Float32);
  EXPECT_EQ(s.in[0], DType::Float32);
  EXPECT_EQ(s.result, DType::Float32);
  auto m = cuarray::ops::reduction_types(ReductionRule::kMean, &i8, 1, DType::Float32);
  EXPECT_EQ(m.out_loop, DType::Float32);
  EXPECT_EQ(m.result, DType::Float32);
  // max and argmax take no dtype=: the rule ignores one.
  auto x = cuarray::ops::reduction_types(ReductionRule::kSame, &i8, 1, DType::Float32);
  EXPECT_EQ(x.result, DType::Int8);
}

TEST(ReductionTypesTest, MeanAndVarianceLoops) {
  // numpy's _methods._mean: integers and bool in float64, float16 through float32 back to float16.
  for (DType t : {DType::Bool, DType::Int8, DType::UInt64}) {
    auto m = cuarray::ops::reduction_types(ReductionRule::kMean, &t, 1, std::nullopt);
    EXPECT_EQ(m.in[0], DType::Float64);
    EXPECT_EQ(m.result, DType::Float64);
  }
  DType h = DType::Float16, c = DType::Complex64, b = DType::BFloat16;
  auto mh = cuarray::ops::reduction_types(ReductionRule::kMean, &h, 1, std::nullopt);
  EXPECT_EQ(mh.out_loop, DType::Float32);
  EXPECT_EQ(mh.result, DType::Float16);
  auto mb = cuarray::ops::reduction_types(ReductionRule::kMean, &b, 1, std::nullopt);
  EXPECT_EQ(mb.result, DType::BFloat16);
  // var of complex is real; float16's variance computes in float32 and returns float16.
  auto vc = cuarray::ops::reduction_types(ReductionRule::kVarLike, &c, 1, std::nullopt);
  EXPECT_EQ(vc.in[0], DType::Complex64);
  EXPECT_EQ(vc.out_loop, DType::Float32);
  EXPECT_EQ(vc.result, DType::Float32);
  auto vh = cuarray::ops::reduction_types(ReductionRule::kVarLike, &h, 1, std::nullopt);
  EXPECT_EQ(vh.out_loop, DType::Float32);
  EXPECT_EQ(vh.result, DType::Float16);
}

TEST(ReductionTypesTest, IndexBoolAndNorm) {
  DType f = DType::Float32, i = DType::Int16, c = DType::Complex128, b = DType::BFloat16, h = DType::Float16;
  auto a = cuarray::ops::reduction_types(ReductionRule::kIndex, &f, 1, std::nullopt);
  EXPECT_EQ(a.in[0], DType::Float32);
  EXPECT_EQ(a.result, DType::Int64);
  auto any = cuarray::ops::reduction_types(ReductionRule::kBool, &i, 1, std::nullopt);
  EXPECT_EQ(any.in[0], DType::Int16);
  EXPECT_EQ(any.result, DType::Bool);
  EXPECT_EQ(cuarray::ops::reduction_types(ReductionRule::kL2, &i, 1, std::nullopt).result, DType::Float64);
  EXPECT_EQ(cuarray::ops::reduction_types(ReductionRule::kL2, &h, 1, std::nullopt).result, DType::Float16);
  EXPECT_EQ(cuarray::ops::reduction_types(ReductionRule::kL2, &c, 1, std::nullopt).result, DType::Float64);
  // ml_dtypes' bfloat16 has kind 'V', not 'f': its norm computes in float64, as before.
  EXPECT_EQ(cuarray::ops::reduction_types(ReductionRule::kL2, &b, 1, std::nullopt).in[0], DType::Float64);
}

// ---- the type cache and its hook ----------------------------------------------------------------------------

int g_asked = 0;
void fake_hook(const cuarray::ops::TypeQuery& q, cuarray::ops::TypeAnswer& a) {
  ++g_asked;
  if (q.kind == cuarray::ops::TypeQuery::kCanCast) {
    a.can_cast = q.casting == Casting::Unsafe;
    return;
  }
  for (int i = 0; i < q.nin; ++i) a.loop.in[i] = DType::Float64;
  for (int o = 0; o < q.nout; ++o) a.loop.out[o] = DType::Float64;
}

TEST(TypeResolutionTest, OnlyAMissAsksTheHook) {
  cuarray::ops::set_type_hook(fake_hook);
  g_asked = 0;
  const int add = cuarray::ops::ufunc_index("add");
  const int codes[2] = {static_cast<int>(DType::Float64), cuarray::ops::kWeakInt};
  auto first = cuarray::ops::resolve_loop(add, "add", 2, 1, codes, cuarray::ops::kNoDType, Casting::SameKind);
  auto again = cuarray::ops::resolve_loop(add, "add", 2, 1, codes, cuarray::ops::kNoDType, Casting::SameKind);
  EXPECT_EQ(g_asked, 1);
  EXPECT_EQ(first.out[0], DType::Float64);
  EXPECT_EQ(again.in[1], DType::Float64);
  // Another casting rule is another signature.
  cuarray::ops::resolve_loop(add, "add", 2, 1, codes, cuarray::ops::kNoDType, Casting::Unsafe);
  EXPECT_EQ(g_asked, 2);
  // Casts are answered once per (from, to, casting); a dtype casts to itself without asking.
  EXPECT_TRUE(cuarray::ops::can_cast(DType::Int8, DType::Int8, Casting::No));
  EXPECT_FALSE(cuarray::ops::can_cast(DType::Float64, DType::Int8, Casting::SameKind));
  EXPECT_FALSE(cuarray::ops::can_cast(DType::Float64, DType::Int8, Casting::SameKind));
  EXPECT_EQ(g_asked, 3);
}

TEST(TypeResolutionTest, LoopTheTableLacksIsATypeError) {
  cuarray::ops::set_type_hook(fake_hook);
  const int invert = cuarray::ops::ufunc_index("invert");  // no float64 loop
  const int codes[1] = {static_cast<int>(DType::Float64)};
  std::string m = message_of<cuarray::TypeError>(
      [&] { cuarray::ops::resolve_loop(invert, "invert", 1, 1, codes, cuarray::ops::kNoDType, Casting::SameKind); });
  EXPECT_NE(m.find("has no loop for the types (float64) -> (float64)"), std::string::npos) << m;
}

TEST(TypeResolutionTest, OutputCastMessagesAreNumPys) {
  cuarray::ops::set_type_hook(fake_hook);
  std::string one = message_of<cuarray::TypeError>(
      [] { cuarray::ops::check_output_cast("add", 1, DType::Float64, DType::Int64, Casting::SameKind, 0); });
  EXPECT_EQ(one,
            "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule "
            "'same_kind'");
  std::string two = message_of<cuarray::TypeError>(
      [] { cuarray::ops::check_output_cast("_divmod", 2, DType::Float64, DType::Int8, Casting::Safe, 3); });
  EXPECT_EQ(two,
            "Cannot cast ufunc 'divmod' output 3 from dtype('float64') to dtype('int8') with casting rule "
            "'safe'");
  EXPECT_NO_THROW(cuarray::ops::check_output_cast("add", 1, DType::Float64, DType::Int8, Casting::Unsafe, 0));
}

TEST(TypeResolutionTest, CastingNames) {
  EXPECT_EQ(cuarray::ops::casting_from_name("same_kind"), Casting::SameKind);
  EXPECT_STREQ(cuarray::ops::casting_name(Casting::Equiv), "equiv");
  std::string m = message_of<cuarray::ValueError>([] { cuarray::ops::casting_from_name("sometimes"); });
  EXPECT_NE(m.find("(got 'sometimes')"), std::string::npos) << m;
}

// ---- scalar conversion ---------------------------------------------------------------------------------------

int g_hooked = 0;
void fake_scalar_hook(const Scalar&, DType, char* dst) {
  ++g_hooked;
  std::memset(dst, 0x7f, 1);
}

template <class T>
T convert(const Scalar& s, DType t) {
  char out[16] = {};
  cuarray::ops::scalar_to_loop(s, t, out);
  T v;
  std::memcpy(&v, out, sizeof v);
  return v;
}

Scalar integer(std::int64_t v) {
  Scalar s;
  s.tag = Scalar::Tag::Int;
  s.i = v;
  return s;
}

TEST(ScalarTest, PythonIntsInRangeConvertInTheCore) {
  cuarray::ops::set_scalar_hook(fake_scalar_hook);
  g_hooked = 0;
  EXPECT_EQ(convert<std::int8_t>(integer(-128), DType::Int8), -128);
  EXPECT_EQ(convert<std::uint8_t>(integer(255), DType::UInt8), 255);
  EXPECT_EQ(convert<std::int64_t>(integer(-5), DType::Int64), -5);
  EXPECT_EQ(convert<double>(integer(3), DType::Float64), 3.0);
  EXPECT_EQ(convert<bool>(integer(2), DType::Bool), true);
  // int -> float32 rounds through double, as NumPy's conversion of a Python int does.
  EXPECT_EQ(convert<float>(integer((1LL << 53) + 1), DType::Float32), static_cast<float>(9007199254740992.0));
  EXPECT_EQ(g_hooked, 0);
}

TEST(ScalarTest, OutOfRangeAndSixteenBitFloatsGoToTheHook) {
  cuarray::ops::set_scalar_hook(fake_scalar_hook);
  g_hooked = 0;
  convert<std::int8_t>(integer(128), DType::Int8);   // NumPy's OverflowError
  convert<std::uint8_t>(integer(-1), DType::UInt8);  // same
  convert<float>(integer(3), DType::Float16);        // float16 rounding is NumPy's
  Scalar big;
  big.tag = Scalar::Tag::BigInt;
  convert<double>(big, DType::Float64);
  Scalar typed;
  typed.tag = Scalar::Tag::Typed;
  typed.dtype = DType::Float32;
  convert<double>(typed, DType::Float64);  // a NumPy scalar of another dtype: NumPy's cast
  EXPECT_EQ(g_hooked, 5);
}

TEST(ScalarTest, FloatsComplexBoolsAndTypedScalars) {
  cuarray::ops::set_scalar_hook(fake_scalar_hook);
  g_hooked = 0;
  Scalar f;
  f.tag = Scalar::Tag::Float;
  f.re = 0.1;
  EXPECT_EQ(convert<double>(f, DType::Float64), 0.1);
  EXPECT_EQ(convert<float>(f, DType::Float32), 0.1f);
  Scalar c;
  c.tag = Scalar::Tag::Complex;
  c.re = 1.5, c.im = -2.0;
  float parts[2];
  char out[16];
  cuarray::ops::scalar_to_loop(c, DType::Complex64, out);
  std::memcpy(parts, out, 8);
  EXPECT_EQ(parts[0], 1.5f);
  EXPECT_EQ(parts[1], -2.0f);
  Scalar b;
  b.tag = Scalar::Tag::Bool;
  b.i = 1;
  EXPECT_EQ(convert<float>(b, DType::Float16), 1.0f);  // exact: no hook
  EXPECT_EQ(convert<std::int32_t>(b, DType::Int32), 1);
  Scalar typed;
  typed.tag = Scalar::Tag::Typed;
  typed.dtype = DType::Int16;
  std::int16_t v = -300;
  std::memcpy(typed.bytes, &v, 2);
  EXPECT_EQ(convert<std::int16_t>(typed, DType::Int16), -300);
  EXPECT_EQ(g_hooked, 0);
  EXPECT_EQ(cuarray::ops::scalar_code(f), cuarray::ops::kWeakFloat);
  EXPECT_EQ(cuarray::ops::scalar_code(b), static_cast<int>(DType::Bool));
  EXPECT_EQ(cuarray::ops::scalar_code(typed), static_cast<int>(DType::Int16));
}

// ---- IterDims ------------------------------------------------------------------------------------------------

TEST(IterDimsTest, SortsByOneOperandAndMergesContiguousDims) {
  IterDims dims;
  // A transposed (3, 4) float64 view against a C-order output: operand 1's memory order is axis 1 then 0.
  dims.n = 2;
  dims.d[0].extent = 3, dims.d[0].strides[0] = 32, dims.d[0].strides[1] = 8;
  dims.d[1].extent = 4, dims.d[1].strides[0] = 8, dims.d[1].strides[1] = 24;
  cuarray::sort_by_memory_order(dims, 1);
  EXPECT_EQ(dims.d[0].extent, 4);
  EXPECT_EQ(dims.d[1].extent, 3);
  cuarray::coalesce(dims, 2);
  EXPECT_EQ(dims.n, 2);        // not contiguous in operand 0
  cuarray::coalesce(dims, 0);  // no operand constrains: one dim
  EXPECT_EQ(dims.n, 1);
  EXPECT_EQ(dims.d[0].extent, 12);
}

TEST(IterDimsTest, DropsLengthOneDims) {
  IterDims dims;
  dims.n = 3;
  dims.d[0].extent = 1, dims.d[0].strides[0] = 999;
  dims.d[1].extent = 1, dims.d[1].strides[0] = 5;
  dims.d[2].extent = 1, dims.d[2].strides[0] = 8;
  cuarray::coalesce(dims, 1);
  EXPECT_EQ(dims.n, 0);
}

}  // namespace
