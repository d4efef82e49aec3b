// tests/gpu/gpu_test.hpp: the fixture of every GPU test: skips, saying why, without a CUDA GPU.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpukit/gpukit.hpp"

namespace gpukit::testing {

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string reason = backend_unavailable_reason(BackendKind::cuda);
        if (!reason.empty()) {
            // scripts/gpu-check sets GPUKIT_REQUIRE_GPU: there a skip would hide a broken setup.
            if (std::getenv("GPUKIT_REQUIRE_GPU")) GTEST_FAIL() << "GPUKIT_REQUIRE_GPU is set but: " << reason;
            GTEST_SKIP() << "No CUDA GPU here (these tests run through scripts/gpu-check): " << reason;
        }
        select_backend(BackendKind::cuda);
    }
};

inline std::vector<float> random_floats(std::size_t n, unsigned seed = 1) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> values(n);
    for (auto& v : values) v = uniform(random);
    return values;
}

inline void expect_contains(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "message: " << text << "\nmissing: " << part;
}

// The message of the exception `statement` throws as type E; fails the test if it throws nothing.
#define GPUKIT_MESSAGE_OF(E, statement)                                        \
    [&]() -> std::string {                                                     \
        try {                                                                  \
            statement;                                                         \
        } catch (const E& e) {                                                 \
            return e.what();                                                   \
        }                                                                      \
        ADD_FAILURE() << #statement " did not throw " #E;                      \
        return {};                                                             \
    }()

}  // namespace gpukit::testing
