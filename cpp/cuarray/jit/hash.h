// A fast 128-bit, non-cryptographic hash for kernel-cache keys and cache-file checksums.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace cuarray::jit {

struct Hash128 {
  std::uint64_t lo = 0x9E3779B97F4A7C15ull, hi = 0xC2B2AE3D27D4EB4Full;

  // Mixes `data` in; order matters, and every call is delimited by its length. Eight bytes a step: a
  // process's first cache lookup hashes every kernel header (~150 KB), which byte steps made cost 0.5 ms.
  Hash128& add(std::string_view data) {
    const char* p = data.data();
    std::size_t n = data.size();
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      mix(w);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    mix(tail);
    lo = (lo ^ data.size()) * 0xFF51AFD7ED558CCDull;
    hi = (hi ^ (lo >> 31)) * 0xC4CEB9FE1A85EC53ull;
    return *this;
  }
  Hash128& add(std::uint64_t v) { return add(std::string_view(reinterpret_cast<const char*>(&v), sizeof v)); }

  std::string hex() const {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(hi),
                  static_cast<unsigned long long>(lo));
    return buf;
  }

 private:
  void mix(std::uint64_t w) {
    lo = rotl((lo ^ w) * 0x9E3779B97F4A7C15ull, 29);
    hi = rotl((hi + w) * 0xC2B2AE3D27D4EB4Full, 31) ^ lo;
  }
  static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
};

}  // namespace cuarray::jit
