// Sorting and searching in NumPy's order: a block-level bitonic sort for short rows, an LSD radix sort with
// 8-bit digits for long ones (one histogram pass, then one single-pass scatter per digit), and binary search.
//
// Note [Sort order]
// NumPy sorts NaNs last and treats -0.0 and 0.0 as equal; complex values compare by real part, then
// imaginary part, with those containing NaNs last in the order R + Rj, R + nanj, nan + Rj, nan + nanj.
// sort_less is that order. The radix sort reads digits of an unsigned key with the same order, computed
// from each value as it is read: the sign flipped for integers, the bits flipped for negative floats,
// -0.0 read as 0.0 and every NaN as the largest key (so they tie, and stable order keeps them as they
// came). Values themselves move unchanged, so -0.0 and NaN payloads survive. Complex keys have two
// extra top bits (real is NaN, imaginary is NaN) above the real and imaginary parts' keys.
//
// Note [Radix sort pass]
// One histogram kernel counts every pass's digits in a single read of the keys (blocks count a span of a
// row into shared counters, then add them to the row's); then one kernel per nontrivial digit scatters.
// Each block takes the next tile (kRadixBlock * items keys of one row) from a global counter and ranks its
// keys by digit: warps rank their keys 32 at a time with ballots on the digit's bits (peers with the same
// digit in lower lanes come first), into per-warp counters. The ranking is most of the pass's instructions,
// so whole tiles (all but a row's last) skip its bounds checks. A scan over warps and digits gives every key
// its place in the tile. Thread d publishes the tile's count of digit d (flag A), stages the keys in shared
// memory in sorted order, and looks back over earlier tiles of the row for the count before it, reading
// kRadixWindow of their status words at once and stopping at the nearest inclusive count (flag P); then it
// publishes its own inclusive count (flag P). Reading a window at a time matters: P flags travel down the
// row only as fast as a look-back can reach the last one, which one status at a time made the limit on
// the whole pass. Every tile a block waits on was taken earlier, by a block already running, so the waits
// end. Keys are written from the stage, so each digit's run is stored contiguously; their digits are staged
// beside them, not computed from the keys again. Every pass is stable, so the passes together are.
#pragma once

#include "cuarray/strided.cuh"
#include "cuarray/types.cuh"
#include "cuarray/warp.cuh"

