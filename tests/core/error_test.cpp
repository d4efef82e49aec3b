// tests/core/error_test.cpp: what each exception says.
#include "gpukit/error.hpp"

#include <gtest/gtest.h>

namespace gpukit {
namespace {

TEST(CudaError, NamesActionCudaNameAndCode) {
    CudaError error("Failed to allocate 4.0 GiB on device 0 (NVIDIA H200)", "CUDA_ERROR_OUT_OF_MEMORY", 2,
                    "out of memory");
    EXPECT_STREQ(error.what(),
                 "Failed to allocate 4.0 GiB on device 0 (NVIDIA H200): CUDA_ERROR_OUT_OF_MEMORY (2): out of memory");
    EXPECT_EQ(error.code(), 2);
    EXPECT_EQ(error.name(), "CUDA_ERROR_OUT_OF_MEMORY");
    EXPECT_EQ(error.action(), "Failed to allocate 4.0 GiB on device 0 (NVIDIA H200)");
}

TEST(OutOfMemoryError, CarriesRequestedAndFreeBytes) {
    OutOfMemoryError error("Failed to allocate 1.0 TiB on device 0 (NVIDIA H100)", "CUDA_ERROR_OUT_OF_MEMORY", 2,
                           "out of memory", std::size_t{1} << 40, std::size_t{3} << 30, std::size_t{80} << 30);
    EXPECT_EQ(error.requested_bytes(), std::size_t{1} << 40);
    EXPECT_EQ(error.free_bytes(), std::size_t{3} << 30);
    const std::string text = error.what();
    EXPECT_NE(text.find("requested 1.0 TiB (1099511627776 bytes)"), std::string::npos) << text;
    EXPECT_NE(text.find("3.0 GiB free of 80.0 GiB"), std::string::npos) << text;
    const CudaError& base = error;  // an OutOfMemoryError is a CudaError
    EXPECT_EQ(base.code(), 2);
}

TEST(ContextUnusableError, NamesTheFirstFailureAndTheWayOut) {
    CudaError first("Failed to synchronize device 0 (NVIDIA H100)", "CUDA_ERROR_ILLEGAL_ADDRESS", 700,
                    "an illegal memory access was encountered");
    ContextUnusableError error("Failed to allocate memory on device 0 (NVIDIA H100)", "device 0 (NVIDIA H100)", first);
    const std::string text = error.what();
    EXPECT_NE(text.find("unusable"), std::string::npos) << text;
    EXPECT_NE(text.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << text;
    EXPECT_NE(text.find("restart the process"), std::string::npos) << text;
    EXPECT_EQ(error.code(), 700);
    EXPECT_EQ(error.first_failure(), first.what());
}

TEST(CompileError, LogHasNoTrailingNulAndSourceIsNumbered) {
    std::string log = "kernel.cu(2): error: identifier \"y\" is undefined\n";
    log.push_back('\0');  // NVRTC counts the terminating NUL in the log size
    CompileError error("kernel.cu", "sm_90", log, {"-std=c++17", "-DN=4"}, "int x;\nint z = y;\n");
    EXPECT_EQ(error.log(), "kernel.cu(2): error: identifier \"y\" is undefined");
    EXPECT_EQ(error.log().find('\0'), std::string::npos);
    const std::string text = error.what();
    EXPECT_NE(text.find("Compiling kernel.cu for sm_90 failed (options: -std=c++17 -DN=4)"), std::string::npos) << text;
    EXPECT_EQ(text.find('\0'), std::string::npos);
    EXPECT_EQ(error.numbered_source(), "1 int x;\n2 int z = y;\n3 \n");
    EXPECT_EQ(error.options().size(), 2u);
}

TEST(CompileError, NumbersAlignForLongSources) {
    std::string source;
    for (int i = 0; i < 11; ++i) source += "x\n";
    CompileError error("k.cu", "sm_80", "bad", {}, source);
    const std::string numbered = error.numbered_source();
    EXPECT_EQ(numbered.substr(0, 5), " 1 x\n");
    EXPECT_NE(numbered.find("\n11 x\n"), std::string::npos);
}

TEST(KernelNotFoundError, ListsTheKernelsTheModuleHas) {
    KernelNotFoundError error("vector_ad", {"vector_add", "saxpy"});
    const std::string text = error.what();
    EXPECT_NE(text.find("No kernel named 'vector_ad'"), std::string::npos) << text;
    EXPECT_NE(text.find("vector_add, saxpy"), std::string::npos) << text;
    EXPECT_EQ(error.available().size(), 2u);
    KernelNotFoundError none("k", {});
    EXPECT_NE(std::string(none.what()).find("it has no kernels"), std::string::npos);
}

TEST(ErrorHierarchy, EverythingIsAGpukitError) {
    EXPECT_THROW(throw LaunchConfigError("x"), LaunchError);
    EXPECT_THROW(throw KernelArgumentError("x", 2), LaunchError);
    EXPECT_THROW(throw InvalidArgumentError("x"), Error);
    EXPECT_THROW(throw UsageError("x"), Error);
    EXPECT_THROW(throw BackendUnavailableError("x"), std::runtime_error);
}

}  // namespace
}  // namespace gpukit
