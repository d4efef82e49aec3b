// tests/backends/cuda/no_driver/no_driver_test.cpp: what users see where the CUDA driver and
// NVRTC cannot be found: before any test runs, GPUKIT_CUDA_DRIVER and GPUKIT_NVRTC are pointed
// at files that do not exist (gpukit reads them when it first looks for the libraries).
#include <gtest/gtest.h>

#include <cstdlib>

#include "gpukit/gpukit.hpp"

namespace gpukit {
namespace {

const bool libraries_hidden = [] {
    ::setenv("GPUKIT_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    ::setenv("GPUKIT_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
    ::unsetenv("GPUKIT_BACKEND");
    return true;
}();

void expect_contains(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "message: " << text << "\nmissing: " << part;
}

TEST(NoDriver, AskingForCudaNamesWhatWasNotFound) {
    try {
        select_backend("cuda");
        FAIL() << "the CUDA backend was selected without a driver";
    } catch (const BackendUnavailableError& e) {
        expect_contains(e.what(), "The CUDA driver (libcuda.so.1) was not found");
        expect_contains(e.what(), "/nonexistent/libcuda.so.1");
        expect_contains(e.what(), "GPUKIT_BACKEND=sim");
    }
    // Asked again, the same answer: the failure is remembered, and nothing crashed.
    expect_contains(backend_unavailable_reason("cuda"), "/nonexistent/libcuda.so.1");
}

TEST(NoDriver, CompilingWithoutNvrtcNamesTheLibrary) {
    try {
        Module::compile_image("__global__ void k() {}", {}, "sm_90", "cuda");
        FAIL() << "compiled without NVRTC";
    } catch (const BackendUnavailableError& e) {
        expect_contains(e.what(), "NVRTC (libnvrtc.so), the CUDA run-time compiler, was not found");
        expect_contains(e.what(), "/nonexistent/libnvrtc.so.13");
        expect_contains(e.what(), "GPUKIT_NVRTC");
    }
}

ToolchainPart part(const std::vector<ToolchainPart>& parts, const std::string& role) {
    for (const auto& part : parts)
        if (part.role == role) return part;
    ADD_FAILURE() << "no toolchain part '" << role << "'";
    return {};
}

TEST(NoDriver, TheToolchainReportSaysWhatIsMissing) {
    const auto toolchain = backend_toolchain("cuda");
    EXPECT_FALSE(part(toolchain, "headers").version.empty());
    const ToolchainPart driver = part(toolchain, "driver");
    EXPECT_TRUE(driver.path.empty());
    EXPECT_TRUE(driver.version.empty());
    expect_contains(driver.problem, "/nonexistent/libcuda.so.1");
    const ToolchainPart nvrtc = part(toolchain, "NVRTC");
    EXPECT_TRUE(nvrtc.path.empty());
    expect_contains(nvrtc.problem, "/nonexistent/libnvrtc.so.13");
}

TEST(NoDriver, BadBackendNameInTheEnvironment) {
    ::setenv("GPUKIT_BACKEND", "gpu", 1);
    try {
        devices();
        FAIL() << "GPUKIT_BACKEND=gpu was accepted";
    } catch (const InvalidArgumentError& e) {
        expect_contains(e.what(), "GPUKIT_BACKEND=gpu: Unknown backend 'gpu': use cuda, sim or auto");
    }
    ::setenv("GPUKIT_BACKEND", "cuda", 1);
    EXPECT_THROW(devices(), BackendUnavailableError);
    ::unsetenv("GPUKIT_BACKEND");
}

TEST(NoDriver, TheBackendIsStillDescribed) {
    const BackendInfo& cuda = backend_info("cuda");
    EXPECT_TRUE(cuda.built);
    EXPECT_FALSE(cuda.capabilities.simulated);
    EXPECT_THROW(backend_info("CUDA "), InvalidArgumentError);
    EXPECT_THROW(select_backend("CUDA "), InvalidArgumentError);
}

// Last: it selects a backend for the rest of the process.
TEST(NoDriver, AutoSelectionFallsBackToTheSimulator) {
    const auto all = devices();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_TRUE(selected_backend().capabilities.simulated);
    EXPECT_EQ(all[0].properties().backend, selected_backend().name);
    expect_contains(backend_unavailable_reason("cuda"), "/nonexistent/libcuda.so.1");
    EXPECT_EQ(backend_unavailable_reason("auto"), "");
}

}  // namespace
}  // namespace gpukit