namespace ca {

// ---- order (Note [Sort order]) ----

template <class T>
__device__ __forceinline__ bool sort_less(T a, T b) {
  if constexpr (is_complex_v<T>) {
    if (a.re < b.re) return a.im == a.im || b.im != b.im;
    if (a.re > b.re) return b.im != b.im && a.im == a.im;
    if (a.re == b.re || (a.re != a.re && b.re != b.re)) return a.im < b.im || (b.im != b.im && a.im == a.im);
    return b.re != b.re;
  } else if constexpr (is_low_precision_v<T>) {
    return sort_less(static_cast<float>(a), static_cast<float>(b));
  } else if constexpr (is_floating_v<T>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}

template <int Bytes>
struct unsigned_bits;
template <>
struct unsigned_bits<1> {
  using type = unsigned char;
};
template <>
struct unsigned_bits<2> {
  using type = unsigned short;
};
template <>
struct unsigned_bits<4> {
  using type = unsigned int;
};
template <>
struct unsigned_bits<8> {
  using type = unsigned long long;
};

template <class T>
struct is_signed_int {
  static constexpr bool value = T(-1) < T(0);
};

// The order key of a binary16/bfloat16/float32/float64 bit pattern: `exponent` and `mantissa` masks.
template <class U>
__device__ __forceinline__ U float_key(U bits, U exponent, U mantissa) {
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  if ((bits & exponent) == exponent && (bits & mantissa)) return U(~U(0));  // NaN
  if (!(bits & U(~sign))) bits = 0;                                         // -0.0
  return (bits & sign) ? U(~bits) : U(bits | sign);
}

__device__ __forceinline__ unsigned float_key(float x) {
  return float_key<unsigned>(__float_as_uint(x), 0x7f800000u, 0x007fffffu);
}
__device__ __forceinline__ unsigned long long float_key(double x) {
  return float_key<unsigned long long>(static_cast<unsigned long long>(__double_as_longlong(x)), 0x7ff0000000000000ull,
                                       0x000fffffffffffffull);
}

// Digits per key: one per byte, and one more for complex (its NaN bits).
template <class T>
struct radix_digits {
  static constexpr int value = sizeof(T);
};
template <class R>
struct radix_digits<complex<R>> {
  static constexpr int value = 2 * sizeof(R) + 1;
};

// Digit `pass` (0: least significant) of x's order key.
template <class T>
__device__ __forceinline__ unsigned radix_digit(T x, int pass) {
  const int shift = 8 * pass;
  if constexpr (is_same_v<T, bool>) {
    return x ? 1u : 0u;
  } else if constexpr (is_same_v<T, half>) {
    return (float_key<unsigned short>(x.bits, 0x7c00u, 0x03ffu) >> shift) & 0xffu;
  } else if constexpr (is_same_v<T, bfloat16>) {
    return (float_key<unsigned short>(x.bits, 0x7f80u, 0x007fu) >> shift) & 0xffu;
  } else if constexpr (is_same_v<T, float> || is_same_v<T, double>) {
    return static_cast<unsigned>(float_key(x) >> shift) & 0xffu;
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    constexpr int part = static_cast<int>(sizeof(R));  // digits of each part's key
    const bool re_nan = x.re != x.re, im_nan = x.im != x.im;
    if (pass == 2 * part) return (re_nan ? 2u : 0u) | (im_nan ? 1u : 0u);
    const bool low = pass < part;
    if (low ? im_nan : re_nan) return 0u;  // the NaN bits order these; the part itself does not count
    return static_cast<unsigned>(float_key(low ? x.im : x.re) >> (8 * (low ? pass : pass - part))) & 0xffu;
  } else {
    using U = typename unsigned_bits<sizeof(T)>::type;
    U u = static_cast<U>(x);
    if constexpr (is_signed_int<T>::value) u ^= U(U(1) << (8 * sizeof(T) - 1));
    return static_cast<unsigned>(u >> shift) & 0xffu;
  }
}

// ---- short rows: bitonic sort in shared memory ----

constexpr int kSegmentCapacity = 2048;  // elements per block; launched with kSegmentCapacity / 2 threads

// (value, index) pairs in NumPy's order, ties by index (so the sort is stable); indices >= n are padding,
// after everything.
template <class T>
__device__ __forceinline__ bool segment_less(T av, int ai, T bv, int bi, int n) {
  const bool ap = ai >= n, bp = bi >= n;
  if (ap || bp) return ap == bp ? ai < bi : bp;
  if (sort_less(av, bv)) return true;
  if (sort_less(bv, av)) return false;
  return ai < bi;
}

// Sorts rows of n <= kSegmentCapacity contiguous elements, kSegmentCapacity / p rows per block, where p is
// the power of two at least n. Writes the sorted values and/or the permutation.
template <class T, bool Keys, bool Indices>
__device__ void segment_sort(const T* in, T* keys_out, long long* idx_out, long long rows, int n, int p) {
  __shared__ T sv[kSegmentCapacity];
  __shared__ int si[kSegmentCapacity];
  const int per_block = kSegmentCapacity / p;
  const long long row0 = static_cast<long long>(blockIdx.x) * per_block;
  for (int e = threadIdx.x; e < kSegmentCapacity; e += blockDim.x) {
    const int j = e % p;
    const long long row = row0 + e / p;
    const bool real = j < n && row < rows;
    si[e] = real ? j : n + j;
    if (real) sv[e] = in[row * n + j];
  }
  __syncthreads();
  for (int k = 2; k <= p; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int t = threadIdx.x; t < kSegmentCapacity / 2; t += blockDim.x) {
        const int i = 2 * t - (t & (j - 1)), q = i + j;
        const bool up = ((i & (p - 1)) & k) == 0;
        if (segment_less(sv[q], si[q], sv[i], si[i], n) == up) {
          T v = sv[i];
          sv[i] = sv[q];
          sv[q] = v;
          int x = si[i];
          si[i] = si[q];
          si[q] = x;
        }
      }
      __syncthreads();
    }
  }
  for (int e = threadIdx.x; e < kSegmentCapacity; e += blockDim.x) {
    const int j = e % p;
    const long long row = row0 + e / p;
    if (j >= n || row >= rows) continue;
    if constexpr (Keys) keys_out[row * n + j] = sv[e];
    if constexpr (Indices) idx_out[row * n + j] = si[e];
  }
}

