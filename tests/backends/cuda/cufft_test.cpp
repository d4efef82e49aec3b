// tests/backends/cuda/cufft_test.cpp: finding and loading cuFFT (src/backends/cuda/cufft.cpp).
// Needs libcufft where the CUDA toolkit puts it, not a GPU; the transforms themselves run in
// tests/device/fft_test.cpp and tests/python/array/test_fft.py on the CUDA backend.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "backends/cuda/cufft.hpp"
#include "gpukit/error.hpp"

namespace gpukit {
namespace {

// Sets an environment variable for one test, restoring what was there.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value, 1);
    }
    ~ScopedEnvironment() {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

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
