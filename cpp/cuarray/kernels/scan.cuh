// Cumulative sums and products along one axis (cumsum, cumprod, nancumsum, nancumprod): a single-pass
// tile scan with decoupled look-back for long rows, and one thread per row for many short strided rows.
//
// Note [Single-pass scan]
// Each block takes the next tile from a global counter (so every tile it waits on belongs to a block that
// started earlier and will finish), scans it, publishes its aggregate (flag 1) and then, once it has
// combined its predecessors', its inclusive prefix (flag 2). Warp 0 looks back 32 tiles at a time: the
// nearest tile with a prefix ends the walk. The look-back bounds the whole scan: a status word's store and
// loads queue behind the SM's streaming traffic, so a tile waits longer for its prefix than for its own
// loads, holding its registers meanwhile. Reading 64 or 128 tiles a round, or a look-back warp polling while
// the others load, did not help; more data a block did: 128 threads of 24 chunks (384 bytes of accumulators a
// thread) brought cumsum closer to copy bandwidth for float32 and float64 (the figures of this Note and of
// the scan's other Notes: benchmarks/README.md, "Measurements behind the Notes"). A 4-byte accumulator shares one
// 64-bit word with its flag, so a look-back read is one load; wider ones are stored before a fence and the
// flag after it, and readers spin on the flag, fence, and read the value from L2. Tiles never span rows; a
// row's first tile needs no look-back.
//
// Note [Scan chunks]
// A warp scans 32 * K * V consecutive elements of its tile as K chunks (K = scan_staged + kScanChunks, Note
// [Staged chunks]); in a chunk, lane l holds the V consecutive elements from l * V (V = 16 / sizeof(C): one
// 16-byte vector of accumulators). A lane scans its V elements alone, then one warp scan of the lanes'
// totals places them, so shuffles cost 7 / V per element. Contiguous, aligned rows move each lane's V
// elements as one vector access; others fall back to V strided scalar accesses.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/complex.cuh"
#include "cuarray/math.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/vector.cuh"
#include "cuarray/warp.cuh"