// ---- long rows: LSD radix sort (Note [Radix sort pass]) ----

constexpr int kRadixBlock = 256;
constexpr unsigned kRadixFlagA = 1u << 30, kRadixFlagP = 2u << 30, kRadixCount = (1u << 30) - 1;
constexpr int kRadixWindow = 16;                   // earlier tiles a digit's thread reads at once when it looks back
constexpr int kHistogramSpan = 256 * kRadixBlock;  // keys of one row per histogram block

template <class T>
constexpr int radix_items = sizeof(T) <= 4   ? 16
                            : sizeof(T) == 8 ? 12
                                             : 8;  // keys per thread
// Blocks of radix_pass per SM that its launch bounds ask registers for: 4 (64 registers) keep
// enough 4-byte keys loading while other blocks rank or wait; wider keys need more registers.
template <class T>
constexpr int radix_min_blocks = sizeof(T) <= 4 ? 4 : 3;

// hist[row][pass][digit] += the count of each digit of every pass, for kHistogramSpan keys of one row per
// block (blocks_per_row blocks to a row). Lanes count into kCopies copies of the counters in turn, so that
// keys sharing a digit (the top byte of floats of one magnitude, say) contend less for one counter.
template <class T>
__device__ void radix_histogram(const T* keys, long long n, long long blocks_per_row, unsigned* hist) {
  constexpr int kPasses = radix_digits<T>::value, kBatch = 8;
  constexpr int kCopies = 8192 / (kPasses * 256) > 8 ? 8 : (8192 / (kPasses * 256) < 1 ? 1 : 8192 / (kPasses * 256));
  __shared__ unsigned counts[kCopies][kPasses * 256];
  for (int e = threadIdx.x; e < kCopies * kPasses * 256; e += kRadixBlock) (&counts[0][0])[e] = 0;
  __syncthreads();
  const long long row = blockIdx.x / blocks_per_row, b = blockIdx.x - row * blocks_per_row;
  const long long end = (b + 1) * kHistogramSpan < n ? (b + 1) * kHistogramSpan : n;
  const T* src = keys + row * n;
  unsigned* mine = counts[lane_id() % kCopies];
  for (long long i0 = b * kHistogramSpan + threadIdx.x; i0 < end; i0 += kBatch * kRadixBlock) {
    T x[kBatch];  // loaded together, then counted
#pragma unroll
    for (int k = 0; k < kBatch; ++k)
      if (i0 + k * kRadixBlock < end) x[k] = src[i0 + k * kRadixBlock];
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      if (i0 + k * kRadixBlock >= end) break;
#pragma unroll
      for (int p = 0; p < kPasses; ++p) atomicAdd(&mine[p * 256 + radix_digit(x[k], p)], 1u);
    }
  }
  __syncthreads();
  unsigned* out = hist + row * kPasses * 256;
  for (int e = threadIdx.x; e < kPasses * 256; e += kRadixBlock) {
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < kCopies; ++k) c += counts[k][e];
    if (c) atomicAdd(out + e, c);
  }
}

// In place: each (row, pass) histogram becomes its exclusive scan (where each digit's keys start in the
// row); nontrivial[pass] is set when a row's keys have more than one digit in that pass. One block of
// kRadixBlock threads per (row, pass).
__device__ inline void radix_offsets(unsigned* hist, long long n, int passes, unsigned* nontrivial) {
  __shared__ unsigned scratch[kRadixBlock / 32];
  unsigned* h = hist + static_cast<long long>(blockIdx.x) * 256;
  const unsigned c = h[threadIdx.x];
  unsigned total;
  const unsigned start = block_exclusive_scan<SumOp, kRadixBlock>(c, scratch, total);
  h[threadIdx.x] = start;
  if (c != 0 && c != static_cast<unsigned long long>(n)) atomicOr(nontrivial + blockIdx.x % passes, 1u);
}

