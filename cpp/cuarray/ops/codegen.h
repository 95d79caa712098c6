// Text helpers shared by the kernel generators: the types generated code computes in, and the casts
// that load operands into a loop's type and store results from it.
#pragma once

#include <string>
#include <vector>

#include "cuarray/dtype.h"

namespace cuarray::ops {

// The type expressions compute in: float for the 16-bit floats, the loop type otherwise.
const char* compute_type(DType t);

// The type generated code reads an operand stored as `t` through: ca::bool_byte for bool, whose bytes need not
// be 0 or 1 (Note [Reading bools] in kernels/types.cuh), the storage type otherwise.
const char* read_type(DType t);

// A value of storage type `from` read as loop type `loop`, in loop `loop`'s compute type.
std::string load_expr(const std::string& value, DType from, DType loop);

// A value computed in loop type `loop` converted for storage as `to`.
std::string store_expr(const std::string& value, DType loop, DType to);

// `items` with `separator` between them.
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

}  // namespace cuarray::ops
