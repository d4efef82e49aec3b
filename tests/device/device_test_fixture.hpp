// tests/device/device_test_fixture.hpp: the fixture of every test that runs kernels. The same test
// bodies run on each backend: CTest runs this binary once with --backend=sim and once with
// --backend=cuda (see tests/CMakeLists.txt). Without a GPU the CUDA run skips, saying why.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpukit/gpukit.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::testing {

// The backend this process tests, from --backend=<name> (default: cuda).
const std::string& tested_backend();
// True when --check= compiles every module for check mode.
bool checking_everything();

class DeviceTest : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string reason = backend_unavailable_reason(tested_backend());
        if (!reason.empty()) {
            // scripts/gpu-check sets GPUKIT_REQUIRE_GPU: there a skip would hide a broken setup.
            if (!backend_info(tested_backend()).capabilities.simulated && !std::getenv("GPUKIT_REQUIRE_GPU"))
                GTEST_SKIP() << "No " << tested_backend() << " device here (these tests run on one through "
                             << "scripts/gpu-check): " << reason;
            GTEST_FAIL() << "The " << tested_backend() << " backend is unavailable: " << reason;
        }
        select_backend(tested_backend());
    }

    static bool on_simulator() { return backend_info(tested_backend()).capabilities.simulated; }
};

// The GPU's generated kernel shapes (elementwise vectors, rows and tiles; reductions' vector loads,
// warps per row and split columns) run on the simulator too in these tests, so that CI checks the
// code a GPU runs.
class GpuShapesTest : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        detail::set_specialized_elementwise_on_simulator(true);
    }
    void TearDown() override {
        detail::set_specialized_elementwise_on_simulator(false);
        DeviceTest::TearDown();
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
#define GPUKIT_MESSAGE_OF(E, statement)                   \
    [&]() -> std::string {                                \
        try {                                             \
            statement;                                    \
        } catch (const E& e) {                            \
            return e.what();                              \
        }                                                 \
        ADD_FAILURE() << #statement " did not throw " #E; \
        return {};                                        \
    }()

}  // namespace gpukit::testing
