// Random samples on the device: the distributions, drawn from Philox streams (Note [Random streams]), and
// the pieces of a random permutation (keys, a bitonic sort, a row gather).
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/philox.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/vector.cuh"

namespace ca {

// A distribution parameter: one value, or one per output element (a contiguous float64 array). Kernels for
// calls whose parameters are all values take Arrays = false: no per-element loads or index arithmetic.
template <bool Arrays>
struct Param {
  const double* ptr;
  double value;
  __device__ __forceinline__ double at(long long i) const {
    if constexpr (Arrays) return ptr ? ptr[i] : value;
    return value;
  }
};

// Fills out[0, n), four elements per work item. `idx` gives each of the four its element index for
// per-element parameters, clamped to n - 1 in a last, partial group. `aligned`: out suits vector stores.
template <class T, class Dist, class Index>
__device__ void random_fill(T* out, Index n, unsigned long long seed, unsigned long long offset, bool aligned,
                            const Dist& d) {
  const Index groups = n / 4 + (n % 4 != 0), stride = grid_threads<Index>();
  // Whole groups of an aligned output first: vector stores, no per-element bounds. The rest (the last,
  // partial group, or all of an unaligned output) continue each thread's sequence of groups.
  const Index whole = aligned ? n / 4 : 0;
  Index g = global_thread<Index>();
  for (; g < whole; g += stride) {
    Stream s(seed, offset + static_cast<unsigned long long>(g));
    long long idx[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) idx[j] = g * 4 + j;
    T v[4];
    d(s, idx, v);
    store<4, true>(out + g * 4, v);
  }
  for (; g < groups; g += stride) {
    Stream s(seed, offset + static_cast<unsigned long long>(g));
    const Index base = g * 4;
    long long idx[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) idx[j] = base + j < n ? base + j : n - 1;
    T v[4];
    d(s, idx, v);
    for (int j = 0; j < 4 && base + j < n; ++j) out[base + j] = v[j];
  }
}

// Four uniforms on [0, 1): 24 bits each for float (one draw), 53 for double (two draws).
template <class T>
__device__ __forceinline__ void uniform4(Stream& s, T (&u)[4]) {
  const uint4 a = s.next4();
  if constexpr (is_same_v<T, float>) {
    u[0] = unit24(a.x), u[1] = unit24(a.y), u[2] = unit24(a.z), u[3] = unit24(a.w);
  } else {
    const uint4 b = s.next4();
    u[0] = unit53(a.x, a.y), u[1] = unit53(a.z, a.w), u[2] = unit53(b.x, b.y), u[3] = unit53(b.z, b.w);
  }
}

// low + (high - low) * u, in T (NumPy's uniform).
template <class T, bool Arrays>
struct Uniform {
  Param<Arrays> low, high;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    T u[4];
    uniform4(s, u);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const T lo = static_cast<T>(low.at(idx[j]));
      v[j] = lo + (static_cast<T>(high.at(idx[j])) - lo) * u[j];
    }
  }
};

template <class T, bool Arrays>
struct Normal {
  Param<Arrays> loc, scale;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    T z[4];
    const uint4 a = s.next4();
    if constexpr (is_same_v<T, float> && !Arrays) {  // loc and scale fold into the transform
      const float lo = static_cast<float>(loc.value), sc = static_cast<float>(scale.value);
      box_muller_fast(a.x, a.y, lo, sc, v[0], v[1]);
      box_muller_fast(a.z, a.w, lo, sc, v[2], v[3]);
      return;
    } else if constexpr (is_same_v<T, float>) {
      box_muller_fast(a.x, a.y, 0.0f, 1.0f, z[0], z[1]);
      box_muller_fast(a.z, a.w, 0.0f, 1.0f, z[2], z[3]);
    } else {
      const uint4 b = s.next4();
      box_muller(1.0 - unit53(a.x, a.y), unit53(a.z, a.w), z[0], z[1]);
      box_muller(1.0 - unit53(b.x, b.y), unit53(b.z, b.w), z[2], z[3]);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = static_cast<T>(loc.at(idx[j])) + static_cast<T>(scale.at(idx[j])) * z[j];
  }
};

// scale * -log(1 - u).
template <class T, bool Arrays>
struct Exponential {
  Param<Arrays> scale;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    T u[4];
    uniform4(s, u);
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = static_cast<T>(scale.at(idx[j])) * -::log1p(-u[j]);
  }
};

// Marsaglia and Tsang's rejection method (ACM TOMS 26(3), 2000) for shape k >= 1.
__device__ inline double gamma_marsaglia_tsang(Stream& s, double k) {
  const double d = k - 1.0 / 3.0, c = 1.0 / ::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = s.uniform(), x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (::log(u) < 0.5 * x2 + d * (1.0 - v + ::log(v))) return d * v;
  }
}

