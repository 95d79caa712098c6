// cuarray/interop.h without a device: DLPack type tables, exports of views (shape and strides in elements,
// lifetime through the deleter), external views (extent, offset, release exactly once) and the checks that
// refuse an import before any CUDA call. Buffers hold fake addresses that are never dereferenced.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "cuarray/array.h"
#include "cuarray/error.h"
#include "cuarray/interop.h"
#include "test_util.h"

namespace {

using cuarray::Array;
using cuarray::BufferError;
using cuarray::DType;
using cuarray::Shape;
using cuarray::Strides;
using cuarray::TypeError;
using ::testing::HasSubstr;
namespace interop = cuarray::interop;

char* const kFake = reinterpret_cast<char*>(std::uintptr_t{0x7f0000000000});

TEST(Interop, DLPackTypesRoundTrip) {
  struct Case {
    DType t;
    std::uint8_t code, bits;
  };
  const Case cases[] = {{DType::Bool, kDLBool, 8},          {DType::Int8, kDLInt, 8},
                        {DType::Int64, kDLInt, 64},         {DType::UInt16, kDLUInt, 16},
                        {DType::UInt64, kDLUInt, 64},       {DType::Float16, kDLFloat, 16},
                        {DType::BFloat16, kDLBfloat, 16},   {DType::Float64, kDLFloat, 64},
                        {DType::Complex64, kDLComplex, 64}, {DType::Complex128, kDLComplex, 128}};
  for (const Case& c : cases) {
    DLDataType d = interop::to_dlpack_dtype(c.t);
    EXPECT_EQ(d.code, c.code) << cuarray::name(c.t);
    EXPECT_EQ(d.bits, c.bits) << cuarray::name(c.t);
    EXPECT_EQ(d.lanes, 1);
    EXPECT_EQ(interop::from_dlpack_dtype(d), c.t);
  }
  for (int i = 0; i < cuarray::kNumDTypes; ++i) {
    auto t = static_cast<DType>(i);
    if (cuarray::is_storage_only(t)) {  // DLPack has no time types: NumPy's BufferError
      EXPECT_THAT(message_of<BufferError>([t] { interop::to_dlpack_dtype(t); }),
                  HasSubstr(std::string("DLPack has no type for ") + cuarray::name(t)));
      continue;
    }
    EXPECT_EQ(interop::from_dlpack_dtype(interop::to_dlpack_dtype(t)), t) << cuarray::name(t);
  }
}

TEST(Interop, UnsupportedDLPackTypesNameThemselves) {
  EXPECT_THAT(message_of<TypeError>([] {
                interop::from_dlpack_dtype({kDLUInt, 32, 4});
              }),
              HasSubstr("uint32 with 4 lanes"));
  EXPECT_THAT(message_of<TypeError>([] { interop::from_dlpack_dtype({10, 8, 1}); }), HasSubstr("float8"));
  EXPECT_THAT(message_of<TypeError>([] { interop::from_dlpack_dtype({kDLBool, 1, 1}); }), HasSubstr("bool1"));
  EXPECT_THAT(message_of<TypeError>([] { interop::from_dlpack_dtype({kDLComplex, 32, 1}); }), HasSubstr("complex32"));
}

// An array viewing fake external memory; `released` counts calls of its release callback.
Array fake_view(Shape shape, Strides strides, DType dtype, int* released, std::int64_t offset = 0) {
  auto buffer = std::make_shared<cuarray::cuda::Buffer>(kFake, 1 << 20, 3, [released] { ++*released; });
  return Array(std::move(buffer), offset, std::move(shape), std::move(strides), dtype);
}

TEST(Interop, ExportCountsStridesInElementsAndOwnsTheBuffer) {
  int released = 0;
  {
    Array a = fake_view({3, 4}, {-8, 64}, DType::Float64, &released, 512);
    DLManagedTensor* m = interop::to_dlpack(a);
    const DLTensor& t = m->dl_tensor;
    EXPECT_EQ(t.data, kFake + 512);
    EXPECT_EQ(t.byte_offset, 0u);
    EXPECT_EQ(t.device.device_type, kDLCUDA);
    EXPECT_EQ(t.device.device_id, 3);
    ASSERT_EQ(t.ndim, 2);
    EXPECT_EQ(t.shape[0], 3);
    EXPECT_EQ(t.shape[1], 4);
    EXPECT_EQ(t.strides[0], -1);
    EXPECT_EQ(t.strides[1], 8);
    EXPECT_EQ(t.dtype.code, kDLFloat);
    a = Array(nullptr, 0, {}, {}, DType::Bool);  // drop our view: the export alone holds the buffer
    EXPECT_EQ(released, 0);
    m->deleter(m);
    EXPECT_EQ(released, 1);
  }
  EXPECT_EQ(released, 1);
}

TEST(Interop, VersionedExport) {
  int released = 0;
  Array a = fake_view({}, {}, DType::Complex64, &released);
  DLManagedTensorVersioned* m = interop::to_dlpack_versioned(a, true);
  EXPECT_EQ(m->version.major, 1u);
  EXPECT_EQ(m->version.minor, 0u);
  EXPECT_EQ(m->flags, kDLPackFlagIsCopied);
  EXPECT_EQ(m->dl_tensor.ndim, 0);
  EXPECT_EQ(m->dl_tensor.dtype.bits, 64);
  m->deleter(m);
  EXPECT_EQ(released, 0);  // `a` still holds it
}

TEST(Interop, ExportRefusesByteStrides) {
  int released = 0;
  Array odd = fake_view({3, 2}, {6, 4}, DType::Int32, &released);
  EXPECT_THAT(message_of<BufferError>([&] { interop::to_dlpack(odd); }),
              HasSubstr("axis 0 of this int32 array steps 6 bytes, which is not a multiple of its itemsize 4"));
  // An axis of length 1 never uses its stride, so any value exports.
  Array one = fake_view({1, 2}, {6, 4}, DType::Int32, &released);
  DLManagedTensor* m = interop::to_dlpack(one);
  EXPECT_EQ(m->dl_tensor.strides[1], 1);
  m->deleter(m);
}

TEST(Interop, ExternalViewSpansTheReachableBytes) {
  int released = 0;
  {
    // Start at the last element of a (3, 4) float32 block walked backwards on both axes.
    Array v = interop::external_view(kFake + 44, {3, 4}, {-16, -4}, DType::Float32, 2, [&] { ++released; });
    EXPECT_EQ(v.data(), kFake + 44);
    EXPECT_EQ(v.buffer()->ptr(), kFake);
    EXPECT_EQ(v.buffer()->nbytes(), 48u);
    EXPECT_EQ(v.offset(), 44);
    EXPECT_EQ(v.device(), 2);
    Array w = v.view({2}, {-16}, -16);  // views share the one release
    v = w;
  }
  EXPECT_EQ(released, 1);
  {
    Array mixed = interop::external_view(kFake + 100, {2, 3}, {-40, 8}, DType::Float64, 0, [&] { ++released; });
    EXPECT_EQ(mixed.buffer()->ptr(), kFake + 60);
    EXPECT_EQ(mixed.buffer()->nbytes(), 40u + 16 + 8);
    Array empty = interop::external_view(nullptr, {0, 5}, {40, 8}, DType::Float64, 0, [&] { ++released; });
    EXPECT_EQ(empty.buffer()->nbytes(), 0u);
    EXPECT_EQ(empty.size(), 0);
  }
  EXPECT_EQ(released, 3);
}

TEST(Interop, EmptyDevicePointerViewNeedsNoDevice) {
  int released = 0;
  {
    Array a =
        interop::from_device_pointer(0, {4, 0}, std::nullopt, DType::Int16, std::nullopt, false, [&] { ++released; });
    EXPECT_EQ(a.shape(), (Shape{4, 0}));
    EXPECT_EQ(a.size(), 0);
  }
  EXPECT_EQ(released, 1);
  EXPECT_THAT(message_of<cuarray::ValueError>([] {
                interop::from_device_pointer(0, {2, 0}, Strides{8}, DType::Int16, std::nullopt, false, [] {});
              }),
              HasSubstr("do not match shape (2, 0)"));
}

TEST(Interop, ImportRefusedBeforeTheDevice) {
  std::int64_t shape[2] = {2, 3};
  DLTensor t{kFake, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, nullptr, 0};
  int released = 0;
  auto release = [&] { ++released; };
  EXPECT_THAT(message_of<BufferError>([&] { interop::from_dlpack(t, release); }), HasSubstr("host memory"));
  t.device = {kDLCUDAHost, 0};
  EXPECT_THAT(message_of<BufferError>([&] { interop::from_dlpack(t, release); }), HasSubstr("host memory"));
  t.device = {4, 0};
  EXPECT_THAT(message_of<BufferError>([&] { interop::from_dlpack(t, release); }), HasSubstr("device type 4"));
  t.device = {kDLCUDA, 0};
  t.dtype = {kDLFloat, 8, 1};
  EXPECT_THAT(message_of<TypeError>([&] { interop::from_dlpack(t, release); }), HasSubstr("float8"));
  t.dtype = {kDLFloat, 32, 1};
  t.shape = nullptr;
  EXPECT_THAT(message_of<BufferError>([&] { interop::from_dlpack(t, release); }), HasSubstr("without a shape"));
  EXPECT_EQ(released, 0);  // a refused import leaves the tensor to its producer
}

TEST(Interop, HandOffRefusesStreamZero) {
  EXPECT_NO_THROW(interop::hand_off(0, -1));  // the consumer asked for no ordering: no CUDA call
  EXPECT_THAT(message_of<cuarray::ValueError>([] { interop::hand_off(0, 0); }), HasSubstr("0 is ambiguous"));
}

}  // namespace
