// translate_cucomplex=True (RawKernel, RawModule): cuComplex.h's types and functions spelled with complex<T>
// of <cupy/complex.cuh>, as CuPy's bridge header spells them, so that cuComplex code computes as cuarray's
// ufuncs do (Note [User kernel headers] in cpp/cuarray/jit/kernel_cache.cpp).
#pragma once

#include "cuarray/user_complex.cuh"

#define cuFloatComplex complex<float>
#define cuComplex complex<float>
#define cuCrealf real
#define cuCimagf imag
#define make_cuFloatComplex(A, B) complex<float>(A, B)
#define make_cuComplex(A, B) complex<float>(A, B)
#define cuConjf conj
#define cuCaddf(A, B) (A + B)
#define cuCsubf(A, B) (A - B)
#define cuCmulf(A, B) (A * B)
#define cuCdivf(A, B) (A / B)
#define cuCabsf abs
#define cuComplexDoubleToFloat complex<float>
#define cuCfmaf(A, B, C) (A * B + C)

#define cuDoubleComplex complex<double>
#define cuCreal real
#define cuCimag imag
#define make_cuDoubleComplex(A, B) complex<double>(A, B)
#define cuConj conj
#define cuCadd(A, B) (A + B)
#define cuCsub(A, B) (A - B)
#define cuCmul(A, B) (A * B)
#define cuCdiv(A, B) (A / B)
#define cuCabs abs
#define cuComplexFloatToDouble complex<double>
#define cuCfma(A, B, C) (A * B + C)