// The count of digit d in the tiles of the row before `tile` (the t-th of its row), from their status
// words (flag | count); kRadixWindow tiles are read at once, and the nearest inclusive count (flag P) ends
// the walk. A status of 0 is a tile whose block has started (tiles are taken in order) but not yet counted.
__device__ __forceinline__ unsigned radix_lookback(const unsigned* status, long long tile, long long t, int d) {
  const volatile unsigned* vstatus = status;
  const long long row_first = tile - t;
  unsigned before = 0;
  for (long long p = tile - 1;; p -= kRadixWindow) {
    unsigned s[kRadixWindow];
#pragma unroll
    for (int j = 0; j < kRadixWindow; ++j) s[j] = p - j >= row_first ? vstatus[(p - j) * 256 + d] : kRadixFlagP;
#pragma unroll
    for (int j = 0; j < kRadixWindow; ++j) {
      while (s[j] == 0) s[j] = vstatus[(p - j) * 256 + d];
      before += s[j] & kRadixCount;
      if (s[j] & kRadixFlagP) return before;
    }
  }
}

// The lanes whose `bit` of x equals this lane's. In PTX so that the bit stays one predicate, used by the vote
// and then to complement it: from C++ the compiler derives the bit again for a select (7 instructions a bit
// instead of about 3 on sm_90).
__device__ __forceinline__ unsigned same_bit_lanes(unsigned x, unsigned bit) {
  unsigned lanes;
  asm("{\n\t.reg .pred p;\n\t"
      "and.b32 %0, %1, %2;\n\t"
      "setp.ne.u32 p, %0, 0;\n\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
      "@!p not.b32 %0, %0;\n\t}"
      : "=r"(lanes)
      : "r"(x), "r"(bit));
  return lanes;
}

// Loads a thread's keys (src[j * 32], those with j * 32 < limit) and ranks each among its warp's keys with the
// same digit, counting them in the warp's `counts`: rank = (place among them) | digit << 16. Full: the tile is
// whole (every tile of a row but its last), so no key needs its bounds checked.
template <class T, int kItems, bool Full>
__device__ __forceinline__ void radix_rank(const T* src, int limit, int pass, unsigned* counts, T (&key)[kItems],
                                           unsigned (&rank)[kItems]) {
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (Full || j * 32 < limit) key[j] = src[j * 32];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const bool valid = Full || j * 32 < limit;
    const unsigned d = valid ? radix_digit(key[j], pass) : 0u;
    unsigned peers = Full ? kFullWarp : __ballot_sync(kFullWarp, valid);
#pragma unroll
    for (int b = 0; b < 8; ++b) peers &= same_bit_lanes(d, 1u << b);
    unsigned base = 0;
    if (valid) base = counts[d];
    __syncwarp();
    const unsigned below = __popc(peers & lanes_below());
    if (valid && below == 0) counts[d] = base + __popc(peers);
    __syncwarp();
    rank[j] = (base + below) | (d << 16);  // the digit rides along (ranks < 2^16), not computed again
  }
}

