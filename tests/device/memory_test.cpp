// tests/device/memory_test.cpp: buffers, copies and memset on the GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class Memory : public DeviceTest {};

TEST_F(Memory, RoundTripsThroughEveryCopyKind) {
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{4097}, std::size_t{1} << 20}) {
        const auto host = random_floats(n, 21);
        auto a = DeviceBuffer::from_host(std::span<const float>(host));
        DeviceBuffer b(n * sizeof(float));
        copy(b.view(), a.view());
        std::vector<float> back(n);
        copy(std::span<float>(back), b.view());
        EXPECT_EQ(back, host) << n;
    }
}

TEST_F(Memory, AsyncCopiesThroughPinnedMemoryOnAStream) {
    const std::size_t n = 1 << 20;
    const auto host = random_floats(n, 22);
    PinnedBuffer staging(n * sizeof(float));
    std::memcpy(staging.data(), host.data(), n * sizeof(float));
    DeviceBuffer device_copy(n * sizeof(float));
    Stream stream;
    copy_async(device_copy.view(), staging.as<const float>(), stream);
    PinnedBuffer result(n * sizeof(float));
    copy_async(result.as<float>(), device_copy.view(), stream);
    stream.synchronize();
    EXPECT_EQ(std::memcmp(result.data(), host.data(), n * sizeof(float)), 0);

    // Ordered on the stream: a memset after the copies, then a read-back.
    memset_async(device_copy.view().subview(0, 16), 0, stream);
    copy_async(result.as<float>(), device_copy.view(), stream);
    stream.synchronize();
    EXPECT_EQ(result.as<float>()[3], 0.0f);
    EXPECT_EQ(result.as<float>()[4], host[4]);
}

TEST_F(Memory, ManagedMemoryIsOneAddressForTheHostAndKernels) {
    auto twice = Module::compile(R"(extern "C" __global__ void twice(float* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= 2.0f;
    })")
                     .kernel("twice");
    for (int n : {1, 7, 1000, 4097}) {
        const auto values = random_floats(n, 23);
        ManagedBuffer managed(n * sizeof(float));
        EXPECT_EQ(managed.kind(), MemoryKind::managed);
        std::memcpy(managed.data(), values.data(), n * sizeof(float));  // the host writes it directly
        twice({.grid = grid_for(n, 256), .block = 256}, managed, n);
        Device::current().synchronize();
        const auto doubled = managed.as<const float>();
        for (int i = 0; i < n; ++i) ASSERT_EQ(doubled[i], 2.0f * values[i]) << n << " " << i;
    }
}

TEST_F(Memory, EachKindRefusesWhatItCannotBe) {
    PinnedBuffer pinned(64);
    DeviceBuffer device_memory(64);
    EXPECT_EQ(pinned.kind(), MemoryKind::pinned);
    EXPECT_EQ(device_memory.kind(), MemoryKind::device);
    EXPECT_EQ(to_string(MemoryKind::managed), "managed");
    // Moved from, each says which type it was.
    PinnedBuffer taken = std::move(pinned);
    expect_contains(GPUKIT_MESSAGE_OF(UsageError, (void)pinned.data()), "moved-from gpukit::PinnedBuffer");
    ManagedBuffer managed(64);
    ManagedBuffer other = std::move(managed);
    expect_contains(GPUKIT_MESSAGE_OF(UsageError, (void)managed.view()), "moved-from gpukit::ManagedBuffer");
    EXPECT_NE(taken.data(), nullptr);
    EXPECT_NE(other.data(), nullptr);
}

// As cudaFree, freeing memory waits for the work queued on it: a buffer freed right after a
// launch on another stream is not handed out again while the kernel still writes it (on the
// simulator, whose free does not block, the memory comes back once the kernel has ended).
TEST_F(Memory, ABufferFreedWhileAKernelStillWritesItIsNotHandedOutAgain) {
    auto scribble = Module::compile(R"(
extern "C" __global__ void scribble(float* out, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rounds && i < n; ++r) out[i] = -1.0f - r;
})")
                        .kernel("scribble");
    const int n = 1 << 16;
    Stream stream(StreamFlags::non_blocking);
    for (int round = 0; round < 8; ++round) {
        {
            DeviceBuffer scratch(n * sizeof(float));
            scribble({.grid = n / 256, .block = 256, .stream = stream}, scratch, n, 200);
        }  // freed with the launch queued or running
        const auto host = random_floats(n, 30 + round);
        auto kept = DeviceBuffer::from_host(std::span<const float>(host));
        stream.synchronize();
        std::vector<float> back(n);
        copy(std::span<float>(back), kept.view());
        ASSERT_EQ(back, host) << "round " << round;
    }
}

TEST_F(Memory, MemsetAndSubviews) {
    DeviceBuffer buffer(1000);
    memset(buffer, 0xab);
    memset(buffer.view().subview(100, 50), 0x01);
    std::vector<std::uint8_t> bytes(1000);
    copy(std::span<std::uint8_t>(bytes), buffer.view());
    for (std::size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(bytes[i], (i >= 100 && i < 150) ? 0x01 : 0xab) << i;
    EXPECT_THROW(buffer.view().subview(990, 20), InvalidArgumentError);
}

TEST_F(Memory, ZeroBytesAllocateNothingAndCopyNothing) {
    DeviceBuffer empty(0);
    EXPECT_EQ(empty.size_bytes(), 0u);
    EXPECT_EQ(empty.address(), 0u);
    std::vector<float> none;
    EXPECT_NO_THROW(copy(empty.view(), std::span<const float>(none)));
    EXPECT_NO_THROW(memset(empty, 0));
}

TEST_F(Memory, MoveAssignmentFreesTheOldBuffer) {
    // Free memory is shared with other processes (tests and sanitizers run in parallel), so count
    // on the device's size instead, in slices small enough to fit beside them: if move assignment
    // leaked, 40 rounds of 1/32 of the device each would leak more than the device holds.
    const std::size_t slice = Device::current().properties().total_memory / 32;
    for (int i = 0; i < 40; ++i) {
        DeviceBuffer a(slice);
        DeviceBuffer b(slice);
        a = std::move(b);
        EXPECT_EQ(a.size_bytes(), slice);
    }
}

}  // namespace
}  // namespace gpukit::testing