namespace ca {

// maximum.accumulate and minimum.accumulate: NumPy's maximum and minimum (a NaN propagates), which are
// associative, from the type's lowest (highest) value, for data stored as S. Ties keep what NumPy's loop for
// S keeps: the later element for float32 and float64, the running value for float16 and complex.
template <bool Max, class S = void>
struct ExtremeOp {
  template <class T>
  static __device__ __forceinline__ T apply(T a, T b) {
    if constexpr (Max)
      return maximum<S>(a, b);
    else
      return minimum<S>(a, b);
  }
  template <class T>
  static __device__ __forceinline__ T identity() {
    if constexpr (Max)
      return lowest<T>();
    else
      return highest<T>();
  }
  template <class T>
  static __device__ __forceinline__ T nan_stand_in() {
    return identity<T>();
  }
};

template <class T>
__device__ __forceinline__ bool is_nan_value(T x) {
  if constexpr (is_complex_v<T>)
    return x.re != x.re || x.im != x.im;
  else if constexpr (is_floating_v<T>) {
    typename arith<T>::type f = static_cast<typename arith<T>::type>(x);
    return f != f;
  } else
    return false;
}

// An input element as the accumulator type C: cast to the output type O first, as NumPy casts the input
// to the loop type; the nan- variants read NaN as NumPy's replacement (Note [Negative zero as the additive
// identity] in warp.cuh).
template <class C, class O, class Op, bool SkipNan, class T>
__device__ __forceinline__ C scan_value(T x) {
  if constexpr (SkipNan) {
    if (is_nan_value(x)) return Op::template nan_stand_in<C>();
  }
  return cast<C>(cast<O>(x));
}

template <class T, class O, class C, class Op, bool SkipNan>
__device__ __forceinline__ C scan_load(const char* p) {
  return scan_value<C, O, Op, SkipNan>(*reinterpret_cast<const T*>(p));
}

// ---- look-back status (Note [Single-pass scan]) ----

constexpr int kScanAggregate = 1, kScanPrefix = 2;

// One 64-bit word per tile: the flag in the high half, the accumulator's bits in the low half.
template <class C>
struct PackedScanStatus {
  static_assert(sizeof(C) == 4, "a packed status holds a 4-byte accumulator");
  union Bits {
    C value;
    unsigned bits;
  };
  unsigned long long* words;
  __device__ void publish(long long tile, int flag, C value) {
    Bits b;
    b.value = value;
    const unsigned long long w = (static_cast<unsigned long long>(flag) << 32) | b.bits;
    reinterpret_cast<volatile unsigned long long*>(words)[tile] = w;
  }
  __device__ int read(long long tile, C& value) {  // spins until the tile has published
    unsigned long long w;
    do {
      w = reinterpret_cast<volatile unsigned long long*>(words)[tile];
    } while ((w >> 32) == 0);
    Bits b;
    b.bits = static_cast<unsigned>(w);
    value = b.value;
    return static_cast<int>(w >> 32);
  }
};

// A flag per tile, and the aggregate and the prefix in arrays of their own, ordered by fences.
template <class C>
struct SplitScanStatus {
  int* flags;
  C* aggregates;
  C* prefixes;
  __device__ void publish(long long tile, int flag, C value) {
    (flag == kScanPrefix ? prefixes : aggregates)[tile] = value;
    __threadfence();
    reinterpret_cast<volatile int*>(flags)[tile] = flag;
  }
  __device__ int read(long long tile, C& value) {
    int f;
    do {
      f = reinterpret_cast<volatile int*>(flags)[tile];
    } while (f == 0);
    __threadfence();
    value = load_cg((f == kScanPrefix ? prefixes : aggregates) + tile);
    return f;
  }
};

template <class C>
constexpr bool kPackedScanStatus = sizeof(C) <= 4;

// The status of `tiles` tiles in `scratch`, laid out as the host sized it (ops/scan.cpp): packed words, or
// flags (padded to 16 bytes), aggregates, prefixes. Only the words or the flags need zeroing.
template <class C>
__device__ __forceinline__ auto scan_status(char* scratch, long long tiles) {
  if constexpr (kPackedScanStatus<C>) {
    return PackedScanStatus<C>{reinterpret_cast<unsigned long long*>(scratch)};
  } else {
    C* aggregates = reinterpret_cast<C*>(scratch + (4 * tiles + 15) / 16 * 16);
    return SplitScanStatus<C>{reinterpret_cast<int*>(scratch), aggregates, aggregates + tiles};
  }
}

// Warp 0 of tile `tile` (the t-th of its row) combines its predecessors' values; returns the exclusive
// prefix in every lane and publishes the tile's inclusive prefix. Note [Single-pass scan].
template <class Op, class C, class Status>
__device__ C scan_lookback(long long tile, long long t, C aggregate, Status status) {
  const int lane = lane_id();
  if (t == 0) {
    if (lane == 0) status.publish(tile, kScanPrefix, aggregate);
    return Op::template identity<C>();
  }
  if (lane == 0) status.publish(tile, kScanAggregate, aggregate);
  C exclusive = Op::template identity<C>();
  for (long long p = t - 1;; p -= 32) {
    const long long q = p - lane;  // index of the examined tile within the row
    int f = kScanPrefix;
    C value = Op::template identity<C>();
    if (q >= 0) f = status.read(tile - t + q, value);
    const unsigned done = __ballot_sync(kFullWarp, f == kScanPrefix);
    if (done && lane > __ffs(done) - 1) value = Op::template identity<C>();
    // Lane l holds tile p - l: the window comes before the tiles combined so far.
    exclusive = Op::apply(warp_reduce_high_first<Op>(value), exclusive);
    if (done) break;
  }
  if (lane == 0) status.publish(tile, kScanPrefix, Op::apply(exclusive, aggregate));
  return exclusive;
}

// ---- tiles (Note [Scan chunks]) ----

constexpr int kScanBlock = 128;
constexpr int kScanChunks = 24;  // chunks a lane holds in registers
constexpr int kScanStaged = 16;  // chunks a lane stages in shared memory (Note [Staged chunks])
template <class C>
constexpr int scan_vector = sizeof(C) >= 16 ? 1 : 16 / static_cast<int>(sizeof(C));
// Staged chunks: where a lane's input in a chunk is one asynchronous copy (4, 8 or 16 bytes).
template <class T, class C>
constexpr int scan_staged =
    scan_vector<C> * sizeof(T) == 4 || scan_vector<C> * sizeof(T) == 8 || scan_vector<C> * sizeof(T) == 16 ? kScanStaged
                                                                                                           : 0;
// A tile: kScanBlock * (kScanChunks + scan_staged) * scan_vector<C> elements of one row (ops/scan.cpp sizes
// it the same).
template <class T, class C>
constexpr int scan_tile = kScanBlock*(kScanChunks + scan_staged<T, C>)*scan_vector<C>;

// Scans a chunk's V values in place: the lane's own, then across the warp, after the warp's running `carry`.
template <class Op, int V, class C>
__device__ __forceinline__ void scan_chunk(C (&w)[V], C& carry) {
  const int lane = lane_id();
#pragma unroll
  for (int e = 1; e < V; ++e) w[e] = Op::apply(w[e - 1], w[e]);
  const C inclusive = warp_inclusive_scan<Op>(w[V - 1]);
  C before = shfl_up(inclusive, 1);
  before = lane == 0 ? carry : Op::apply(carry, before);
#pragma unroll
  for (int e = 0; e < V; ++e) w[e] = Op::apply(before, w[e]);
  carry = Op::apply(carry, shfl_idx(inclusive, 31));
}

// Note [Staged chunks]
// A warp's first S chunks go to shared memory by asynchronous copies, which hold no registers while in flight; the
// other kScanChunks stay in registers. A block then keeps more of its tile in flight and in hand while it waits for its
// prefix (Note [Single-pass scan]). That brought a large cumsum closer to copy bandwidth, float64 most (a stand-alone
// copy of this kernel, with the layout fixed at compile time, came closer still for float32: what the library's build
// of it still lacks is not known). Each lane reads back only the 16 bytes it staged (the input, later its scanned
// values), so the copies need no barrier, only the wait for the lane's own.

// A lane's staged chunks: chunk, warp, lane, element.
template <class T, class C>
using ScanStage = C[scan_staged<T, C> > 0 ? scan_staged<T, C> : 1][kScanBlock / 32][32][scan_vector<C>];

// Tile `t` (of tile number `tile`) of the row at src/dst. Full: the tile lies inside the row, whose layout is
// Vector, so no access needs a bound check (Note [Full tiles]).
template <class T, class O, class C, class Op, bool SkipNan, bool Vector, bool Full>
__device__ __forceinline__ void scan_tile_body(const char* src, char* dst, long long n, long long in_step,
                                               long long out_step, long long tile, long long t, char* scratch,
                                               long long tiles, C* s_warp, C& s_prefix, ScanStage<T, C>& s_stage) {
  constexpr int V = scan_vector<C>, kWarps = kScanBlock / 32, S = scan_staged<T, C>, R = kScanChunks;
  const int lane = lane_id(), warp = warp_id();
  // Element v of this lane in chunk c is first + c * 32 * V + v; chunks below S are staged.
  const long long first = t * scan_tile<T, C> + (static_cast<long long>(warp) * (S + R) * 32 + lane) * V;
  // The lane's V elements, as one vector.
  auto whole = [&](long long i) { return Full || (Vector && i + V <= n); };
  auto load_scalars = [&](long long i, C(&w)[V]) {
#pragma unroll
    for (int e = 0; e < V; ++e)
      w[e] = i + e < n ? scan_load<T, O, C, Op, SkipNan>(src + (i + e) * in_step) : Op::template identity<C>();
  };

  // Start every load first, so that all of the thread's loads are in flight together: staged chunks hold
  // the input (T) when copied whole, else its values as C.
  if constexpr (S > 0) {
#pragma unroll
    for (int c = 0; c < S; ++c) {
      const long long i = first + c * 32 * V;
      if (whole(i))
        copy_async<V * sizeof(T)>(s_stage[c][warp][lane], reinterpret_cast<const T*>(src) + i);
      else
        load_scalars(i, s_stage[c][warp][lane]);
    }
    commit_async_copies();
  }
  C v[R][V];
#pragma unroll
  for (int c = 0; c < R; ++c) {
    const long long i = first + (S + c) * 32 * V;
    if (whole(i)) {
      T x[V];
      load<V, true, T, T>(reinterpret_cast<const T*>(src) + i, x);
#pragma unroll
      for (int e = 0; e < V; ++e) v[c][e] = scan_value<C, O, Op, SkipNan>(x[e]);
    } else {
      load_scalars(i, v[c]);
    }
  }
  wait_async_copies();

  // Scan the chunks in order, carrying the warp's running value; staged ones are scanned in place.
  C carry = Op::template identity<C>();
#pragma unroll
  for (int c = 0; c < S; ++c) {
    C w[V];
    if (whole(first + c * 32 * V)) {
      T x[V];
      load<V, true, T, T>(reinterpret_cast<const T*>(s_stage[c][warp][lane]), x);
#pragma unroll
      for (int e = 0; e < V; ++e) w[e] = scan_value<C, O, Op, SkipNan>(x[e]);
    } else {
      load<V, true, C, C>(s_stage[c][warp][lane], w);
    }
    scan_chunk<Op>(w, carry);
    store<V, true, C, C>(s_stage[c][warp][lane], w);
  }
#pragma unroll
  for (int c = 0; c < R; ++c) scan_chunk<Op>(v[c], carry);
  if (lane == 0) s_warp[warp] = carry;
  __syncthreads();
  C before = Op::template identity<C>(), aggregate = Op::template identity<C>();
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    C s = s_warp[w];
    if (w < warp) before = Op::apply(before, s);
    aggregate = Op::apply(aggregate, s);
  }
  if (warp == 0) {
    C exclusive = scan_lookback<Op>(tile, t, aggregate, scan_status<C>(scratch, tiles));
    if (lane == 0) s_prefix = exclusive;
  }
  __syncthreads();
  const C prefix = Op::apply(s_prefix, before);
  auto store_chunk = [&](long long i, const C(&w)[V]) {
    O y[V];
#pragma unroll
    for (int e = 0; e < V; ++e) y[e] = cast<O>(Op::apply(prefix, w[e]));
    if (whole(i)) {
      store<V, true, O, O>(reinterpret_cast<O*>(dst) + i, y);
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e)
        if (i + e < n) *reinterpret_cast<O*>(dst + (i + e) * out_step) = y[e];
    }
  };