// Shape 0 is a point mass at 0; below 1, G(k) = G(k + 1) * U^(1/k). A NaN shape gives NaN (never a
// rejection loop that cannot end).
__device__ inline double standard_gamma(Stream& s, double k) {
  if (!(k >= 0.0)) return k - k;
  if (k == 0.0) return 0.0;
  if (k < 1.0) {
    const double u = s.uniform();
    return gamma_marsaglia_tsang(s, k + 1.0) * ::pow(u, 1.0 / k);
  }
  return gamma_marsaglia_tsang(s, k);
}

template <class T, bool Arrays>
struct Gamma {
  Param<Arrays> shape, scale;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    for (int j = 0; j < 4; ++j) v[j] = static_cast<T>(scale.at(idx[j]) * standard_gamma(s, shape.at(idx[j])));
  }
};

// Johnk's algorithm when both shapes are at most 1 (in logs when X + Y underflows), else a ratio of gammas.
__device__ inline double beta(Stream& s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    for (;;) {
      const double u = s.uniform(), w = s.uniform();
      const double x = ::pow(u, 1.0 / a), y = ::pow(w, 1.0 / b), sum = x + y;
      if (sum <= 1.0 && u + w > 0.0) {
        if (sum > 0.0) return x / sum;
        double lx = ::log(u) / a, ly = ::log(w) / b;
        const double m = lx > ly ? lx : ly;
        lx -= m;
        ly -= m;
        return ::exp(lx - ::log(::exp(lx) + ::exp(ly)));
      }
    }
  }
  const double x = standard_gamma(s, a), y = standard_gamma(s, b);
  return x / (x + y);
}

template <class T, bool Arrays>
struct Beta {
  Param<Arrays> a, b;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    for (int j = 0; j < 4; ++j) v[j] = static_cast<T>(beta(s, a.at(idx[j]), b.at(idx[j])));
  }
};

// Products of uniforms below lam = 10, else Hoermann's transformed rejection PTRS ("The transformed
// rejection method for generating Poisson random variables", 1993). lam is checked on the host.
__device__ inline long long poisson(Stream& s, double lam) {
  if (lam < 10.0) {
    const double limit = ::exp(-lam);
    long long k = 0;
    for (double prod = s.uniform(); prod > limit; prod *= s.uniform()) ++k;
    return k;
  }
  const double slam = ::sqrt(lam), loglam = ::log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = s.uniform() - 0.5, v = s.uniform(), us = 0.5 - ::fabs(u);
    const double k = ::floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<long long>(k);
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (::log(v) + ::log(inv_alpha) - ::log(a / (us * us) + b) <= -lam + k * loglam - ::lgamma(k + 1.0))
      return static_cast<long long>(k);
  }
}

template <class T, bool Arrays>
struct Poisson {
  Param<Arrays> lam;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    for (int j = 0; j < 4; ++j) v[j] = static_cast<T>(poisson(s, lam.at(idx[j])));
  }
};

// For p <= 1/2: inversion (sequential search from 0) when n p < 10, else Hoermann's BTRS ("The generation of
// binomial random variates", 1993). n and p are checked on the host.
__device__ inline double binomial_half(Stream& s, double n, double p) {
  const double q = 1.0 - p, np = n * p;
  if (np < 10.0) {
    const double ratio = p / q, a = (n + 1.0) * ratio, first = ::pow(q, n);
    const double bound = ::fmin(n, np + 10.0 * ::sqrt(np * q + 1.0));
    for (;;) {
      double u = s.uniform(), pmf = first, x = 0.0;
      while (u > pmf && x <= bound) {
        u -= pmf;
        x += 1.0;
        pmf *= a / x - ratio;
      }
      if (x <= bound) return x;
    }
  }
  const double spq = ::sqrt(np * q), b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = np + 0.5, vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = ::log(p / q);
  const double m = ::floor((n + 1.0) * p), h = ::lgamma(m + 1.0) + ::lgamma(n - m + 1.0);
  for (;;) {
    const double u = s.uniform() - 0.5, us = 0.5 - ::fabs(u);
    double v = s.uniform();
    const double k = ::floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = ::log(v * alpha / (a / (us * us) + b));
    if (v <= h - ::lgamma(k + 1.0) - ::lgamma(n - k + 1.0) + (k - m) * lpq) return k;
  }
}

template <class T, bool Arrays>
struct Binomial {
  Param<Arrays> n, p;
  __device__ void operator()(Stream& s, const long long (&idx)[4], T (&v)[4]) const {
    for (int j = 0; j < 4; ++j) {
      const double nj = n.at(idx[j]), pj = p.at(idx[j]);
      const double k = pj <= 0.5 ? binomial_half(s, nj, pj) : nj - binomial_half(s, nj, 1.0 - pj);
      v[j] = static_cast<T>(static_cast<long long>(k));
    }
  }
};

