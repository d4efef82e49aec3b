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
        select_backend(BackendKind::cuda);
        FAIL() << "the CUDA backend was selected without a driver";
    } catch (const BackendUnavailableError& e) {
        expect_contains(e.what(), "The CUDA driver (libcuda.so.1) was not found");
        expect_contains(e.what(), "/nonexistent/libcuda.so.1");
        expect_contains(e.what(), "GPUKIT_BACKEND=sim");
    }
    // Asked again, the same answer: the failure is remembered, and nothing crashed.
    expect_contains(backend_unavailable_reason(BackendKind::cuda), "/nonexistent/libcuda.so.1");
}

TEST(NoDriver, CompilingWithoutNvrtcNamesTheLibrary) {
    try {
        Module::compile_image("__global__ void k() {}", {}, "sm_90");
        FAIL() << "compiled without NVRTC";
    } catch (const BackendUnavailableError& e) {
        expect_contains(e.what(), "NVRTC (libnvrtc.so), the CUDA run-time compiler, was not found");
        expect_contains(e.what(), "/nonexistent/libnvrtc.so.13");
        expect_contains(e.what(), "GPUKIT_NVRTC");
    }
}

TEST(NoDriver, TheToolchainReportSaysWhatIsMissing) {
    const CudaToolchain toolchain = cuda_toolchain();
    EXPECT_TRUE(toolchain.built_in);
    EXPECT_FALSE(toolchain.headers_version.empty());
    EXPECT_TRUE(toolchain.driver.path.empty());
    EXPECT_TRUE(toolchain.driver.version.empty());
    expect_contains(toolchain.driver.problem, "/nonexistent/libcuda.so.1");
    EXPECT_TRUE(toolchain.nvrtc.path.empty());
    expect_contains(toolchain.nvrtc.problem, "/nonexistent/libnvrtc.so.13");
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

TEST(NoDriver, ParseBackendKind) {
    EXPECT_EQ(parse_backend_kind("cuda"), BackendKind::cuda);
    EXPECT_EQ(parse_backend_kind("sim"), BackendKind::sim);
    EXPECT_EQ(parse_backend_kind("auto"), BackendKind::automatic);
    EXPECT_THROW(parse_backend_kind("CUDA "), InvalidArgumentError);
}

// Last: it selects a backend for the rest of the process.
TEST(NoDriver, AutoSelectionFallsBackToTheSimulator) {
    const auto all = devices();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(selected_backend(), BackendKind::sim);
    EXPECT_EQ(all[0].properties().backend, BackendKind::sim);
    expect_contains(backend_unavailable_reason(BackendKind::cuda), "/nonexistent/libcuda.so.1");
    EXPECT_EQ(backend_unavailable_reason(BackendKind::automatic), "");
}

}  // namespace
}  // namespace gpukit
