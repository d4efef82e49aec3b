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
    // Free memory is shared with other processes (tests run in parallel), so count on the
    // device's size instead: if move assignment leaked, 16 rounds of a quarter of the device
    // each would run out of memory by the fourth.
    const std::size_t quarter = Device::current().properties().total_memory / 4;
    for (int i = 0; i < 16; ++i) {
        DeviceBuffer a(quarter);
        DeviceBuffer b(quarter);
        a = std::move(b);
        EXPECT_EQ(a.size_bytes(), quarter);
    }
}

}  // namespace
}  // namespace gpukit::testing