// One pass: scatters keys (and int64 values: read, or the keys' original indices when Iota) by digit `pass`.
// offsets: the row-major [row][passes][256] exclusive digit starts; status: [tiles][256], zeroed.
template <class T, bool Values, bool Iota>
__device__ void radix_pass(const T* keys_in, T* keys_out, const long long* vals_in, long long* vals_out, long long n,
                           long long tiles_per_row, const unsigned* offsets, int passes, int pass, unsigned* status,
                           unsigned* counter) {
  constexpr int kItems = radix_items<T>, kTile = kRadixBlock * kItems, kWarps = kRadixBlock / 32;
  constexpr int kStage = Values && sizeof(T) < 8 ? 8 * kTile : static_cast<int>(sizeof(T)) * kTile;
  __shared__ alignas(16) unsigned char stage[kStage];
  __shared__ unsigned char sdigit[kTile];  // each staged key's digit
  __shared__ unsigned warp_counts[kWarps][256];
  __shared__ unsigned digit_start[256];
  __shared__ long long digit_shift[256];  // a staged key's slot + digit_shift[its digit] = its place in keys_out
  __shared__ unsigned scratch[kWarps];
  __shared__ long long s_tile;
  T* skeys = reinterpret_cast<T*>(stage);
  long long* svals = reinterpret_cast<long long*>(stage);

  const int lane = lane_id(), warp = warp_id(), d0 = threadIdx.x;  // thread d0 looks after digit d0
  if (threadIdx.x == 0) s_tile = static_cast<long long>(atomicAdd(counter, 1u));
  for (int e = lane; e < 256; e += 32) warp_counts[warp][e] = 0;
  __syncthreads();
  const long long tile = s_tile, row = tile / tiles_per_row, t = tile - row * tiles_per_row;
  const int in_tile = static_cast<int>(n - t * kTile < kTile ? n - t * kTile : kTile);
  // Key j of this thread is the tile's key warp * 32 * kItems + j * 32 + lane; it exists when j * 32 < limit.
  const int limit = in_tile - warp * 32 * kItems - lane;
  const long long first = row * n + t * kTile + warp * 32 * kItems + lane;  // key 0 in the row-major input

  // Load the thread's keys together, then rank each among the warp's keys with the same digit (Note [Radix
  // sort pass]).
  T key[kItems];
  unsigned rank[kItems];
  if (in_tile == kTile)
    radix_rank<T, kItems, true>(keys_in + first, limit, pass, warp_counts[warp], key, rank);
  else
    radix_rank<T, kItems, false>(keys_in + first, limit, pass, warp_counts[warp], key, rank);
  __syncthreads();

  // Digit d0: where each warp's keys start among the tile's, and the tile's count; publish it.
  unsigned count = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const unsigned c = warp_counts[w][d0];
    warp_counts[w][d0] = count;
    count += c;
  }
  volatile unsigned* vstatus = status;
  vstatus[tile * 256 + d0] = (t == 0 ? kRadixFlagP : kRadixFlagA) | count;
  unsigned tile_total;
  const unsigned start = block_exclusive_scan<SumOp, kRadixBlock>(count, scratch, tile_total);
  digit_start[d0] = start;
  __syncthreads();

  // Stage the keys in sorted order; their registers are free while the look-back waits.
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (j * 32 >= limit) continue;
    const unsigned d = rank[j] >> 16;
    rank[j] = (rank[j] & 0xffffu) + digit_start[d] + warp_counts[warp][d];
    skeys[rank[j]] = key[j];
    sdigit[rank[j]] = static_cast<unsigned char>(d);
  }

  // The keys of digit d0 in earlier tiles of the row; then this tile's inclusive count.
  unsigned before = 0;
  if (t > 0) {
    before = radix_lookback(status, tile, t, d0);
    vstatus[tile * 256 + d0] = kRadixFlagP | (before + count);
  }
  digit_shift[d0] = row * n + offsets[(row * passes + pass) * 256 + d0] + before - start;
  __syncthreads();

  // Write each digit's run to its place, in order.
  unsigned char slot_digit[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int i = k * kRadixBlock + threadIdx.x;
    if (i >= in_tile) continue;
    const T x = skeys[i];
    const unsigned d = sdigit[i];
    slot_digit[k] = static_cast<unsigned char>(d);
    keys_out[digit_shift[d] + i] = x;
  }
  if constexpr (Values) {
    __syncthreads();  // the stage is reused for the values
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      if (j * 32 >= limit) continue;
      svals[rank[j]] = Iota ? first - row * n + j * 32 : vals_in[first + j * 32];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int i = k * kRadixBlock + threadIdx.x;
      if (i >= in_tile) continue;
      vals_out[digit_shift[slot_digit[k]] + i] = svals[i];
    }
  }
}

// ---- searching ----

// out[i] = where v[i] would go in the sorted a (through `sorter` when given): before equal elements (left)
// or after them (right).
template <class T, bool Right>
__device__ void search_sorted(const T* a, long long n, const long long* sorter, const T* v, long long m, long long* out,
                              int* bad_sorter) {
  for (long long i = global_thread<long long>(); i < m; i += grid_threads<long long>()) {
    const T x = v[i];
    long long lo = 0, hi = n;
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      long long at = mid;
      if (sorter) {
        at = sorter[mid];
        if (at < 0 || at >= n) {  // NumPy's "Sorter index out of range.", for the entries a search reads
          *bad_sorter = 1;
          break;
        }
      }
      const T y = a[at];
      if (Right ? !sort_less(x, y) : sort_less(y, x))
        lo = mid + 1;
      else
        hi = mid;
    }
    out[i] = lo;
  }
}

}  // namespace ca
