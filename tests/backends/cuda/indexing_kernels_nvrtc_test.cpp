// tests/backends/cuda/indexing_kernels_nvrtc_test.cpp: the indexing kernels (kernels/gpukit_gather.cu,
// kernels/gpukit_select.cu) compile with NVRTC, in both index widths. Needs libnvrtc, not a GPU: the
// device tests run them on a GPU (scripts/gpu-check).
#include <gtest/gtest.h>

#include "backends/backend.hpp"
#include "gpukit/error.hpp"
#include "ops/indexing/kernels.hpp"

namespace gpukit {
namespace {

class IndexingKernelsNvrtc : public ::testing::Test {
protected:
    void SetUp() override {
        try {
            detail::compiler("cuda").identity();
        } catch (const BackendUnavailableError& e) {
            GTEST_SKIP() << "NVRTC is not installed here: " << e.what();
        }
    }
};

TEST_F(IndexingKernelsNvrtc, EveryKernelCompilesInBothIndexWidths) {
    using detail::IndexingFamily;
    const struct {
        IndexingFamily family;
        std::vector<std::string> kernels;
    } families[] = {
        {IndexingFamily::gather, {"gk_gather", "gk_scatter"}},
        {IndexingFamily::select, {"gk_select_count", "gk_select_scan", "gk_select_write", "gk_select_fill"}},
    };
    for (const auto& [family, kernels] : families) {
        for (bool index32 : {false, true}) {
            const auto image = Module::compile_image(detail::indexing_source(family, index32, false),
                                                     detail::indexing_compile_options(family), "compute_90", "cuda");
            EXPECT_EQ(image.log.find("warning"), std::string::npos) << image.log;
            for (const std::string& kernel : kernels)
                EXPECT_NE(image.data.find(".entry " + kernel), std::string::npos) << kernel << " index32=" << index32;
        }
    }
}

}  // namespace
}  // namespace gpukit
