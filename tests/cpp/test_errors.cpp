// check_cuda's messages: the failing call, CUDA's name for the status, the no-device sentence, and for sticky
// errors the sentence saying that the process must be restarted. No device is involved.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cuarray/error.h"
#include "test_util.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kRestart = "the CUDA context is now unusable and the process must be restarted";

std::string message(cudaError_t status) {
  return message_of<cuarray::CudaError>([status] { cuarray::check_cuda(status, "cudaStreamQuery(stream)"); });
}

TEST(CheckCuda, SuccessDoesNotThrow) { EXPECT_NO_THROW(cuarray::check_cuda(cudaSuccess, "cudaFree(p)")); }

TEST(CheckCuda, NamesTheCallAndTheStatus) {
  std::string m = message(cudaErrorInvalidValue);
  EXPECT_THAT(m, HasSubstr("cudaStreamQuery failed"));
  EXPECT_THAT(m, HasSubstr("cudaErrorInvalidValue"));
  EXPECT_THAT(m, Not(HasSubstr(kRestart)));
}

TEST(CheckCuda, CarriesTheStatusCode) {
  try {
    cuarray::check_cuda(cudaErrorIllegalAddress, "cudaStreamQuery(stream)");
    FAIL() << "did not throw";
  } catch (const cuarray::CudaError& e) {
    EXPECT_EQ(e.code(), cudaErrorIllegalAddress);
    EXPECT_EQ(e.call(), "cudaStreamQuery");
  }
}

TEST(CheckCuda, StickyErrorsSayTheProcessMustBeRestarted) {
  for (cudaError_t s : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorIllegalInstruction,
                        cudaErrorMisalignedAddress, cudaErrorHardwareStackError, cudaErrorAssert,
                        cudaErrorInvalidAddressSpace, cudaErrorInvalidPc, cudaErrorLaunchTimeout}) {
    std::string m = message(s);
    EXPECT_THAT(m, HasSubstr(kRestart)) << cudaGetErrorName(s);
    EXPECT_THAT(m, HasSubstr(cudaGetErrorName(s)));
  }
}

TEST(CheckCuda, NoDeviceSaysSo) {
  for (cudaError_t s : {cudaErrorNoDevice, cudaErrorInsufficientDriver}) {
    std::string m = message(s);
    EXPECT_THAT(m, HasSubstr("no CUDA driver or device was found")) << cudaGetErrorName(s);
    EXPECT_THAT(m, Not(HasSubstr(kRestart)));
  }
}

TEST(CheckReady, PendingIsFalseDoneIsTrueErrorsThrow) {
  EXPECT_FALSE(cuarray::check_ready(cudaErrorNotReady, "cudaStreamQuery(s)"));
  EXPECT_TRUE(cuarray::check_ready(cudaSuccess, "cudaStreamQuery(s)"));
  EXPECT_THAT(
      message_of<cuarray::CudaError>([] { cuarray::check_ready(cudaErrorIllegalAddress, "cudaEventQuery(e)"); }),
      HasSubstr(kRestart));
}

}  // namespace
