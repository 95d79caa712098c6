// cuda::Buffer's watch hook without a device (Note [Automatic fusion] in cuarray/ops/auto_fusion.h): a buffer a
// recorded chain watches calls the hook when its last owner drops it, before its memory is released; a chain that
// owns the buffer too keeps it, and the program's drop then releases and calls nothing. Buffers hold fake
// addresses that are never dereferenced.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "cuarray/cuda/memory_pool.h"

namespace {

using cuarray::cuda::Buffer;

void* const kFake = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});

int g_hook_calls = 0;
int g_released_at_hook = -1;
std::shared_ptr<int>* g_released = nullptr;

void count_hook(Buffer* dying) noexcept {
  ++g_hook_calls;
  g_released_at_hook = *(*g_released);
  dying->set_watched(0);
}

class WatchHook : public ::testing::Test {
 protected:
  void SetUp() override {
    g_hook_calls = 0;
    g_released_at_hook = -1;
    g_released = &released;
    Buffer::set_watch_hook(&count_hook);
  }
  void TearDown() override {
    Buffer::set_watch_hook(nullptr);
    g_released = nullptr;
  }
  std::shared_ptr<int> released = std::make_shared<int>(0);
};

TEST_F(WatchHook, AWatchedBufferCallsTheHookBeforeItsRelease) {
  {
    auto b = std::make_shared<Buffer>(kFake, 512, 0, [r = released] { ++*r; });
    b->set_watched(2);
  }
  EXPECT_EQ(g_hook_calls, 1);
  EXPECT_EQ(g_released_at_hook, 0);  // the memory was still there when the hook ran
  EXPECT_EQ(*released, 1);           // and released once, after it
}

TEST_F(WatchHook, AnUnwatchedBufferReleasesWithoutTheHook) {
  {
    auto b = std::make_shared<Buffer>(kFake, 512, 0, [r = released] { ++*r; });
  }
  EXPECT_EQ(g_hook_calls, 0);
  EXPECT_EQ(*released, 1);
}

TEST_F(WatchHook, AnotherOwnerKeepsTheMemoryAndTheHookWaitsForIt) {
  auto program = std::make_shared<Buffer>(kFake, 512, 0, [r = released] { ++*r; });
  program->set_watched(2);
  std::shared_ptr<Buffer> chain = program;  // a chain that read the value owns it too
  program.reset();                          // the program drops its array: nothing happens
  EXPECT_EQ(g_hook_calls, 0);
  EXPECT_EQ(*released, 0);
  EXPECT_EQ(chain.use_count(), 1);  // the chain is the last owner: the value is dead at its flush
  chain->set_watched(0);            // the flush stops watching it before letting it go
  chain.reset();
  EXPECT_EQ(g_hook_calls, 0);
  EXPECT_EQ(*released, 1);
}

}  // namespace
