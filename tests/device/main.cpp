// tests/device/main.cpp: runs the device tests on the backend named by --backend=<name>; with
// --check=<tools> (simulator) every module is compiled for check mode and every test must leave
// a clean check report: the whole suite doubles as check mode's test against false positives.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {
std::string chosen = "cuda";
bool checking = false;

class CleanCheckReport : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo&) override {
        if (!checking || !backend_info(tested_backend()).capabilities.check_mode) return;
        const auto report = take_check_report();
        EXPECT_TRUE(report.clean()) << "check mode reported hazards in a correct kernel:\n" << report.text();
    }
};
}  // namespace

const std::string& tested_backend() { return chosen; }
bool checking_everything() { return checking; }
}  // namespace gpukit::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--backend=", 10) == 0) gpukit::testing::chosen = argv[i] + 10;
        if (std::strncmp(argv[i], "--check=", 8) == 0) {
            ::setenv("GPUKIT_CHECK", argv[i] + 8, 1);
            gpukit::testing::checking = true;
        }
    }
    // Four simulated devices, for the tests of work over several devices (one-device tests use device 0).
    ::setenv("GPUKIT_SIM_DEVICES", "4", 0);
    ::testing::UnitTest::GetInstance()->listeners().Append(new gpukit::testing::CleanCheckReport);
    return RUN_ALL_TESTS();
}