// Uniform on [0, range] by masked rejection, as NumPy's legacy randint (exactly uniform).
__device__ inline unsigned long long bounded(Stream& s, unsigned long long range) {
  if (range == 0) return 0;
  if (range <= 0xffffffffull) {
    const unsigned r = static_cast<unsigned>(range), mask = 0xffffffffu >> __clz(r);
    unsigned x;
    do x = s.next32() & mask;
    while (x > r);
    return x;
  }
  const unsigned long long mask = ~0ull >> __clzll(static_cast<long long>(range));
  unsigned long long x;
  do x = s.next64() & mask;
  while (x > range);
  return x;
}

// low + a uniform integer in [0, range], wrapped to T (bool: 0 or 1).
template <class T>
struct Integers {
  unsigned long long low, range;
  __device__ void operator()(Stream& s, const long long (&)[4], T (&v)[4]) const {
    for (int j = 0; j < 4; ++j) v[j] = static_cast<T>(low + bounded(s, range));
  }
};

// The first index whose cumulative probability exceeds a uniform (NumPy's choice with p: searchsorted right).
struct FromCdf {
  const double* cdf;
  long long size;
  __device__ void operator()(Stream& s, const long long (&)[4], long long (&v)[4]) const {
    for (int j = 0; j < 4; ++j) {
      const double u = s.uniform();
      long long lo = 0, hi = size - 1;
      while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (cdf[mid] > u)
          hi = mid;
        else
          lo = mid + 1;
      }
      v[j] = lo;
    }
  }
};

// A random permutation sorts random 63-bit keys, one stream per element; padding to `count` (a power of two)
// takes the largest key, so it sorts last.
template <class Index>
__device__ void permutation_keys(unsigned long long* keys, long long* vals, Index n, Index count,
                                 unsigned long long seed, unsigned long long offset) {
  for (Index i = global_thread<Index>(); i < count; i += grid_threads<Index>()) {
    if (i < n) {
      Stream s(seed, offset + static_cast<unsigned long long>(i));
      keys[i] = s.next64() >> 1;
    } else {
      keys[i] = ~0ull;
    }
    vals[i] = i;
  }
}

__device__ __forceinline__ void compare_exchange(unsigned long long* keys, long long* vals, long long i, long long l,
                                                 bool up) {
  const unsigned long long a = keys[i], b = keys[l];
  if ((a > b) == up) {
    keys[i] = b, keys[l] = a;
    const long long t = vals[i];
    vals[i] = vals[l], vals[l] = t;
  }
}

// One step (k, j) of a bitonic sort of `count` keys ascending, one thread per pair; j >= kBitonicBlock.
constexpr int kBitonicBlock = 1024;  // elements sorted in shared memory by one block of 512 threads

template <class Index>
__device__ void bitonic_step(unsigned long long* keys, long long* vals, Index count, Index k, Index j) {
  for (Index t = global_thread<Index>(); t < count / 2; t += grid_threads<Index>()) {
    const Index i = ((t & ~(j - 1)) << 1) | (t & (j - 1));  // t with a 0 inserted at j's bit
    compare_exchange(keys, vals, i, i | j, (i & k) == 0);
  }
}

// In shared memory, per block of kBitonicBlock elements: the steps (k, j), (k, j/2), ..., (k, 1); or, with
// `start`, every k from 2 to kBitonicBlock first (the sort's beginning).
template <class Index>
__device__ void bitonic_block(unsigned long long* keys, long long* vals, Index k, Index j, bool start) {
  __shared__ unsigned long long sk[kBitonicBlock];
  __shared__ long long sv[kBitonicBlock];
  const Index base = static_cast<Index>(blockIdx.x) * kBitonicBlock;
  for (int e = threadIdx.x; e < kBitonicBlock; e += blockDim.x) sk[e] = keys[base + e], sv[e] = vals[base + e];
  __syncthreads();
  const int t = threadIdx.x;
  for (Index kk = start ? 2 : k; kk <= (start ? kBitonicBlock : k); kk <<= 1) {
    for (int jj = start ? static_cast<int>(kk / 2) : static_cast<int>(j); jj > 0; jj >>= 1) {
      const int i = ((t & ~(jj - 1)) << 1) | (t & (jj - 1));
      compare_exchange(sk, sv, i, i | jj, ((base + i) & kk) == 0);
      __syncthreads();
    }
  }
  for (int e = threadIdx.x; e < kBitonicBlock; e += blockDim.x) keys[base + e] = sk[e], vals[base + e] = sv[e];
}

// dst row r = src row index[r], rows of `words` W-sized words (shuffle, permutation and choice of arrays).
template <class W, class Index>
__device__ void gather_rows(W* dst, const W* src, const long long* index, Index rows, Index words) {
  const Index n = rows * words;
  for (Index e = global_thread<Index>(); e < n; e += grid_threads<Index>()) {
    const Index r = e / words, w = e - r * words;
    dst[e] = src[static_cast<Index>(index[r]) * words + w];
  }
}

}  // namespace ca
