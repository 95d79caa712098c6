// The element types cuarray supports, with their sizes, names and CUDA spellings.
#pragma once

#include <cstdint>
#include <string>

namespace cuarray {

enum class DType : std::uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};
constexpr int kNumDTypes = 15;

enum class Kind : std::uint8_t { Bool, Signed, Unsigned, Float, Complex };

int itemsize(DType t);
Kind kind(DType t);
// NumPy's name: "float32", "bfloat16", ...
const char* name(DType t);
// The type's spelling in kernel source (kernels/types.cuh): "float", "ca::half", "ca::complex<float>".
const char* cuda_type(DType t);
// Parses a NumPy name; throws TypeError for an unknown one.
DType dtype_from_name(const std::string& name);

inline bool is_complex(DType t) { return kind(t) == Kind::Complex; }
inline bool is_floating(DType t) { return kind(t) == Kind::Float; }
inline bool is_integer(DType t) { return kind(t) == Kind::Signed || kind(t) == Kind::Unsigned; }

}  // namespace cuarray
