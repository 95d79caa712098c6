#include "cuarray/dtype.h"

#include "cuarray/error.h"

namespace cuarray {

namespace {

struct Info {
  const char* name;
  const char* cuda;
  int size;
  Kind kind;
};

// Indexed by DType.
constexpr Info kInfo[kNumDTypes] = {
    {"bool", "bool", 1, Kind::Bool},
    {"int8", "signed char", 1, Kind::Signed},
    {"int16", "short", 2, Kind::Signed},
    {"int32", "int", 4, Kind::Signed},
    {"int64", "long long", 8, Kind::Signed},
    {"uint8", "unsigned char", 1, Kind::Unsigned},
    {"uint16", "unsigned short", 2, Kind::Unsigned},
    {"uint32", "unsigned int", 4, Kind::Unsigned},
    {"uint64", "unsigned long long", 8, Kind::Unsigned},
    {"float16", "ca::half", 2, Kind::Float},
    {"bfloat16", "ca::bfloat16", 2, Kind::Float},
    {"float32", "float", 4, Kind::Float},
    {"float64", "double", 8, Kind::Float},
    {"complex64", "ca::complex<float>", 8, Kind::Complex},
    {"complex128", "ca::complex<double>", 16, Kind::Complex},
    {"datetime64[D]", nullptr, 8, Kind::Datetime},
    {"datetime64[s]", nullptr, 8, Kind::Datetime},
    {"datetime64[ms]", nullptr, 8, Kind::Datetime},
    {"datetime64[us]", nullptr, 8, Kind::Datetime},
    {"datetime64[ns]", nullptr, 8, Kind::Datetime},
    {"timedelta64[D]", nullptr, 8, Kind::Timedelta},
    {"timedelta64[h]", nullptr, 8, Kind::Timedelta},
    {"timedelta64[m]", nullptr, 8, Kind::Timedelta},
    {"timedelta64[s]", nullptr, 8, Kind::Timedelta},
    {"timedelta64[ms]", nullptr, 8, Kind::Timedelta},
    {"timedelta64[us]", nullptr, 8, Kind::Timedelta},
    {"timedelta64[ns]", nullptr, 8, Kind::Timedelta},
    {"void", nullptr, 0, Kind::Void},  // the itemsize is the array's (Note [Void storage])
};

const Info& info(DType t) { return kInfo[static_cast<int>(t)]; }

}  // namespace

int itemsize(DType t) { return info(t).size; }
Kind kind(DType t) { return info(t).kind; }
const char* name(DType t) { return info(t).name; }
const char* cuda_type(DType t) {
  check_computable(t, "this operation");
  return info(t).cuda;
}

void check_computable(DType t, const char* op) {
  if (is_void(t))
    throw TypeError(std::string("cuarray does not support ") + op +
                    " on structured or void arrays: it stores them (creation, copies, fields, views, indexing, "
                    "transfers, __cuda_array_interface__) but computes nothing with them; compute on the fields "
                    "(a['name']) instead");
  if (is_time(t))
    throw TypeError(std::string("cuarray does not support ") + op + " on " + name(t) +
                    " arrays: it stores datetime64 and timedelta64 data (creation, copies, views, indexing, "
                    "transfers, __cuda_array_interface__) but computes nothing with it; .view(numpy.int64) gives the "
                    "counts (NaT is the smallest int64)");
}

DType dtype_from_name(const std::string& n) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (n == kInfo[i].name) return static_cast<DType>(i);
  throw TypeError("data type '" + n + "' not understood by cuarray");
}

}  // namespace cuarray
