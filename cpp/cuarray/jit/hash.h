// A fast 128-bit, non-cryptographic hash for kernel-cache keys and cache-file checksums.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace cuarray::jit {

struct Hash128 {
  std::uint64_t lo = 0x9E3779B97F4A7C15ull, hi = 0xC2B2AE3D27D4EB4Full;

  // Mixes `data` in; order matters, and every call is delimited by its length.
  Hash128& add(std::string_view data) {
    for (unsigned char c : data) {
      lo = (lo ^ c) * 0x100000001B3ull;
      hi = (hi ^ c) * 0x100000001B3ull ^ (lo >> 29);
    }
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
};

}  // namespace cuarray::jit
