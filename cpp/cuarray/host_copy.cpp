#include "cuarray/host_copy.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace cuarray {

namespace {

constexpr std::size_t kParallelPart = std::size_t(1) << 20;  // below this a single memcpy is faster
constexpr std::size_t kPage = 4096;

class CopyThreads {
 public:
  static CopyThreads& instance() {
    static CopyThreads* p = new CopyThreads;  // never destroyed; its threads sleep until the process ends
    return *p;
  }

  // src null: prefault dst.
  void run(char* dst, const char* src, std::size_t n) {
    std::size_t parts = std::min<std::size_t>(workers_ + 1, n / kParallelPart);
    // Note [Shared copy threads]: the threads serve one caller at a time.
    std::unique_lock<std::mutex> caller(caller_, std::try_to_lock);
    if (parts <= 1 || !caller) {
      execute({dst, src, n});
      return;
    }
    std::size_t part = (n / parts + 63) / 64 * 64;
    std::unique_lock<std::mutex> lock(mutex_);
    for (std::size_t off = part; off < n; off += part)
      jobs_.push_back({dst + off, src ? src + off : nullptr, std::min(part, n - off)});
    pending_ = jobs_.size();
    lock.unlock();
    work_.notify_all();
    execute({dst, src, std::min(part, n)});
    lock.lock();
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  struct Job {
    char* dst;
    const char* src;  // null: prefault
    std::size_t n;
  };

  static void execute(const Job& job) {
    if (job.src) {
      std::memcpy(job.dst, job.src, job.n);
      return;
    }
    for (std::size_t off = 0; off < job.n; off += kPage) static_cast<volatile char*>(job.dst)[off] = 0;
  }

  CopyThreads() : workers_(std::min(7u, std::max(1u, std::thread::hardware_concurrency() / 2))) {
    for (unsigned i = 0; i < workers_; ++i) std::thread([this] { loop(); }).detach();
  }

  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_.wait(lock, [this] { return !jobs_.empty(); });
      Job job = jobs_.back();
      jobs_.pop_back();
      lock.unlock();
      execute(job);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  unsigned workers_;
  std::mutex caller_;  // held by the one caller whose parts the threads copy
  std::mutex mutex_;   // guards jobs_ and pending_
  std::condition_variable work_, done_;
  std::vector<Job> jobs_;
  std::size_t pending_ = 0;
};

}  // namespace

void host_copy(void* dst, const void* src, std::size_t n) {
  if (n < 2 * kParallelPart)
    std::memcpy(dst, src, n);
  else
    CopyThreads::instance().run(static_cast<char*>(dst), static_cast<const char*>(src), n);
}

void prefault_pages(void* dst, std::size_t n) { CopyThreads::instance().run(static_cast<char*>(dst), nullptr, n); }

}  // namespace cuarray
