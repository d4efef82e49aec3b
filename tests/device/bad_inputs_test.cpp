// tests/device/bad_inputs_test.cpp: each bad input of the core issue gives a clear error of the
// right type, and the process goes on working (a vector add after each one still runs).
#include <gtest/gtest.h>

#include <optional>

#include "course/course_kernels.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

using namespace gpukit::course;

class BadInputs : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        module_.emplace(Module::compile(vector_add_source));
        kernel_.emplace(module_->kernel("vector_add"));
        a_ = random_floats(n_, 11);
        b_ = random_floats(n_, 12);
        da_.emplace(DeviceBuffer::from_host(std::span<const float>(a_)));
        db_.emplace(DeviceBuffer::from_host(std::span<const float>(b_)));
        dc_.emplace(n_ * sizeof(float));
    }

    // After every refusal the device must still do real work.
    void TearDown() override {
        if (IsSkipped() || !kernel_) return;
        memset(*dc_, 0);
        (*kernel_)({.grid = grid_for(n_, 256), .block = 256}, *da_, *db_, *dc_, n_);
        std::vector<float> c(n_);
        copy(std::span<float>(c), dc_->view());
        for (int i = 0; i < n_; ++i) ASSERT_EQ(c[i], a_[i] + b_[i]) << "the process is no longer usable";
    }

    const int n_ = 2048;
    std::optional<Module> module_;
    std::optional<Kernel> kernel_;
    std::vector<float> a_, b_;
    std::optional<DeviceBuffer> da_, db_, dc_;
};

TEST_F(BadInputs, TwoThousandFortyEightThreadsPerBlock) {
    const auto text =
        GPUKIT_MESSAGE_OF(LaunchConfigError, (*kernel_)({.grid = 1, .block = 2048}, *da_, *db_, *dc_, n_));
    expect_contains(text, "Cannot launch vector_add on device 0");
    expect_contains(text, "block.x = 2048 exceeds the device's limit of 1024");
}

TEST_F(BadInputs, BlockOf1024By2) {
    const auto text =
        GPUKIT_MESSAGE_OF(LaunchConfigError, (*kernel_)({.grid = 1, .block = {1024, 2, 1}}, *da_, *db_, *dc_, n_));
    expect_contains(text, "block (1024, 2, 1) has 2048 threads; the device allows at most 1024 threads per block");
}

TEST_F(BadInputs, GridY65536) {
    const auto text =
        GPUKIT_MESSAGE_OF(LaunchConfigError, (*kernel_)({.grid = {1, 65536, 1}, .block = 256}, *da_, *db_, *dc_, n_));
    expect_contains(text, "grid.y = 65536 exceeds the device's limit of 65535");
}

TEST_F(BadInputs, DynamicSharedMemoryWithoutOptIn) {
    const auto text = GPUKIT_MESSAGE_OF(
        LaunchConfigError, (*kernel_)({.grid = 1, .block = 256, .shared_bytes = 200 * 1024}, *da_, *db_, *dc_, n_));
    expect_contains(text, "asks for 200.0 KiB (204800 bytes) of dynamic shared memory");
    expect_contains(text, "set_max_dynamic_shared_bytes(204800)");
}

TEST_F(BadInputs, WrongArgumentCount) {
    const auto text = GPUKIT_MESSAGE_OF(KernelArgumentError, (*kernel_)({.grid = 8, .block = 256}, *da_, *db_, *dc_));
    expect_contains(text,
                    "vector_add: it takes 4 parameters (const float * A, const float * B, float * C, "
                    "const int size) but 3 arguments were given");
}

TEST_F(BadInputs, EightBytesForAFourByteInt) {
    const std::int64_t size = n_;
    const auto text =
        GPUKIT_MESSAGE_OF(KernelArgumentError, (*kernel_)({.grid = 8, .block = 256}, *da_, *db_, *dc_, size));
    expect_contains(text, "argument 3 is 8 bytes but parameter 3 ('const int size') takes 4 bytes");
}

TEST_F(BadInputs, KernelNameNotInTheModule) {
    try {
        module_->kernel("vector_ad");
        FAIL() << "found a kernel that does not exist";
    } catch (const KernelNotFoundError& e) {
        EXPECT_EQ(e.available(), std::vector<std::string>{"vector_add"});
        expect_contains(e.what(), "No kernel named 'vector_ad' in the module; it has: vector_add");
    }
}

TEST_F(BadInputs, SourceThatFailsToCompile) {
    try {
        Module::compile("extern \"C\" __global__ void k(float* x) { x[0] = y; }");
        FAIL() << "broken source compiled";
    } catch (const CompileError& e) {
        // NVRTC: kernel.cu(1): error: identifier "y" is undefined; g++: kernel.cu:1:49: error: 'y' was not declared
        expect_contains(e.log(), on_simulator() ? "kernel.cu:1:" : "kernel.cu(1)");
        expect_contains(e.log(), "y");
        // The device's target (the simulator adds "+check=..." in check mode).
        EXPECT_EQ(e.target().rfind(Device::current().properties().target, 0), 0u) << e.target();
    }
}

