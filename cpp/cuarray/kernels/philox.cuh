// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a counter-based
// generator, so any element's numbers are computed from (key, counter) alone, on any device and grid.
#pragma once

namespace ca {

__device__ __forceinline__ uint4 philox4x32_10(uint4 c, unsigned k0, unsigned k1) {
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    const unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    const unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    c = uint4{hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// Note [Random streams]
// The key is the 64-bit seed. Each work item (a group of four output elements) owns the stream of counters
// (draw, position, 0): `position` = the state's offset + the group's index, `draw` counts the Philox calls
// the item has made. A call consumes positions [offset, offset + groups) and the host advances the offset
// past them, so no two calls or items share a counter, and the numbers depend only on (seed, offset, index).
struct Stream {
  unsigned k0, k1;
  uint4 ctr;
  uint4 buf;
  int left = 0;            // words of buf not yet used
  bool has_spare = false;  // a second Box-Muller normal is waiting in `spare`
  double spare = 0;

  __device__ Stream(unsigned long long seed, unsigned long long position)
      : k0(static_cast<unsigned>(seed)),
        k1(static_cast<unsigned>(seed >> 32)),
        ctr{0u, static_cast<unsigned>(position), static_cast<unsigned>(position >> 32), 0u} {}

  // Four fresh words (the next draw).
  __device__ __forceinline__ uint4 next4() {
    uint4 r = philox4x32_10(ctr, k0, k1);
    ++ctr.x;
    return r;
  }
  __device__ unsigned next32() {
    if (left == 0) {
      buf = next4();
      left = 4;
    }
    --left;
    return left == 3 ? buf.x : left == 2 ? buf.y : left == 1 ? buf.z : buf.w;
  }
  __device__ unsigned long long next64() {
    unsigned long long lo = next32();
    return lo | (static_cast<unsigned long long>(next32()) << 32);
  }
  // Uniform on [0, 1) with 53 random bits.
  __device__ double uniform();
  __device__ double normal();
};

// [0, 1) from 24 and 53 random bits, as NumPy forms its float32 and float64 uniforms.
__device__ __forceinline__ float unit24(unsigned w) { return static_cast<float>(w >> 8) * 0x1p-24f; }
__device__ __forceinline__ double unit53(unsigned a, unsigned b) {
  return (static_cast<double>(a >> 5) * 67108864.0 + static_cast<double>(b >> 6)) * 0x1p-53;
}

__device__ inline double Stream::uniform() {
  unsigned a = next32();
  return unit53(a, next32());
}

// Box-Muller in double: radius from u1 in (0, 1], angle from u2 in [0, 1).
__device__ __forceinline__ void box_muller(double u1, double u2, double& z0, double& z1) {
  double r = ::sqrt(-2.0 * ::log(u1)), s, c;
  ::sincospi(2.0 * u2, &s, &c);
  z0 = r * c;
  z1 = r * s;
}

__device__ inline double Stream::normal() {
  if (has_spare) {
    has_spare = false;
    return spare;
  }
  double u1 = 1.0 - uniform(), z0;
  box_muller(u1, uniform(), z0, spare);
  has_spare = true;
  return z0;
}

// Two float32 normals from two words with the hardware's approximate log2, sqrt and sincos (the float32 path
// must keep up with memory bandwidth): u1 in (0, 1] from 32 bits, the angle in [-pi, pi). u1 and -2 ln(u1)
// are never subnormal (u1 >= 2^-33), so the .ftz forms skip the subnormal fix-ups __logf and sqrtf carry.
// Returns loc + scale * z for each normal z (the scale folds into the radius).
__device__ __forceinline__ void box_muller_fast(unsigned a, unsigned b, float loc, float scale, float& z0, float& z1) {
  const float u1 = fmaf(static_cast<float>(a), 0x1p-32f, 0x1p-33f);
  float lg, r, s, c;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(lg) : "f"(u1));
  const float t = fmaxf(-1.3862943611198906f * lg, 0.0f);  // -2 ln(u1); u1 rounds up to 1 at the top
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(t));
  // The angle's uniform from 23 bits placed in a float's mantissa (m in [1, 2)): an integer-to-float
  // conversion would take the special-function unit the logarithm, square root and sincos already load.
  const float m = __uint_as_float(0x3F800000u | (b >> 9));
  __sincosf(fmaf(m, 6.283185307179586f, -9.42477796076938f), &s, &c);  // 2 pi m - 3 pi
  r *= scale;
  z0 = fmaf(r, c, loc);
  z1 = fmaf(r, s, loc);
}

}  // namespace ca
