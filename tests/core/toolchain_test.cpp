// tests/core/toolchain_test.cpp: the version and what the backends found on this machine.
#include "gpukit/toolchain.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "gpukit/device.hpp"
#include "gpukit/version.hpp"

namespace gpukit {
namespace {

bool is_version(const std::string& text, const char* pattern) { return std::regex_match(text, std::regex(pattern)); }

TEST(Version, IsMajorMinorPatch) { EXPECT_TRUE(is_version(std::string(version()), R"(\d+\.\d+\.\d+)")) << version(); }

TEST(Toolchain, TheSimulatorsCompilerIsFoundWithItsVersion) {
    const ToolchainPart compiler = simulator_compiler();
    ASSERT_TRUE(compiler.problem.empty()) << compiler.problem;
    EXPECT_TRUE(std::filesystem::path(compiler.path).is_absolute()) << compiler.path;
    EXPECT_TRUE(std::filesystem::exists(compiler.path)) << compiler.path;
    EXPECT_EQ(compiler.version.find('\n'), std::string::npos) << "one line: " << compiler.version;
    EXPECT_TRUE(is_version(compiler.version, R"(.*\d+\.\d+.*)")) << compiler.version;
}

// Each part is either usable, with a path and a version, or unusable, saying why.
void expect_consistent(const ToolchainPart& part, const char* name) {
    if (part.problem.empty()) {
        EXPECT_TRUE(std::filesystem::exists(part.path)) << name << ": " << part.path;
        EXPECT_TRUE(is_version(part.version, R"(\d+\.\d+)")) << name << ": " << part.version;
    } else {
        EXPECT_TRUE(part.version.empty()) << name << ": " << part.version;
    }
}

TEST(Toolchain, CudaPartsAreUsableOrSayWhyNot) {
    const CudaToolchain toolchain = cuda_toolchain();
#if GPUKIT_WITH_CUDA
    EXPECT_TRUE(toolchain.built_in);
    EXPECT_TRUE(is_version(toolchain.headers_version, R"(\d+\.\d+)")) << toolchain.headers_version;
#else
    EXPECT_FALSE(toolchain.built_in);
    EXPECT_FALSE(toolchain.driver.problem.empty());
    EXPECT_FALSE(toolchain.nvrtc.problem.empty());
#endif
    expect_consistent(toolchain.driver, "driver");
    expect_consistent(toolchain.nvrtc, "nvrtc");
    // Without a usable driver there is no CUDA backend.
    if (!toolchain.driver.problem.empty()) EXPECT_FALSE(backend_unavailable_reason(BackendKind::cuda).empty());
}

}  // namespace
}  // namespace gpukit