TEST_F(BadInputs, AllocationLargerThanTheDevice) {
    const std::size_t too_much = Device::current().properties().total_memory * 16;
    try {
        DeviceBuffer huge(too_much);
        FAIL() << "allocated 16 times the device's memory";
    } catch (const OutOfMemoryError& e) {
        EXPECT_EQ(e.requested_bytes(), too_much);
        EXPECT_GT(e.free_bytes(), 0u);
        EXPECT_EQ(e.name(), "CUDA_ERROR_OUT_OF_MEMORY");
        expect_contains(e.what(), "Failed to allocate");
        expect_contains(e.what(), "free of");
    }
}

TEST_F(BadInputs, CopyWithMismatchedSizes) {
    std::vector<float> small(10);
    const auto text = GPUKIT_MESSAGE_OF(InvalidArgumentError, copy(std::span<float>(small), dc_->view()));
    expect_contains(text, "the destination holds 40 bytes but the source holds 8192 bytes");
    DeviceBuffer other(100);
    EXPECT_THROW(copy(other.view(), dc_->view()), InvalidArgumentError);
}

TEST_F(BadInputs, UseOfAMovedFromBuffer) {
    DeviceBuffer first(64);
    DeviceBuffer second = std::move(first);
    const auto text = GPUKIT_MESSAGE_OF(UsageError, (*kernel_)({.grid = 1, .block = 16}, first, *db_, *dc_, 16));
    expect_contains(text, "moved-from gpukit::DeviceBuffer");
    EXPECT_THROW(copy(first.view(), std::span<const float>(a_).first(16)), UsageError);
    EXPECT_EQ(second.size_bytes(), 64u);
    Stream stream;
    Stream taken = std::move(stream);
    EXPECT_THROW(stream.synchronize(), UsageError);
    Event event;
    Event other = std::move(event);
    EXPECT_THROW(event.record(), UsageError);
}

TEST_F(BadInputs, LaunchOnADestroyedStream) {
    StreamRef dangling;
    {
        Stream stream;
        dangling = stream;
    }
    const auto text = GPUKIT_MESSAGE_OF(
        UsageError, (*kernel_)({.grid = grid_for(n_, 256), .block = 256, .stream = dangling}, *da_, *db_, *dc_, n_));
    expect_contains(text, "Cannot launch a kernel: the stream was destroyed");
}

TEST_F(BadInputs, AnArrayOfAnotherElementTypeForAPointer) {
    const std::vector<double> wide(a_.begin(), a_.begin() + 16);
    const Array doubles = Array::from_host(std::span<const double>(wide), {16});
    const Array floats = Array::from_host(std::span<const float>(b_).first(16), {16});
    Array out = Array::empty({16}, DType::float32);
    const auto text =
        GPUKIT_MESSAGE_OF(KernelArgumentError, (*kernel_)({.grid = 1, .block = 16}, doubles, floats, out, 16));
    expect_contains(text,
                    "Cannot launch vector_add: argument 0 is a float64 array but parameter 0 ('const float * A') "
                    "points to float32 elements");
    const auto to_an_int =
        GPUKIT_MESSAGE_OF(KernelArgumentError, (*kernel_)({.grid = 1, .block = 16}, floats, floats, out, floats));
    expect_contains(to_an_int,
                    "argument 3 is an array (a device address) but parameter 3 ('const int size') is not "
                    "a pointer");
    (*kernel_)({.grid = 1, .block = 16}, floats, floats, out, 16);  // the right types run
    const std::vector<float> sums = out.to_vector<float>();
    for (int i = 0; i < 16; ++i) EXPECT_EQ(sums[i], 2 * b_[i]);
}

TEST_F(BadInputs, ANonContiguousViewForAPointer) {
    const Array matrix = Array::from_host(std::span<const float>(a_).first(64), {8, 8});
    const Array column = matrix.index({Slice{}, std::int64_t{3}});
    Array out = Array::empty({8}, DType::float32);
    const auto text =
        GPUKIT_MESSAGE_OF(KernelArgumentError, (*kernel_)({.grid = 1, .block = 8}, column, column, out, 8));
    expect_contains(text, "argument 0 is a view that is not C-contiguous (shape (8,), strides (32,) bytes)");
    const Array copied = column.copy();  // what the message says to pass
    (*kernel_)({.grid = 1, .block = 8}, copied, copied, out, 8);
    const std::vector<float> sums = out.to_vector<float>();
    for (int i = 0; i < 8; ++i) EXPECT_EQ(sums[i], 2 * a_[i * 8 + 3]);
}

}  // namespace
}  // namespace gpukit::testing
