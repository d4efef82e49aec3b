// tests/core/launch_check_test.cpp: launch checks against a device's limits and a kernel's
// parameters, without a device.
#include "core/launch_check.hpp"

#include <gtest/gtest.h>

#include "gpukit/error.hpp"

namespace gpukit::detail {
namespace {

// The limits an H100 reports.
LaunchLimits h100_limits() {
    LaunchLimits limits;
    limits.max_threads_per_block = 1024;
    limits.max_block_dim = {1024, 1024, 64};
    limits.max_grid_dim = {2147483647u, 65535, 65535};
    limits.shared_memory_per_block = 48 * 1024;
    limits.shared_memory_per_block_optin = 227 * 1024;
    return limits;
}

KernelAttributes plain_kernel() {
    KernelAttributes attributes;
    attributes.num_registers = 16;
    attributes.max_threads_per_block = 1024;
    attributes.max_dynamic_shared_bytes = 48 * 1024;
    return attributes;
}

const LaunchSubject subject{"vector_add", "device 0 (NVIDIA H100 80GB HBM3)"};

// Runs the check and returns its message; fails the test if it does not throw.
std::string refusal(const Dim3& grid, const Dim3& block, std::size_t shared = 0,
                    const KernelAttributes& kernel = plain_kernel()) {
    try {
        check_launch_config(subject, h100_limits(), kernel, grid, block, shared);
    } catch (const LaunchConfigError& e) {
        return e.what();
    }
    ADD_FAILURE() << "launch grid " << to_string(grid) << " block " << to_string(block) << " was not refused";
    return {};
}

void expect_contains(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "message: " << text << "\nmissing: " << part;
}

TEST(LaunchConfig, AcceptsWhatTheDeviceAllows) {
    EXPECT_NO_THROW(check_launch_config(subject, h100_limits(), plain_kernel(), {1}, {1024}, 0));
    EXPECT_NO_THROW(
        check_launch_config(subject, h100_limits(), plain_kernel(), {2147483647u, 65535, 65535}, {32, 32}, 0));
    EXPECT_NO_THROW(check_launch_config(subject, h100_limits(), plain_kernel(), {1}, {1, 1, 64}, 48 * 1024));
}

TEST(LaunchConfig, Refuses2048ThreadsPerBlock) {
    const auto text = refusal({1}, {2048});
    expect_contains(text, "Cannot launch vector_add on device 0 (NVIDIA H100 80GB HBM3)");
    expect_contains(text, "block.x = 2048 exceeds the device's limit of 1024");
}

TEST(LaunchConfig, RefusesABlockOf1024By2) {
    const auto text = refusal({1}, {1024, 2, 1});
    expect_contains(text, "block (1024, 2, 1) has 2048 threads; the device allows at most 1024 threads per block");
}

TEST(LaunchConfig, RefusesGridY65536) {
    const auto text = refusal({1, 65536, 1}, {256});
    expect_contains(text, "grid.y = 65536 exceeds the device's limit of 65535");
}

TEST(LaunchConfig, RefusesBlockZ128AndZeroDimensions) {
    expect_contains(refusal({1}, {1, 1, 128}), "block.z = 128 exceeds the device's limit of 64");
    expect_contains(refusal({0}, {256}), "grid (0, 1, 1) has a zero x dimension");
    expect_contains(refusal({1}, {256, 0, 1}), "block (256, 0, 1) has a zero y dimension");
}

TEST(LaunchConfig, RefusesMoreThreadsThanTheKernelsRegistersAllow) {
    KernelAttributes heavy = plain_kernel();
    heavy.num_registers = 128;
    heavy.max_threads_per_block = 512;
    expect_contains(refusal({1}, {1024}, 0, heavy),
                    "this kernel can run at most 512 threads per block (it uses 128 registers per thread)");
}

TEST(LaunchConfig, Refuses200KiBOfDynamicSharedMemoryWithoutOptIn) {
    const auto text = refusal({1}, {256}, 200 * 1024);
    expect_contains(text, "asks for 200.0 KiB (204800 bytes) of dynamic shared memory");
    expect_contains(text, "at most 48.0 KiB (49152 bytes)");
    expect_contains(text, "set_max_dynamic_shared_bytes(204800)");
}

TEST(LaunchConfig, AcceptsDynamicSharedMemoryAfterOptIn) {
    KernelAttributes opted = plain_kernel();
    opted.max_dynamic_shared_bytes = 200 * 1024;
    EXPECT_NO_THROW(check_launch_config(subject, h100_limits(), opted, {1}, {256}, 200 * 1024));
}

TEST(LaunchConfig, SharedMemoryBeyondOptInNamesTheHardLimit) {
    const auto text = refusal({1}, {256}, 300 * 1024);
    expect_contains(text, "at most 227.0 KiB (232448 bytes) of shared memory per block even with opt-in");
}

TEST(LaunchConfig, MoreThan48KiBOfStaticSharedMemoryIsRefused) {
    KernelAttributes big = plain_kernel();
    big.static_shared_bytes = 52000;
    big.max_dynamic_shared_bytes = 0;
    expect_contains(refusal({1}, {256}, 0, big), "declares 50.8 KiB (52000 bytes) of static __shared__ memory");
}

TEST(LaunchConfig, OptInBeyondTheDeviceIsRefused) {
    KernelAttributes with_static = plain_kernel();
    with_static.static_shared_bytes = 16 * 1024;
    EXPECT_NO_THROW(check_dynamic_shared_optin(subject, h100_limits(), with_static, 200 * 1024));
    try {
        check_dynamic_shared_optin(subject, h100_limits(), with_static, 220 * 1024);
        FAIL() << "opt-in beyond the device was accepted";
    } catch (const LaunchConfigError& e) {
        expect_contains(e.what(), "16384 bytes of static shared memory");
    }
}

std::vector<KernelParam> vector_add_params() {
    return {{0, 8, "const float *", "A"},
            {8, 8, "const float *", "B"},
            {16, 8, "float *", "C"},
            {24, 4, "const int", "size"}};
}

TEST(Arguments, AcceptsMatchingSizes) {
    const std::size_t sizes[] = {8, 8, 8, 4};
    EXPECT_NO_THROW(check_arguments(subject, vector_add_params(), sizes, 4));
}

TEST(Arguments, WrongCountListsTheParameters) {
    const std::size_t sizes[] = {8, 8, 8};
    try {
        check_arguments(subject, vector_add_params(), sizes, 3);
        FAIL() << "a missing argument was accepted";
    } catch (const KernelArgumentError& e) {
        EXPECT_EQ(e.parameter_index(), -1);
        expect_contains(e.what(),
                        "vector_add: it takes 4 parameters (const float * A, const float * B, float * C, "
                        "const int size) but 3 arguments were given");
    }
}

TEST(Arguments, EightBytesForAFourByteIntNamesTheParameter) {
    const std::size_t sizes[] = {8, 8, 8, 8};
    try {
        check_arguments(subject, vector_add_params(), sizes, 4);
        FAIL() << "an 8-byte int was accepted";
    } catch (const KernelArgumentError& e) {
        EXPECT_EQ(e.parameter_index(), 3);
        expect_contains(e.what(), "argument 3 is 8 bytes but parameter 3 ('const int size') takes 4 bytes");
        expect_contains(e.what(), "int32_t");
    }
}

TEST(Arguments, UnnamedParametersAreDescribedBySize) {
    const std::vector<KernelParam> params = {{0, 4, "", ""}};
    const std::size_t sizes[] = {2};
    try {
        check_arguments(subject, params, sizes, 1);
        FAIL();
    } catch (const KernelArgumentError& e) {
        expect_contains(e.what(), "argument 0 is 2 bytes but parameter 0 takes 4 bytes");
    }
    const std::size_t none[] = {0};
    try {
        check_arguments(subject, params, none, 0);
        FAIL();
    } catch (const KernelArgumentError& e) {
        expect_contains(e.what(), "takes 1 parameter (4 bytes) but 0 arguments were given");
    }
}

}  // namespace
}  // namespace gpukit::detail
