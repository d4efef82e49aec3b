// tests/backends/cuda/nccl_test.cpp: finding and loading NCCL (src/backends/cuda/nccl.cpp). Needs
// libnccl.so.2 (the nvidia-nccl-cu13 wheel's, or GPUKIT_NCCL), not a GPU; the collectives
// themselves run in tests/device/collectives_test.cpp and tests/python/collectives on the CUDA
// backend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/cuda/nccl.hpp"
#include "gpukit/error.hpp"
#include "support/scoped_environment.hpp"

namespace gpukit {
namespace {

using testing::ScopedEnvironment;

TEST(Nccl, MissingLibraryNamesItAndHowToInstallIt) {
    ScopedEnvironment environment("GPUKIT_NCCL", "/nonexistent/libnccl.so.2");
    try {
        detail::cuda::probe_nccl();
        FAIL() << "a nonexistent GPUKIT_NCCL loaded";
    } catch (const BackendUnavailableError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("libnccl.so.2"), std::string::npos) << message;
        EXPECT_NE(message.find("/nonexistent/libnccl.so.2"), std::string::npos) << message;
        EXPECT_NE(message.find("pip install nvidia-nccl-cu13"), std::string::npos) << message;
        EXPECT_NE(message.find("GPUKIT_NCCL"), std::string::npos) << message;
    }
}

TEST(Nccl, GpukitNcclAloneIsTried) {
    ScopedEnvironment environment("GPUKIT_NCCL", "/some/where/libnccl.so.2");
    EXPECT_EQ(detail::cuda::nccl_candidates(), std::vector<std::string>{"/some/where/libnccl.so.2"});
}

TEST(Nccl, LoadsAndNamesItsVersion) {
    std::string identity;
    try {
        identity = detail::cuda::probe_nccl();
    } catch (const BackendUnavailableError& e) {
        GTEST_SKIP() << "no NCCL here (pip install nvidia-nccl-cu13, or GPUKIT_NCCL): " << e.what();
    }
    EXPECT_EQ(identity.rfind("NCCL 2.", 0), 0u) << identity;
    EXPECT_NE(identity.find("libnccl"), std::string::npos) << identity;
}

}  // namespace
}  // namespace gpukit
