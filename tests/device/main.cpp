// tests/device/main.cpp: runs the device tests on the backend named by --backend=cuda|sim.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {
BackendKind chosen = BackendKind::cuda;
}
BackendKind tested_backend() { return chosen; }
}  // namespace gpukit::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--backend=", 10) == 0)
            gpukit::testing::chosen = gpukit::parse_backend_kind(argv[i] + 10);
    }
    return RUN_ALL_TESTS();
}
