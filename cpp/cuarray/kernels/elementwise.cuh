// Support for generated elementwise kernels: vectorised loads and stores with a cast, strided offsets, and
// the parameters of user kernels. See ops/elementwise.cpp for the kernels' shape. The ufuncs' and fused
// kernels' expressions also need ufunc.cuh; a user's ElementwiseKernel of real types includes only this, as
// each header costs every new kernel its compile time (Note [Kernel headers] in ops/elementwise.cpp).
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/vector.cuh"

namespace ca {

// A raw array parameter of a user kernel (CuPy's `raw T x`, its CArray): the array as it is, of N dimensions,
// indexed by the body itself. `x[i]` is its i-th element in C order, `x[idx]` (`ptrdiff_t idx[N]`, or `x[{j, k}]`)
// the element at one index per axis; size(), shape() and strides() (in bytes) are the array's. The host fills it
// as 3 + 2N words (ops/elementwise.cpp).
template <class T, int N>
struct Raw {
  static constexpr int ndim = N;
  T* ptr;
  ptrdiff_t n;
  ptrdiff_t c_order;  // nonzero where the array is C-contiguous: x[i] is then ptr[i]
  ptrdiff_t shape_[N];
  ptrdiff_t strides_[N];
  __device__ __forceinline__ ptrdiff_t size() const { return n; }
  __device__ __forceinline__ const ptrdiff_t* shape() const { return shape_; }
  __device__ __forceinline__ const ptrdiff_t* strides() const { return strides_; }
  __device__ __forceinline__ T& operator[](ptrdiff_t i) const {
    if (c_order) return ptr[i];
    ptrdiff_t offset = 0;
#pragma unroll
    for (int d = N - 1; d > 0; --d) {
      offset += i % shape_[d] * strides_[d];
      i /= shape_[d];
    }
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(ptr) + offset + i * strides_[0]);
  }
  template <class Int>
  __device__ __forceinline__ T& operator[](const Int (&idx)[N]) const {
    ptrdiff_t offset = 0;
#pragma unroll
    for (int d = 0; d < N; ++d) offset += static_cast<ptrdiff_t>(idx[d]) * strides_[d];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(ptr) + offset);
  }
};

// A 0-d raw array: its one element, whatever the index.
template <class T>
struct Raw<T, 0> {
  static constexpr int ndim = 0;
  T* ptr;
  ptrdiff_t n;
  ptrdiff_t c_order;
  __device__ __forceinline__ ptrdiff_t size() const { return n; }
  __device__ __forceinline__ const ptrdiff_t* shape() const { return nullptr; }
  __device__ __forceinline__ const ptrdiff_t* strides() const { return nullptr; }
  template <class Index>
  __device__ __forceinline__ T& operator[](const Index&) const {
    return *ptr;
  }
};

// `_ind.size()`: the number of elements the kernel iterates over, a ptrdiff_t as CuPy's whatever the loop's index type.
template <class Index>
struct Ind {
  Index n;
  __device__ __forceinline__ ptrdiff_t size() const { return n; }
};

template <class T>
__device__ __forceinline__ const T& at(const char* base, long long offset) {
  return *reinterpret_cast<const T*>(base + offset);
}
template <class T>
__device__ __forceinline__ T& at(char* base, long long offset) {
  return *reinterpret_cast<T*>(base + offset);
}

}  // namespace ca

// CuPy's name for a raw array's type, for device functions of a user kernel's preamble that take one.
template <class T, int N, bool CContiguous = false, bool Index32 = false>
using CArray = ca::Raw<T, N>;

