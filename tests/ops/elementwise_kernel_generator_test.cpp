// tests/ops/elementwise_kernel_generator_test.cpp: the CUDA C of user ElementwiseKernels
// (generate_user_elementwise): every way a parameter is bound, in the GPU's shape, compiles with
// NVRTC for a Hopper target (needs libnvrtc, not a GPU: CI machines without it skip), and the
// simulator's shape with the host compiler (tests/device runs both). What the kernels compute is
// tests/device/elementwise_kernel_test.cpp's.
#include <gtest/gtest.h>

#include "backends/backend.hpp"
#include "gpukit/error.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/generator.hpp"

namespace gpukit::detail {
namespace {

CompileOptions options_with_headers() {
    CompileOptions options;
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.header(std::string(elementwise_kernel_header_name), std::string(elementwise_kernel_header()));
    return options;
}

// Every binding: arrays contiguous, strided and broadcast from one element, of storage types that
// are and are not their compute type (float16, complex64, bool, int8); a raw input and a raw half
// output; scalars; an output read as well as written.
const std::pair<char, DType> placeholders[] = {{'T', DType::float16}, {'U', DType::complex64}};
const UserParam every_binding[] = {
    {"x", DType::float16, UserParamKind::array, false, AccessClass::contiguous},
    {"y", DType::complex64, UserParamKind::array, false, AccessClass::strided},
    {"flag", DType::bool_, UserParamKind::array, false, AccessClass::scalar},
    {"table", DType::float32, UserParamKind::raw, false},
    {"a", DType::float16, UserParamKind::scalar, false},
    {"c", DType::complex64, UserParamKind::scalar, false},
    {"z", DType::float16, UserParamKind::array, true, AccessClass::strided},
    {"w", DType::complex64, UserParamKind::array, true, AccessClass::contiguous},
    {"n", DType::int8, UserParamKind::array, true, AccessClass::contiguous},
    {"hist", DType::float16, UserParamKind::raw, true},
};
constexpr std::string_view operation =
    "T t = flag ? a * x : x; z = t + table[i % table.size()]; z += (T)1;\n"
    "w = 2.0f * y * c + real(y) - conj(c) / 2; n = (signed char)(i & 7);\n"
    "long long at[1] = {i % hist.shape()[0]}; if (i < hist.size()) hist[at] = (float)hist[i] + abs(w); "
    "if (x > 100) continue;";

std::string generated(const UserKernelLayout& layout) {
    const UserKernelText text{"every_binding",
                              operation,
                              "__device__ float twice(float v) { return 2 * v; }",
                              "float gk_unused_prep = 0; (void)gk_unused_prep",
                              "",
                              placeholders};
    return generate_user_elementwise(text, every_binding, layout);
}

TEST(ElementwiseKernelGenerator, BindsParametersByName) {
    const std::string source = generated({.generic = false, .simulated = false, .ndim = 2, .index32 = true});
    for (const std::string_view part :
         {"#define GK_INDEX32", "typedef float T;", "typedef gk_complex64 U;",
          "typedef gk_raw<float, float> gk_raw_table;", "typedef gk_raw<gk_float16, float> gk_raw_hist;",
          "extern \"C\" __global__ void every_binding(const gk_ew_array gk_array_x, const gk_ew_array "
          "gk_array_y, const gk_ew_array gk_array_flag, const gk_raw_table table, const gk_float16 gk_scalar_a, "
          "const gk_complex64 gk_scalar_c, const gk_ew_array gk_array_z, const gk_ew_array gk_array_w, const "
          "gk_ew_array gk_array_n, gk_raw_hist hist, const gk_ew_loop gk_loop)",
          "const float a = gk_convert<float>(gk_scalar_a);",
          "const float x = gk_convert<float>(*(const gk_float16*)((const char*)gk_array_x.address + i * "
          "(gk_index)sizeof(gk_float16)));",
          "const bool flag = gk_convert<bool>(*(const bool*)((const char*)gk_array_flag.address));",
          "typename gk_element<gk_float16, float>::reference z = gk_element<gk_float16, "
          "float>::at((gk_float16*)((char*)gk_array_z.address + gk_off_z));",
          "const gk_user_index _ind = {gk_n, i};"})
        EXPECT_NE(source.find(part), std::string::npos) << "missing: " << part << "\nin:\n" << source;
    // Only strided operands decode coordinates.
    EXPECT_NE(source.find("gk_off_y +="), std::string::npos);
    EXPECT_EQ(source.find("gk_off_x"), std::string::npos);
}

class ElementwiseKernelNvrtc : public ::testing::Test {
protected:
    void SetUp() override {
        try {
            compiler("cuda").identity();
        } catch (const BackendUnavailableError& e) {
            GTEST_SKIP() << "NVRTC is not installed here: " << e.what();
        }
    }
};

TEST_F(ElementwiseKernelNvrtc, EveryBindingCompilesForAGpu) {
    for (const bool index32 : {true, false}) {
        for (const std::uint8_t ndim : {0, 1, 3}) {
            SCOPED_TRACE(std::to_string(ndim) + (index32 ? " dims, 32-bit" : " dims, 64-bit"));
            const std::string source =
                generated({.generic = false, .simulated = false, .ndim = ndim, .index32 = index32});
            try {
                const CompiledImage image = Module::compile_image(source, options_with_headers(), "sm_90", "cuda");
                EXPECT_EQ(image.format, ImageFormat::cubin);
            } catch (const CompileError& e) {
                ADD_FAILURE() << e.what();
            }
        }
    }
}

}  // namespace
}  // namespace gpukit::detail
