// What the ufunc table's expressions (ops/ufuncs.def) and fused kernels use: NumPy's arithmetic, elementary
// functions and complex numbers, besides the elementwise kernels' support.
#pragma once

#include "cuarray/complex.cuh"
#include "cuarray/elementwise.cuh"
#include "cuarray/math.cuh"
#include "cuarray/special.cuh"