namespace ca {

// Note [Elementwise loops]
// A generated elementwise kernel is an `Op` and one call of the loop of its layout class below (Note
// [Layout classes] in ops/elementwise.cpp). The Op holds the kernel's operands and the body, and
// says, one line per operand, how its values are read and written; the loops here own the iteration. The
// Op's registers for a group of elements are its nested types (Chunk, Group), declared inside the loop
// iteration that fills them, so that no value is live across iterations; every member function is
// __forceinline__, so the kernel compiles to the code a loop written out in full would. What each loop asks
// of its Op: contiguous, Chunk and Group, load_chunks, compute, store_chunks, load_group and store_one;
// strided, element; tiled, Tiles, fill_tiles and element_tiled.

// Contiguous class: a block covers blockDim.x * E elements; a thread's are E / P chunks of P, blockDim.x * P
// apart, each one 16-byte access of the widest operand. The last, partial block takes its elements
// blockDim.x apart, G at a time, the loads of a group issued before its first store (Note [Partial blocks] in
// ops/elementwise_source.cpp).
template <class Index, int E, int P, int G, class Op>
__device__ __forceinline__ void elementwise_contiguous(const Op& op, Index n) {
  const Index block_base = static_cast<Index>(blockIdx.x) * blockDim.x * E;
  if (block_base + static_cast<Index>(blockDim.x) * E <= n) {
    const Index base = block_base + threadIdx.x * P, stride = static_cast<Index>(blockDim.x) * P;
    typename Op::Chunk c;
    op.load_chunks(c, base, stride);
#pragma unroll
    for (int j = 0; j < E; ++j) op.compute(c, j);
    op.store_chunks(c, base, stride);
  } else {
    const Index first = block_base + threadIdx.x, step = blockDim.x;
#pragma unroll 1
    for (int g = 0; g < E; g += G) {
      if (first + g * step >= n) break;
      typename Op::Group v;
      op.load_group(v, first, g, step, n);
#pragma unroll
      for (int j = 0; j < G; ++j)
        if (first + (g + j) * step < n) op.store_one(v, j, first + (g + j) * step);
    }
  }
}

// The partial block's group of G elements starting at element g of a thread (those below n) from p, through
// loop type L into v.
template <int G, class L, class S, class C, class Index>
__device__ __forceinline__ void load_group(const S* p, Index first, int g, Index step, Index n, C (&v)[G]) {
#pragma unroll
  for (int j = 0; j < G; ++j)
    if (first + (g + j) * step < n) v[j] = cast<C>(cast<L>(p[first + (g + j) * step]));
}

// Strided class: one thread per element, grid-stride; off[k] is element i's byte offset in strided operand
// k (outputs first).
template <class Index, int N, int K, class Op>
__device__ __forceinline__ void elementwise_strided(const Op& op, const Strided<N, K>& strided, Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    Index off[K];
    offsets<Index, N, K>(strided, i, off);
    op.element(off, i, Ind<Index>{n});
  }
}

// The strided class without strided operands: scalars and raw arrays only.
template <class Index, class Op>
__device__ __forceinline__ void elementwise_indexed(const Op& op, Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    Index off[1] = {0};
    op.element(off, i, Ind<Index>{n});
  }
}

// Operand k's element (r, c) of the last two dimensions, from the tile plane at off[k].
template <class T, class Index, int N, int K, class Base>
__device__ __forceinline__ auto& tile_at(Base* p, const Strided<N, K>& s, const Index (&off)[K], int k, Index r,
                                         Index c) {
  return at<T>(p, off[k] + r * static_cast<Index>(s.strides[k][N - 2]) + c * static_cast<Index>(s.strides[k][N - 1]));
}

// Tiled class: T x T tiles of the last two dimensions, one batch of the others per grid z. Tiled inputs are
// read along their own unit stride (dimension N - 2) into the Op's shared tiles, then every operand is
// walked along the outputs' (N - 1). Constant trip counts, fully unrolled: every load of a tile is in flight
// at once.
template <class Index, int N, int K, int T, class Op>
__device__ __forceinline__ void elementwise_tiled(const Op& op, const Strided<N, K>& s) {
  __shared__ typename Op::Tiles tiles;
  const Index R = static_cast<Index>(s.shape[N - 2]), C = static_cast<Index>(s.shape[N - 1]);
  const Index r0 = static_cast<Index>(blockIdx.y) * T, c0 = static_cast<Index>(blockIdx.x) * T;
  // One batch per block (grid z): a loop over batches would keep every element's offsets live across it.
  Index off[K];
  offsets<Index, N, K, N - 2>(s, static_cast<Index>(blockIdx.z), off);
#pragma unroll
  for (int h = 0; h < T; h += 32)
#pragma unroll
    for (int jj = 0; jj < T; jj += 8) {
      const int j = jj + threadIdx.y;
      const Index r = r0 + h + threadIdx.x, c = c0 + j;
      if (r < R && c < C) op.fill_tiles(tiles, s, off, j, h + threadIdx.x, r, c);
    }
  __syncthreads();
#pragma unroll
  for (int h = 0; h < T; h += 32)
#pragma unroll
    for (int jj = 0; jj < T; jj += 8) {
      const int j = jj + threadIdx.y;
      const Index r = r0 + j, c = c0 + h + threadIdx.x;
      if (r < R && c < C) op.element_tiled(tiles, s, off, h + threadIdx.x, j, r, c);
    }
}

}  // namespace ca
