// cuarray/dtype.h: sizes, kinds, NumPy names and kernel-source spellings of every DType.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cuarray/dtype.h"
#include "cuarray/error.h"

namespace {

using cuarray::DType;
using cuarray::Kind;

struct Expected {
  DType t;
  const char* name;  // NumPy's dtype.name (bfloat16: ml_dtypes')
  int itemsize;      // NumPy's dtype.itemsize
  Kind kind;         // NumPy's dtype.kind: b, i, u, f, c, M, m, V
  const char* cuda;  // kernels/types.cuh; none for the storage-only types
};

// Indexed by DType's value, so a reordered enum or table shows up too.
const Expected kAll[] = {
    {DType::Bool, "bool", 1, Kind::Bool, "bool"},
    {DType::Int8, "int8", 1, Kind::Signed, "signed char"},
    {DType::Int16, "int16", 2, Kind::Signed, "short"},
    {DType::Int32, "int32", 4, Kind::Signed, "int"},
    {DType::Int64, "int64", 8, Kind::Signed, "long long"},
    {DType::UInt8, "uint8", 1, Kind::Unsigned, "unsigned char"},
    {DType::UInt16, "uint16", 2, Kind::Unsigned, "unsigned short"},
    {DType::UInt32, "uint32", 4, Kind::Unsigned, "unsigned int"},
    {DType::UInt64, "uint64", 8, Kind::Unsigned, "unsigned long long"},
    {DType::Float16, "float16", 2, Kind::Float, "ca::half"},
    {DType::BFloat16, "bfloat16", 2, Kind::Float, "ca::bfloat16"},
    {DType::Float32, "float32", 4, Kind::Float, "float"},
    {DType::Float64, "float64", 8, Kind::Float, "double"},
    {DType::Complex64, "complex64", 8, Kind::Complex, "ca::complex<float>"},
    {DType::Complex128, "complex128", 16, Kind::Complex, "ca::complex<double>"},
    {DType::Datetime64D, "datetime64[D]", 8, Kind::Datetime, nullptr},
    {DType::Datetime64s, "datetime64[s]", 8, Kind::Datetime, nullptr},
    {DType::Datetime64ms, "datetime64[ms]", 8, Kind::Datetime, nullptr},
    {DType::Datetime64us, "datetime64[us]", 8, Kind::Datetime, nullptr},
    {DType::Datetime64ns, "datetime64[ns]", 8, Kind::Datetime, nullptr},
    {DType::Timedelta64D, "timedelta64[D]", 8, Kind::Timedelta, nullptr},
    {DType::Timedelta64h, "timedelta64[h]", 8, Kind::Timedelta, nullptr},
    {DType::Timedelta64m, "timedelta64[m]", 8, Kind::Timedelta, nullptr},
    {DType::Timedelta64s, "timedelta64[s]", 8, Kind::Timedelta, nullptr},
    {DType::Timedelta64ms, "timedelta64[ms]", 8, Kind::Timedelta, nullptr},
    {DType::Timedelta64us, "timedelta64[us]", 8, Kind::Timedelta, nullptr},
    {DType::Timedelta64ns, "timedelta64[ns]", 8, Kind::Timedelta, nullptr},
    {DType::Void, "void", 0, Kind::Void, nullptr},  // the itemsize is the array's (Note [Void storage])
};

TEST(DTypeTable, CoversEveryDType) {
  ASSERT_EQ(sizeof kAll / sizeof kAll[0], static_cast<size_t>(cuarray::kNumDTypes));
  for (int i = 0; i < cuarray::kNumDTypes; ++i) EXPECT_EQ(static_cast<int>(kAll[i].t), i);
}

TEST(DTypeTable, ItemsizeKindNameCudaType) {
  for (const auto& e : kAll) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(cuarray::itemsize(e.t), e.itemsize);
    EXPECT_EQ(cuarray::kind(e.t), e.kind);
    EXPECT_STREQ(cuarray::name(e.t), e.name);
    if (e.cuda) {
      EXPECT_STREQ(cuarray::cuda_type(e.t), e.cuda);
    } else {  // Note [Datetime storage]: no kernel source is written for them
      EXPECT_THROW(cuarray::cuda_type(e.t), cuarray::TypeError);
      EXPECT_THROW(cuarray::check_computable(e.t, "sums"), cuarray::TypeError);
    }
  }
}

TEST(DTypeTable, StorageOnlyTypesSayWhatIsRefused) {
  try {
    cuarray::check_computable(DType::Timedelta64ms, "reductions");
    ADD_FAILURE() << "no exception";
  } catch (const cuarray::TypeError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("reductions on timedelta64[ms] arrays"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr(".view(numpy.int64)"));
  }
  EXPECT_NO_THROW(cuarray::check_computable(DType::Int64, "reductions"));
}

TEST(DTypeTable, NamesAreDistinct) {
  std::set<std::string> names;
  for (int i = 0; i < cuarray::kNumDTypes; ++i) names.insert(cuarray::name(static_cast<DType>(i)));
  EXPECT_EQ(names.size(), static_cast<size_t>(cuarray::kNumDTypes));
}

TEST(DTypeTable, KindPredicates) {
  for (const auto& e : kAll) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(cuarray::is_complex(e.t), e.kind == Kind::Complex);
    EXPECT_EQ(cuarray::is_floating(e.t), e.kind == Kind::Float);
    EXPECT_EQ(cuarray::is_integer(e.t), e.kind == Kind::Signed || e.kind == Kind::Unsigned);
    EXPECT_EQ(cuarray::is_storage_only(e.t),
              e.kind == Kind::Datetime || e.kind == Kind::Timedelta || e.kind == Kind::Void);
    EXPECT_EQ(cuarray::is_time(e.t), e.kind == Kind::Datetime || e.kind == Kind::Timedelta);
  }
  EXPECT_FALSE(cuarray::is_integer(DType::Bool));
  EXPECT_FALSE(cuarray::is_floating(DType::Complex64));
}

TEST(DTypeFromName, RoundTripsEveryDType) {
  for (int i = 0; i < cuarray::kNumDTypes; ++i) {
    DType t = static_cast<DType>(i);
    SCOPED_TRACE(cuarray::name(t));
    EXPECT_EQ(cuarray::dtype_from_name(cuarray::name(t)), t);
  }
  EXPECT_EQ(cuarray::dtype_from_name(std::string("complex128")), DType::Complex128);
}

TEST(DTypeFromName, UnknownNameIsTypeError) {
  // Names NumPy rejects, and NumPy types cuarray does not support.
  for (const char* bad : {"Float32", "int4", "", "float32 ", "object", "complex256", "float128", "datetime64",
                          "datetime64[h]", "timedelta64[W]"}) {
    SCOPED_TRACE(std::string("'") + bad + "'");
    try {
      cuarray::dtype_from_name(bad);
      ADD_FAILURE() << "no exception";
    } catch (const cuarray::TypeError& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr(std::string("'") + bad + "'"));
    }
  }
}

}  // namespace
