// Host copies split among the copy threads (cpp/cuarray/host_copy.h), called from several threads at once as
// staged transfers on several devices call them: every byte of every copy lands (Note [Shared copy threads]).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "cuarray/host_copy.h"

namespace {

// n bytes whose values depend on `seed`, so that one caller's bytes never pass for another's.
std::vector<std::uint32_t> pattern(std::size_t words, std::uint32_t seed) {
  std::vector<std::uint32_t> v(words);
  for (std::size_t i = 0; i < words; ++i) v[i] = seed * 2654435761u + static_cast<std::uint32_t>(i);
  return v;
}

TEST(HostCopy, SmallAndLargeCopiesLandWhole) {
  for (std::size_t bytes :
       {std::size_t(0), std::size_t(1), std::size_t(4096), std::size_t(3) << 20, (std::size_t(9) << 20) + 12}) {
    std::vector<std::uint32_t> src = pattern(bytes / 4 + 1, 7);
    std::vector<std::uint32_t> dst(src.size(), 0);
    cuarray::host_copy(dst.data(), src.data(), bytes);
    EXPECT_EQ(std::memcmp(dst.data(), src.data(), bytes), 0) << bytes << " bytes";
  }
}

TEST(HostCopy, ConcurrentCallersEachGetTheirOwnBytes) {
  constexpr int kThreads = 4, kRounds = 40;
  constexpr std::size_t kWords = (std::size_t(6) << 20) / 4 + 3;  // several parts each, not a multiple of 64
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &wrong] {
      std::vector<std::uint32_t> dst(kWords);
      for (int r = 0; r < kRounds; ++r) {
        std::vector<std::uint32_t> src = pattern(kWords, static_cast<std::uint32_t>(t * 1000 + r));
        std::fill(dst.begin(), dst.end(), 0u);
        if (r % 2) cuarray::prefault_pages(dst.data(), kWords * 4);
        cuarray::host_copy(dst.data(), src.data(), kWords * 4);
        if (dst != src) ++wrong;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0) << "copies that lost bytes to another caller";
}

}  // namespace