#pragma unroll
  for (int c = 0; c < S; ++c) {
    C w[V];
    load<V, true, C, C>(s_stage[c][warp][lane], w);
    store_chunk(first + c * 32 * V, w);
  }
#pragma unroll
  for (int c = 0; c < R; ++c) store_chunk(first + (S + c) * 32 * V, v[c]);
}

// Rows of `n` elements; element i of row r is at in + off_in(r) + i * in_step (bytes), likewise out.
// Vector: every row is contiguous and aligned to scan_vector<C> elements of T and of O (a template argument,
// so that the contiguous kernel carries no strided accesses). Launched with
// kScanBlock threads and one block per tile (tiles_per_row for each row, `tiles` in all); `scratch` holds
// the tiles' status (scan_status) and `counter` the next tile to take, both zeroed.
//
// Note [Full tiles]
// A tile wholly inside a contiguous row needs no bound check: its body is compiled a second time without
// them, where the input is narrower than the accumulator (float16 into float, int32 into int64). There
// each check guarded V scalar loads and casts kept beside every vector access, which made the kernel
// issue-bound: without them a large cumsum of float16, and of int32 into int64, came far closer to copy
// bandwidth. Wider inputs keep the one body: with two, complex64 and float32 lost bandwidth.
template <class T, class O, class C, class Op, bool SkipNan, int N, bool Vector>
__device__ void scan_tiles(const char* in, char* out, const Strided<N, 2>& rows, long long n, long long in_step,
                           long long out_step, long long tiles_per_row, long long tiles, char* scratch,
                           unsigned long long* counter) {
  // Separate arrays: gathered in one struct, they cost complex64 cumsum 4 points of copy bandwidth.
  __shared__ long long s_tile;
  __shared__ C s_warp[kScanBlock / 32];
  __shared__ C s_prefix;
  __shared__ __align__(16) ScanStage<T, C> s_stage;
  if (threadIdx.x == 0) s_tile = static_cast<long long>(atomicAdd(counter, 1ull));
  __syncthreads();
  const long long tile = s_tile, row = tile / tiles_per_row, t = tile - row * tiles_per_row;
  long long off[2];
  offsets<long long, N, 2>(rows, row, off);
  const char* src = in + off[0];
  char* dst = out + off[1];
  if constexpr (Vector && sizeof(T) < sizeof(C)) {
    // The same for the whole block, so the barriers inside are reached by every thread.
    if ((t + 1) * scan_tile<T, C> <= n) {
      scan_tile_body<T, O, C, Op, SkipNan, true, true>(src, dst, n, in_step, out_step, tile, t, scratch, tiles, s_warp,
                                                       s_prefix, s_stage);
      return;
    }
  }
  scan_tile_body<T, O, C, Op, SkipNan, Vector, false>(src, dst, n, in_step, out_step, tile, t, scratch, tiles, s_warp,
                                                      s_prefix, s_stage);
}

// One thread per row, for many rows whose neighbours (not whose elements) are adjacent in memory.
template <class T, class O, class C, class Op, bool SkipNan, int N>
__device__ void scan_rows(const char* in, char* out, const Strided<N, 2>& rows, long long nrows, long long n,
                          long long in_step, long long out_step) {
  for (long long r = global_thread<long long>(); r < nrows; r += grid_threads<long long>()) {
    long long off[2];
    offsets<long long, N, 2>(rows, r, off);
    C acc = Op::template identity<C>();
    for (long long i = 0; i < n; ++i) {
      acc = Op::apply(acc, scan_load<T, O, C, Op, SkipNan>(in + off[0] + i * in_step));
      *reinterpret_cast<O*>(out + off[1] + i * out_step) = cast<O>(acc);
    }
  }
}

}  // namespace ca
