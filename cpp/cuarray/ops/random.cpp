#include "cuarray/ops/random.h"

#include <algorithm>
#include <string>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"

namespace cuarray::ops {

namespace {

struct DistInfo {
  const char* name;
  const char* device_type;  // kernels/random.cuh's sampler
  int params;
  bool integer_output;
};

// Indexed by Distribution.
constexpr DistInfo kDists[] = {
    {"uniform", "ca::Uniform", 2, false},
    {"normal", "ca::Normal", 2, false},
    {"exponential", "ca::Exponential", 1, false},
    {"gamma", "ca::Gamma", 2, false},
    {"beta", "ca::Beta", 2, false},
    {"poisson", "ca::Poisson", 1, true},
    {"binomial", "ca::Binomial", 2, true},
};

const DistInfo& info(Distribution d) { return kDists[static_cast<int>(d)]; }

// kernels/random.cuh's Param, as the kernel receives it.
struct DeviceParam {
  const void* ptr;
  double value;
};

// Index type choice: group indices up to n + 3 must fit.
bool wide_for(std::int64_t n) { return n > INT32_MAX - 8; }

// A kernel over ca::random_fill with the sampler `dist` passed by value as its last parameter.
KernelSource fill_source(const std::string& name, DType t, bool wide, const std::string& dist) {
  std::string T = cuda_type(t), idx = index_type(wide);
  return kernel_source(
      "random.cuh", name + "_" + cuarray::name(t) + (wide ? "_w" : ""),
      T + "* out, " + idx + " n, unsigned long long seed, unsigned long long offset, bool aligned, " + dist + " d",
      "ca::random_fill(out, n, seed, offset, aligned, d);");
}

// Runs a random_fill kernel over `out`; `sampler` points at the sampler's bytes. Advances the state past the
// positions the call used.
void launch_fill(const jit::Kernel& k, const Array& out, bool wide, void* sampler, RandomState& state) {
  std::int64_t n = out.size();
  std::int64_t groups = n / 4 + (n % 4 != 0);
  void* ptr = out.data();
  bool aligned = reinterpret_cast<std::uintptr_t>(ptr) % std::min(16, 4 * out.itemsize()) == 0;
  std::int64_t n64 = n;
  int n32 = static_cast<int>(n);
  // Note [Random positions before the launch]
  // The positions are taken before the launch: launching may let other code run (it issues recorded work, which
  // can compile, log or wait for a lock with Python's released), and a draw from the same state meanwhile must
  // start past them, never at the same place.
  unsigned long long seed = state.seed, offset = state.offset;
  state.offset += static_cast<std::uint64_t>(groups);
  void* args[] = {&ptr, wide ? static_cast<void*>(&n64) : static_cast<void*>(&n32), &seed, &offset, &aligned, sampler};
  // At most 16 blocks per SM: each thread then draws many groups, so its set-up (the Philox key schedule,
  // the bounds) is spread over them; more blocks measured slower (randn 2^28 float32 on an H200: 0.86 of a
  // fill's bandwidth at 2112 blocks, 0.80 at 65536).
  dim3 grid = jit::grid_for(groups);
  const unsigned sms = static_cast<unsigned>(cuda::properties(cuda::current_device()).multiProcessorCount);
  grid.x = std::min(grid.x, 16 * sms);
  jit::launch(k, grid, dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

void check_params(Distribution dist, const Array& out, const std::vector<RandomParam>& params) {
  if (static_cast<int>(params.size()) != info(dist).params)
    throw ValueError(std::string("random ") + info(dist).name + " takes " + std::to_string(info(dist).params) +
                     " parameters");
  for (const auto& p : params) {
    if (!p.values) continue;
    const Array& v = *p.values;
    if (v.dtype() != DType::Float64 || !v.c_contiguous() || v.shape() != out.shape())
      throw ValueError("random parameters must be contiguous float64 arrays of the output's shape " +
                       shape_str(out.shape()));
    check_same_device(v, "random");
  }
}

std::string dtype_list(bool integer) { return integer ? "an integer type" : "float32 or float64"; }

}  // namespace

int parameter_count(Distribution d) { return info(d).params; }

KernelSource random_source(Distribution dist, DType t, bool wide, bool arrays) {
  return fill_source(std::string("random_") + info(dist).name + (arrays ? "_arrays" : ""), t, wide,
                     std::string(info(dist).device_type) + "<" + cuda_type(t) + (arrays ? ", true>" : ", false>"));
}

KernelSource random_integers_source(DType t, bool wide) {
  return fill_source("random_integers", t, wide, std::string("ca::Integers<") + cuda_type(t) + ">");
}

KernelSource random_choice_source(bool wide) { return fill_source("random_choice", DType::Int64, wide, "ca::FromCdf"); }

KernelSource permutation_keys_source(bool wide) {
  std::string idx = index_type(wide);
  return kernel_source("random.cuh", std::string("permutation_keys") + (wide ? "_w" : ""),
                       "unsigned long long* keys, long long* vals, " + idx + " n, " + idx +
                           " count, unsigned long long seed, unsigned long long offset",
                       "ca::permutation_keys(keys, vals, n, count, seed, offset);");
}

KernelSource bitonic_step_source(bool wide) {
  std::string idx = index_type(wide);
  return kernel_source("random.cuh", std::string("bitonic_step") + (wide ? "_w" : ""),
                       "unsigned long long* keys, long long* vals, " + idx + " count, " + idx + " k, " + idx + " j",
                       "ca::bitonic_step(keys, vals, count, k, j);");
}

KernelSource bitonic_block_source(bool wide) {
  std::string idx = index_type(wide);
  return kernel_source("random.cuh", std::string("bitonic_block") + (wide ? "_w" : ""),
                       "unsigned long long* keys, long long* vals, " + idx + " k, " + idx + " j, bool start",
                       "ca::bitonic_block(keys, vals, k, j, start);");
}

KernelSource gather_rows_source(int word_bytes, bool wide) {
  const char* word = word_bytes == 16  ? "uint4"
                     : word_bytes == 8 ? "unsigned long long"
                     : word_bytes == 4 ? "unsigned int"
                     : word_bytes == 2 ? "unsigned short"
                                       : "unsigned char";
  std::string w = word, idx = index_type(wide);
  return kernel_source("random.cuh", "gather_rows_" + std::to_string(word_bytes) + (wide ? "_w" : ""),
                       w + "* dst, const " + w + "* src, const long long* index, " + idx + " rows, " + idx + " words",
                       "ca::gather_rows(dst, src, index, rows, words);");
}

Array random(Distribution dist, const Shape& shape, DType dtype, const std::vector<RandomParam>& params,
             RandomState& state) {
  bool integer = info(dist).integer_output;
  if (integer ? !is_integer(dtype) : (dtype != DType::Float32 && dtype != DType::Float64))
    throw TypeError(std::string("random ") + info(dist).name + " produces " + dtype_list(integer) + ", not " +
                    name(dtype));
  Array out(shape, dtype);
  check_params(dist, out, params);
  if (out.size() == 0) return out;
  bool wide = wide_for(out.size());
  bool arrays = std::any_of(params.begin(), params.end(), [](const RandomParam& p) { return p.values.has_value(); });
  KernelKey key(KernelKind::Random);
  key.add(static_cast<int>(dist), 4).add(static_cast<int>(dtype), 5).add(wide, 1).add(arrays, 1);
  jit::Kernel k = cached_kernel(key, [&] { return random_source(dist, dtype, wide, arrays); });
  DeviceParam device_params[2] = {};
  for (std::size_t i = 0; i < params.size(); ++i)
    device_params[i] = {params[i].values ? params[i].values->data() : nullptr, params[i].value};
  launch_fill(k, out, wide, device_params, state);
  return out;
}

Array random_integers(const Shape& shape, DType dtype, std::uint64_t low, std::uint64_t range, RandomState& state) {
  if (!is_integer(dtype) && dtype != DType::Bool)
    throw TypeError(std::string("random integers are produced as an integer type or bool, not ") + name(dtype));
  Array out(shape, dtype);
  if (out.size() == 0) return out;
  bool wide = wide_for(out.size());
  KernelKey key(KernelKind::RandomIntegers);
  key.add(static_cast<int>(dtype), 5).add(wide, 1);
  jit::Kernel k = cached_kernel(key, [&] { return random_integers_source(dtype, wide); });
  struct {
    std::uint64_t low, range;
  } sampler{low, range};
  launch_fill(k, out, wide, &sampler, state);
  return out;
}

Array random_choice(const Shape& shape, const Array& cdf, RandomState& state) {
  if (cdf.dtype() != DType::Float64 || !cdf.c_contiguous() || cdf.ndim() != 1 || cdf.size() == 0)
    throw ValueError("random choice needs a non-empty contiguous float64 cumulative distribution");
  check_same_device(cdf, "random choice");
  Array out(shape, DType::Int64);
  if (out.size() == 0) return out;
  bool wide = wide_for(out.size());
  KernelKey key(KernelKind::RandomChoice);
  key.add(wide, 1);
  jit::Kernel k = cached_kernel(key, [&] { return random_choice_source(wide); });
  struct {
    const void* cdf;
    long long size;
  } sampler{cdf.data(), cdf.size()};
  launch_fill(k, out, wide, &sampler, state);
  return out;
}

Array random_permutation(std::int64_t n, RandomState& state) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  if (n == 0) return Array(Shape{0}, DType::Int64);
  constexpr std::int64_t kBlock = 1024;  // kernels/random.cuh's kBitonicBlock
  checked_size(Shape{n, 2}, 8);          // the keys and values, padded to a power of two below: "array is too big"
  std::int64_t count = kBlock;
  while (count < n) count *= 2;
  Array keys(Shape{count}, DType::UInt64), vals(Shape{count}, DType::Int64);
  cudaStream_t stream = cuda::current_stream()->handle();
  bool wide = count > (std::int64_t(1) << 30);
  void* kp = keys.data();
  void* vp = vals.data();
  std::int64_t v64[3];
  int v32[3];
  auto idx = [&](int slot, std::int64_t v) -> void* {
    v64[slot] = v;
    v32[slot] = static_cast<int>(v);
    return wide ? static_cast<void*>(&v64[slot]) : static_cast<void*>(&v32[slot]);
  };

  KernelKey key_keys(KernelKind::PermutationKeys);
  key_keys.add(wide, 1);
  jit::Kernel keys_kernel = cached_kernel(key_keys, [&] { return permutation_keys_source(wide); });
  unsigned long long seed = state.seed, offset = state.offset;
  state.offset += static_cast<std::uint64_t>(n);  // Note [Random positions before the launch]
  void* key_args[] = {&kp, &vp, idx(0, n), idx(1, count), &seed, &offset};
  jit::launch(keys_kernel, jit::grid_for(count), dim3(jit::kBlockSize), key_args, 0, stream);

  KernelKey key_step(KernelKind::BitonicStep), key_block(KernelKind::BitonicBlock);
  key_step.add(wide, 1);
  key_block.add(wide, 1);
  jit::Kernel step = cached_kernel(key_step, [&] { return bitonic_step_source(wide); });
  jit::Kernel block = cached_kernel(key_block, [&] { return bitonic_block_source(wide); });
  dim3 block_grid(static_cast<unsigned>(count / kBlock)), block_threads(kBlock / 2);
  bool start = true;
  void* start_args[] = {&kp, &vp, idx(0, kBlock), idx(1, kBlock / 2), &start};
  jit::launch(block, block_grid, block_threads, start_args, 0, stream);
  for (std::int64_t k = 2 * kBlock; k <= count; k *= 2) {
    for (std::int64_t j = k / 2; j >= kBlock; j /= 2) {
      void* step_args[] = {&kp, &vp, idx(0, count), idx(1, k), idx(2, j)};
      jit::launch(step, jit::grid_for(count / 2), dim3(jit::kBlockSize), step_args, 0, stream);
    }
    bool merge_start = false;
    void* merge_args[] = {&kp, &vp, idx(0, k), idx(1, kBlock / 2), &merge_start};
    jit::launch(block, block_grid, block_threads, merge_args, 0, stream);
  }
  return vals.view(Shape{n}, Strides{8});
}

void gather_rows(const Array& dst, const Array& src, const Array& index) {
  if (dst.dtype() != src.dtype() || !dst.c_contiguous() || !src.c_contiguous() || index.dtype() != DType::Int64 ||
      !index.c_contiguous() || dst.ndim() < 1 || index.ndim() != 1 || dst.shape()[0] != index.size() ||
      src.ndim() != dst.ndim() || !std::equal(dst.shape().begin() + 1, dst.shape().end(), src.shape().begin() + 1))
    throw ValueError("gather_rows: contiguous arrays of one dtype with matching rows and an int64 index expected");
  check_same_device(dst, "gather_rows");
  check_same_device(src, "gather_rows");
  check_same_device(index, "gather_rows");
  std::int64_t rows = index.size();
  if (dst.size() == 0) return;
  std::int64_t row_bytes = dst.nbytes() / rows;
  int word = 16;
  auto fits = [&](int w) {
    return row_bytes % w == 0 && reinterpret_cast<std::uintptr_t>(dst.data()) % w == 0 &&
           reinterpret_cast<std::uintptr_t>(src.data()) % w == 0;
  };
  while (word > 1 && !fits(word)) word /= 2;
  std::int64_t words = row_bytes / word;
  bool wide = std::max(dst.nbytes(), src.nbytes()) / word > INT32_MAX;
  KernelKey key(KernelKind::GatherRows);
  key.add(static_cast<std::uint64_t>(word), 5).add(wide, 1);
  jit::Kernel k = cached_kernel(key, [&] { return gather_rows_source(word, wide); });
  void* d = dst.data();
  const void* s = src.data();
  const void* ix = index.data();
  std::int64_t r64 = rows, w64 = words;
  int r32 = static_cast<int>(rows), w32 = static_cast<int>(words);
  void* args[] = {&d, &s, &ix, wide ? static_cast<void*>(&r64) : static_cast<void*>(&r32),
                  wide ? static_cast<void*>(&w64) : static_cast<void*>(&w32)};
  jit::launch(k, jit::grid_for(rows * words), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

}  // namespace cuarray::ops
