// cuda::Buffer::hand_over without a device: the memory of a dying buffer passes to a new owner, which alone
// releases it, once (Note [Automatic fusion] in cuarray/ops/auto_fusion.h: a recorded chain takes over the memory of
// a value the program dropped). Buffers hold fake addresses that are never dereferenced.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "cuarray/cuda/memory_pool.h"

namespace {

using cuarray::cuda::Buffer;

void* const kFake = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});

TEST(Buffer, HandOverMovesExternalMemoryAndItsRelease) {
  auto released = std::make_shared<int>(0);
  auto dying = std::make_shared<Buffer>(kFake, 4096, 2, [released] { ++*released; });
  std::shared_ptr<Buffer> kept = dying->hand_over();
  EXPECT_EQ(kept->ptr(), kFake);
  EXPECT_EQ(kept->nbytes(), 4096u);
  EXPECT_EQ(kept->device(), 2);
  EXPECT_FALSE(kept->pooled());
  EXPECT_EQ(dying->ptr(), nullptr);  // it owns nothing now
  dying.reset();
  EXPECT_EQ(*released, 0);  // the memory is still in use
  kept.reset();
  EXPECT_EQ(*released, 1);
}

TEST(Buffer, HandOverKeepsAPoolsBlockPooled) {
  // A pool that is never reached: the block's address is null, so neither buffer releases anything.
  auto* pool = reinterpret_cast<cuarray::cuda::MemoryPool*>(std::uintptr_t{0x1000});
  auto dying = std::make_shared<Buffer>(nullptr, 1 << 20, 1, nullptr, pool);
  std::shared_ptr<Buffer> kept = dying->hand_over();
  EXPECT_TRUE(kept->pooled());
  EXPECT_EQ(kept->nbytes(), std::size_t{1} << 20);
  EXPECT_EQ(kept->device(), 1);
}

std::shared_ptr<Buffer>* g_taken = nullptr;

void take_over(Buffer* dying) noexcept {
  dying->set_watched(0);
  *g_taken = dying->hand_over();
}

TEST(Buffer, AWatchHookTakesOverTheMemoryOfADyingBuffer) {
  auto released = std::make_shared<int>(0);
  std::shared_ptr<Buffer> taken;
  g_taken = &taken;
  Buffer::set_watch_hook(&take_over);
  {
    auto dying = std::make_shared<Buffer>(kFake, 512, 0, [released] { ++*released; });
    dying->set_watched(2);
  }  // its destructor called the hook, which took the memory: it released nothing
  Buffer::set_watch_hook(nullptr);
  g_taken = nullptr;
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->ptr(), kFake);
  EXPECT_EQ(*released, 0);
  taken.reset();
  EXPECT_EQ(*released, 1);
}

}  // namespace
