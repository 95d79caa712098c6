// Kernel-cache keys and generated source: ops::KernelKey, ops::kernel_source and jit::Hash128.
// Nothing here compiles or launches a kernel; cuda::current_device() only reads a thread-local.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cuarray/cuda/device.h"
#include "cuarray/jit/hash.h"
#include "cuarray/ops/kernel_registry.h"

namespace {

using cuarray::jit::Hash128;
using cuarray::ops::KernelKey;
using cuarray::ops::KernelKind;
using ::testing::HasSubstr;

constexpr KernelKind kKinds[] = {
    KernelKind::Copy,           KernelKind::CopyContiguous, KernelKind::CopyTranspose, KernelKind::Fill,
    KernelKind::FillContiguous, KernelKind::Arange,         KernelKind::Linspace,      KernelKind::Eye};

// ---- KernelKey --------------------------------------------------------------------------------

TEST(KernelKeyTest, EveryKindGivesADifferentKey) {
  std::set<std::uint64_t> keys;
  for (KernelKind k : kKinds) keys.insert(KernelKey(k).add(11, 8).add(1, 1).value());
  EXPECT_EQ(keys.size(), sizeof kKinds / sizeof kKinds[0]);
}

TEST(KernelKeyTest, KindDeviceAndWidthSitAboveTheFields) {
  const std::uint64_t dev = static_cast<std::uint64_t>(cuarray::cuda::current_device());
  EXPECT_EQ(dev, 0u);  // no device was ever made current on this thread
  EXPECT_EQ(KernelKey(KernelKind::Arange).value(), std::uint64_t(5) << 56);
  EXPECT_EQ(KernelKey(KernelKind::Fill).add(5, 4).add(1, 1).value(),
            (std::uint64_t(3) << 56) | (std::uint64_t(5) << 42) | (5 << 1) | 1);
}

// Note [Registry keys]: under the old packing (kind, device and fields shifted in one after another), these
// pairs were equal keys, so one op launched the other's kernel.
TEST(KernelKeyTest, KeysOfOtherKindsOrWidthsNeverMeet) {
  EXPECT_NE(KernelKey(KernelKind::Copy).add((std::uint64_t(4) << 15) | 4, 18).value(),
            KernelKey(KernelKind::FillContiguous).add(1, 5).add(0, 1).add(0, 1).value());
  EXPECT_NE(KernelKey(KernelKind::Copy).add(0, 8).value(), KernelKey(KernelKind::Copy).value());
  EXPECT_NE(KernelKey(KernelKind::Eye).add(1, 1).add(0, 3).value(),
            KernelKey(KernelKind::Eye).add(8, 4).add(0, 1).value());
}

TEST(KernelKeyTest, DifferentFieldsGiveDifferentKeys) {
  auto key = [](std::uint64_t dtype_to, std::uint64_t dtype_from, std::uint64_t ndim, bool wide) {
    return KernelKey(KernelKind::Copy).add(dtype_to, 8).add(dtype_from, 8).add(ndim, 4).add(wide, 1).value();
  };
  const std::uint64_t base = key(11, 12, 3, false);
  EXPECT_EQ(key(11, 12, 3, false), base);  // deterministic
  EXPECT_NE(key(12, 12, 3, false), base);
  EXPECT_NE(key(11, 11, 3, false), base);
  EXPECT_NE(key(12, 11, 3, false), base);  // the same values in other fields
  EXPECT_NE(key(11, 12, 4, false), base);
  EXPECT_NE(key(11, 12, 3, true), base);
  EXPECT_NE(KernelKey(KernelKind::CopyContiguous).add(11, 8).add(12, 8).add(3, 4).add(0, 1).value(), base);
  // All (to, from) pairs of the 15 dtypes are distinct keys.
  std::set<std::uint64_t> keys;
  for (int to = 0; to < 15; ++to)
    for (int from = 0; from < 15; ++from) keys.insert(key(to, from, 2, true));
  EXPECT_EQ(keys.size(), 225u);
}

TEST(KernelKeyTest, AFieldThatDoesNotFitThrows) {
  // Masking it would alias another kernel's key (Note [Registry keys]).
  EXPECT_THROW(KernelKey(KernelKind::Eye).add(0x1FF, 8), std::logic_error);
  EXPECT_THROW(KernelKey(KernelKind::Eye).add(static_cast<std::uint64_t>(-1), 5), std::logic_error);
  EXPECT_THROW(KernelKey(KernelKind::Eye).add(0, 40).add(0, 3), std::logic_error);
  EXPECT_NO_THROW(KernelKey(KernelKind::Eye).add(0xFF, 8).add(0, 34));
}

TEST(WideKeyTest, KindsFieldsAndWidthsAreKeptApart) {
  using cuarray::ops::WideKey;
  using cuarray::ops::WideKind;
  auto fields = [](WideKind kind, std::uint64_t a, std::uint64_t b) { return WideKey(kind).add(a, 32).add(b, 7); };
  EXPECT_TRUE(fields(WideKind::Elementwise, 3, 2) == fields(WideKind::Elementwise, 3, 2));
  EXPECT_FALSE(fields(WideKind::Elementwise, 3, 2) == fields(WideKind::Reduction, 3, 2));
  EXPECT_FALSE(fields(WideKind::Elementwise, 3, 2) == fields(WideKind::Elementwise, 2, 3));
  EXPECT_FALSE(WideKey(WideKind::Reduction).add(0, 5) == WideKey(WideKind::Reduction).add(0, 6));
  // Fields cross the 64-bit words whole.
  WideKey a(WideKind::Reduction), b(WideKind::Reduction);
  a.add(0, 50).add(0x3FF, 10);
  b.add(0, 50).add(0x1FF, 10);
  EXPECT_FALSE(a == b);
  EXPECT_EQ(a.w[0] >> 62, 3u);
  EXPECT_EQ(a.w[1], 0xFFu);
  EXPECT_THROW(WideKey(WideKind::Reduction).add(32, 5), std::logic_error);
  WideKey full(WideKind::Elementwise);
  for (int i = 0; i < 4; ++i) full.add(0, 59);
  EXPECT_THROW(full.add(0, 1), std::logic_error);
}

// ---- kernel_source ----------------------------------------------------------------------------

TEST(KernelSourceTest, IncludesHeaderAndDefinesExternCKernel) {
  cuarray::ops::KernelSource s =
      cuarray::ops::kernel_source("copy.cuh", "copy_strided_float32_int8_2", "ca::Strided<2, 2> s, int n",
                                  "ca::copy_strided<float, signed char>(s, n);");
  EXPECT_EQ(s.name, "copy_strided_float32_int8_2");
  EXPECT_THAT(s.source, HasSubstr("#include \"cuarray/copy.cuh\"\n"));
  EXPECT_THAT(s.source, HasSubstr("extern \"C\" __global__ void copy_strided_float32_int8_2("));
  EXPECT_THAT(s.source, HasSubstr("(ca::Strided<2, 2> s, int n)"));
  EXPECT_THAT(s.source, HasSubstr("ca::copy_strided<float, signed char>(s, n);"));
  // The include comes first, the body sits inside the braces.
  size_t inc = s.source.find("#include"), def = s.source.find("extern \"C\""), open = s.source.find('{'),
         body = s.source.find("ca::copy_strided<"), close = s.source.rfind('}');
  EXPECT_EQ(inc, 0u);
  EXPECT_LT(inc, def);
  EXPECT_LT(def, open);
  EXPECT_LT(open, body);
  EXPECT_LT(body, close);
}

TEST(KernelSourceTest, OtherHeaderAndName) {
  cuarray::ops::KernelSource s = cuarray::ops::kernel_source("creation.cuh", "eye_float64", "double* p", "");
  EXPECT_EQ(s.name, "eye_float64");
  EXPECT_THAT(s.source, HasSubstr("#include \"cuarray/creation.cuh\""));
  EXPECT_THAT(s.source, HasSubstr("extern \"C\" __global__ void eye_float64(double* p)"));
  EXPECT_THAT(s.source, ::testing::Not(HasSubstr("copy.cuh")));
}

TEST(IndexType, NarrowAndWide) {
  EXPECT_STREQ(cuarray::ops::index_type(false), "int");
  EXPECT_STREQ(cuarray::ops::index_type(true), "long long");
}

// ---- Hash128 ----------------------------------------------------------------------------------

bool is_lower_hex(const std::string& s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

TEST(Hash128Test, HexIs32LowercaseHexChars) {
  for (const std::string& h : {Hash128().hex(), Hash128().add("kernel").hex(), Hash128().add(~0ull).hex()}) {
    EXPECT_EQ(h.size(), 32u) << h;
    EXPECT_TRUE(is_lower_hex(h)) << h;
  }
  // hi then lo, each zero-padded to 16 digits.
  EXPECT_EQ(Hash128().hex(), "c2b2ae3d27d4eb4f9e3779b97f4a7c15");
  Hash128 h;
  h.hi = 0x1;
  h.lo = 0xABC;
  EXPECT_EQ(h.hex(), "00000000000000010000000000000abc");
}

TEST(Hash128Test, Deterministic) {
  EXPECT_EQ(Hash128().add("abc").add(std::uint64_t{42}).hex(), Hash128().add("abc").add(std::uint64_t{42}).hex());
  Hash128 a, b;
  a.add("x");
  b.add("x");
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
}

TEST(Hash128Test, ContentChangesHash) {
  EXPECT_NE(Hash128().add("abc").hex(), Hash128().add("abd").hex());
  EXPECT_NE(Hash128().add("abc").hex(), Hash128().hex());
  EXPECT_NE(Hash128().add(std::uint64_t{1}).hex(), Hash128().add(std::uint64_t{2}).hex());
  // Both halves depend on the input.
  Hash128 a = Hash128().add("abc"), b = Hash128().add("abd");
  EXPECT_NE(a.lo, b.lo);
  EXPECT_NE(a.hi, b.hi);
}

TEST(Hash128Test, OrderSensitive) {
  EXPECT_NE(Hash128().add("a").add("b").hex(), Hash128().add("b").add("a").hex());
  EXPECT_NE(Hash128().add("ab").hex(), Hash128().add("ba").hex());
}

TEST(Hash128Test, LengthDelimited) {
  EXPECT_NE(Hash128().add("ab").add("c").hex(), Hash128().add("a").add("bc").hex());
  EXPECT_NE(Hash128().add("abc").hex(), Hash128().add("ab").add("c").hex());
  EXPECT_NE(Hash128().add("").hex(), Hash128().hex());
  EXPECT_NE(Hash128().add("").add("").hex(), Hash128().add("").hex());
  EXPECT_NE(Hash128().add("a").add("").hex(), Hash128().add("").add("a").hex());
}

TEST(Hash128Test, IntegerIsItsEightBytes) {
  std::uint64_t v = 0x0123456789ABCDEFull;
  char bytes[8];
  std::memcpy(bytes, &v, 8);
  EXPECT_EQ(Hash128().add(v).hex(), Hash128().add(std::string_view(bytes, 8)).hex());
  // Zero is eight zero bytes, not an empty string.
  EXPECT_NE(Hash128().add(std::uint64_t{0}).hex(), Hash128().add("").hex());
}

}  // namespace
