// tests/gpu_sticky/sticky_error_test.cpp: an illegal address poisons the context; later calls
// say so plainly. A process of its own: the context cannot be recovered afterwards.
#include <gtest/gtest.h>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class StickyError : public DeviceTest {};

TEST_F(StickyError, LaterCallsSayTheContextIsUnusable) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void write_wild(unsigned long long address) {
  *reinterpret_cast<volatile int*>(address) = 1;
})")
                      .kernel("write_wild");
    kernel({.grid = 1, .block = 1}, std::uint64_t{0x10});  // a wild address: the kernel faults
    try {
        Device::current().synchronize();
        FAIL() << "a wild write went unnoticed";
    } catch (const ContextUnusableError&) {
        FAIL() << "the first failure must be reported as itself";
    } catch (const CudaError& e) {
        EXPECT_EQ(e.name(), "CUDA_ERROR_ILLEGAL_ADDRESS");
        expect_contains(e.what(), "This error is sticky");
    }
    try {
        DeviceBuffer after(1024);
        FAIL() << "allocated on a poisoned context";
    } catch (const ContextUnusableError& e) {
        expect_contains(e.what(), "is unusable after an earlier sticky error");
        expect_contains(e.what(), "CUDA_ERROR_ILLEGAL_ADDRESS");
        expect_contains(e.what(), "restart the process");
    }
    EXPECT_THROW(Device::current().memory_info(), ContextUnusableError);
    EXPECT_THROW(Stream{}, ContextUnusableError);
}

}  // namespace
}  // namespace gpukit::testing
