// tests/backends/cuda/nvrtc_test.cpp: compiling CUDA C with NVRTC. Needs libnvrtc, not a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backends/backend.hpp"
#include "gpukit/cache.hpp"
#include "gpukit/error.hpp"
#include "gpukit/module.hpp"

namespace gpukit {
namespace {

constexpr const char* vector_add_source = R"(
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) C[item] = A[item] + B[item];
}
)";

class Nvrtc : public ::testing::Test {
protected:
    void SetUp() override {
        try {
            detail::compiler("cuda").identity();
        } catch (const BackendUnavailableError& e) {
            GTEST_SKIP() << "NVRTC is not installed here: " << e.what();
        }
    }
};

TEST_F(Nvrtc, IdentityNamesVersionAndLibrary) {
    const auto identity = detail::compiler("cuda").identity();
    EXPECT_EQ(identity.rfind("NVRTC ", 0), 0u) << identity;
    EXPECT_NE(identity.find("libnvrtc"), std::string::npos) << identity;
}

TEST_F(Nvrtc, CompilesTheCourseVectorAddToACubin) {
    const auto image = Module::compile_image(vector_add_source, {}, "sm_90", "cuda");
    EXPECT_EQ(image.format, ImageFormat::cubin);
    ASSERT_GT(image.data.size(), 4u);
    EXPECT_EQ(image.data.substr(0, 4),
              "\x7f"
              "ELF");
}

TEST_F(Nvrtc, VirtualArchitectureGivesPtx) {
    const auto image = Module::compile_image(vector_add_source, {}, "compute_80", "cuda");
    EXPECT_EQ(image.format, ImageFormat::ptx);
    EXPECT_NE(image.data.find(".entry vector_add"), std::string::npos);
    EXPECT_NE(image.data.back(), '\0');
}

TEST_F(Nvrtc, CompileErrorCarriesLogOptionsAndSource) {
    const std::string broken = "extern \"C\" __global__ void k(float* x) {\n  x[0] = undefined_name;\n}\n";
    CompileOptions options;
    options.program_name = "broken.cu";
    try {
        Module::compile_image(broken, options, "sm_90", "cuda");
        FAIL() << "broken source compiled";
    } catch (const CompileError& e) {
        EXPECT_NE(e.log().find("broken.cu(2)"), std::string::npos) << e.log();
        EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
        EXPECT_EQ(e.log().find('\0'), std::string::npos);
        EXPECT_EQ(std::string(e.what()).find('\0'), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("Compiling broken.cu for sm_90 failed"), std::string::npos) << e.what();
        EXPECT_EQ(e.source(), broken);
        EXPECT_NE(e.numbered_source().find("2   x[0] = undefined_name;"), std::string::npos) << e.numbered_source();
        bool has_arch = false;
        for (const auto& option : e.options()) has_arch |= option == "--gpu-architecture=sm_90";
        EXPECT_TRUE(has_arch);
    }
    // The process goes on: a good compile still works.
    EXPECT_NO_THROW(Module::compile_image(vector_add_source, {}, "sm_90", "cuda"));
}

TEST_F(Nvrtc, NameExpressionsInstantiateTemplates) {
    const std::string source = R"(
template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})";
    CompileOptions options;
    options.name_expression("axpy<float>").name_expression("axpy<double>");
    const auto image = Module::compile_image(source, options, "sm_90", "cuda");
    ASSERT_EQ(image.lowered_names.size(), 2u);
    EXPECT_EQ(image.lowered_names[0].first, "axpy<float>");
    EXPECT_EQ(image.lowered_names[0].second, "_Z4axpyIfEvT_PKS0_PS0_i");
    EXPECT_EQ(image.lowered_names[1].second, "_Z4axpyIdEvT_PKS0_PS0_i");
}

TEST_F(Nvrtc, DefinesHeadersAndIncludeDirectories) {
    const std::string source = R"(
#include "tile.h"
#include "from_dir.h"
static_assert(TILE == 16, "TILE comes from a -D option");
static_assert(HEADER_VALUE == 3, "from a header given as a string");
static_assert(DIR_VALUE == 5, "from a header found through -I");
extern "C" __global__ void k(float* x) { x[threadIdx.x] = TILE; }
)";
    const auto dir = std::filesystem::temp_directory_path() / ("gpukit_nvrtc_include_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "from_dir.h") << "#define DIR_VALUE 5\n";
    CompileOptions options;
    options.define("TILE", "16").header("tile.h", "#define HEADER_VALUE 3\n").include_dir(dir);
    options.fast_math = true;
    EXPECT_NO_THROW(Module::compile_image(source, options, "sm_90", "cuda"));
    CompileOptions without_define = options;
    without_define.defines.clear();
    EXPECT_THROW(Module::compile_image(source, without_define, "sm_90", "cuda"), CompileError);
    std::filesystem::remove_all(dir);
}

TEST_F(Nvrtc, ToolkitHeadersAreFound) {
    const std::string source = R"(
#include <cuda_fp16.h>
extern "C" __global__ void half_add(__half* x) { x[threadIdx.x] = __hadd(x[threadIdx.x], x[threadIdx.x]); }
)";
    EXPECT_NO_THROW(Module::compile_image(source, {}, "sm_90", "cuda"));
}

TEST_F(Nvrtc, SecondCompileIsACacheHit) {
    const std::string source = std::string(vector_add_source) + "// cache probe\n";
    reset_cache_stats();
    Module::compile_image(source, {}, "sm_90", "cuda");
    const auto after_first = cache_stats();
    Module::compile_image(source, {}, "sm_90", "cuda");
    const auto after_second = cache_stats();
    EXPECT_EQ(after_second.misses + after_second.disk_hits, after_first.misses + after_first.disk_hits);
    EXPECT_EQ(after_second.memory_hits, after_first.memory_hits + 1);
}

}  // namespace
}  // namespace gpukit
