// tests/backends/cuda/cufft_test.cpp: finding and loading cuFFT (src/backends/cuda/cufft.cpp).
// Needs libcufft where the CUDA toolkit puts it, not a GPU; the transforms themselves run in
// tests/device/fft_test.cpp and tests/python/array/test_fft.py on the CUDA backend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/cuda/cufft.hpp"
#include "gpukit/error.hpp"
#include "support/scoped_environment.hpp"

namespace gpukit {
namespace {

using testing::ScopedEnvironment;

TEST(Cufft, MissingLibraryNamesItAndHowToInstallIt) {
    ScopedEnvironment environment("GPUKIT_CUFFT", "/nonexistent/libcufft.so.12");
    try {
        detail::cuda::probe_cufft();
        FAIL() << "a nonexistent GPUKIT_CUFFT loaded";
    } catch (const BackendUnavailableError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("libcufft"), std::string::npos) << message;
        EXPECT_NE(message.find("/nonexistent/libcufft.so.12"), std::string::npos) << message;
        EXPECT_NE(message.find("pip install nvidia-cufft-cu13"), std::string::npos) << message;
        EXPECT_NE(message.find("GPUKIT_CUFFT"), std::string::npos) << message;
    }
}

TEST(Cufft, GpukitCufftAloneIsTried) {
    ScopedEnvironment environment("GPUKIT_CUFFT", "/some/where/libcufft.so");
    EXPECT_EQ(detail::cuda::cufft_candidates(), std::vector<std::string>{"/some/where/libcufft.so"});
}

TEST(Cufft, LoadsAndNamesItsVersion) {
    std::string identity;
    try {
        identity = detail::cuda::probe_cufft();
    } catch (const BackendUnavailableError& e) {
        GTEST_SKIP() << "cuFFT is not installed here: " << e.what();
    }
    EXPECT_EQ(identity.rfind("cuFFT ", 0), 0u) << identity;
    EXPECT_NE(identity.find("libcufft"), std::string::npos) << identity;
    EXPECT_EQ(identity.find("version unknown"), std::string::npos) << identity;
}

}  // namespace
}  // namespace gpukit
