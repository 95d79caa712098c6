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
  // Storage only (Note [Datetime storage]): NumPy's datetime64 and timedelta64 in the units below.
  Datetime64D,
  Datetime64s,
  Datetime64ms,
  Datetime64us,
  Datetime64ns,
  Timedelta64D,
  Timedelta64h,
  Timedelta64m,
  Timedelta64s,
  Timedelta64ms,
  Timedelta64us,
  Timedelta64ns,
  // Storage only (Note [Void storage]): NumPy's structured and unstructured void types, of any itemsize.
  Void,
};
// A dtype is a 5-bit operand code, beside the codes of weak scalars and "no dtype" (ops/type_resolution.h).
constexpr int kNumDTypes = 28;

enum class Kind : std::uint8_t { Bool, Signed, Unsigned, Float, Complex, Datetime, Timedelta, Void };

// Note [Datetime storage]
// datetime64 (in units D, s, ms, us, ns: dates and timestamps) and timedelta64 arrays (in units D, h, m, s, ms, us, ns;
// five bits hold no more) of native byte order are held as their 64-bit counts, for what moves bytes without reading
// them: creation from NumPy data, empty and zeros, full and fill with NumPy's conversion of the value, get, views (as
// int64 too: the counts, NaT the smallest int64), slicing, reshapes, copies to the same type, indexing and
// __cuda_array_interface__. No kernel computes on them: NaT compares unequal to everything, sorts last and propagates
// through arithmetic, and a unit change scales with overflow checks, none of which int64 code does. So cuda_type()
// refuses them with TypeError: every kernel that would read their values fails before it is built, while copies and
// fills move them as int64. The ufunc table has no loop for them, and the reductions refuse them before their
// empty-array shortcuts. Casts to other types, int64 included, are refused too (NumPy's astype(int64) gives the
// counts): code that casts its operands to int64 first, as index arrays, would read them as numbers.

// Note [Void storage]
// NumPy's void types (structured, '[('f0','<i4'),('f1','<f4')]', and unstructured, '|V8') have one DType, Void,
// whose itemsize is the array's own (Array::itemsize), not the type's: itemsize(DType::Void) is 0. An array also
// carries the number the bindings gave its NumPy dtype (Array::descr), through views and copies, so that the core
// holds no Python object. As with time types, nothing computes on them: cuda_type() refuses Void, so every kernel
// that would read the values fails before it is built. Copies, fills and transfers move the bytes: a Void array of
// itemsize n is seen as an array of n-byte units with one more axis (ops::as_units), of the widest unsigned type
// that divides the itemsize, the strides and the address. Field access, comparisons and casts between structured
// types are built in Python from views of the fields, which are arrays of the ordinary types.

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
inline bool is_time(DType t) { return kind(t) == Kind::Datetime || kind(t) == Kind::Timedelta; }
inline bool is_void(DType t) { return t == DType::Void; }
inline bool is_storage_only(DType t) { return is_time(t) || is_void(t); }
// TypeError unless `t` is one kernels compute with, naming `op`.
void check_computable(DType t, const char* op);

}  // namespace cuarray
