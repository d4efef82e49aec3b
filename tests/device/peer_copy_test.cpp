// tests/device/peer_copy_test.cpp: arrays on several devices: copies between them (peer to peer,
// through the host without peer access), the one-device rule of operations, peer access itself,
// and events that order work across devices. On the simulator: its four devices (main.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class PeerCopy : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped() || HasFailure()) return;
        if (devices().size() < 2) GTEST_SKIP() << "needs two devices; this machine has " << devices().size();
    }
};

std::vector<float> host_of(const Array& array) {
    std::vector<float> values(static_cast<std::size_t>(array.size()));
    array.copy_to_host(HostView(reinterpret_cast<std::byte*>(values.data()), array.dtype(), array.shape()));
    return values;
}

TEST_F(PeerCopy, ToDeviceCopiesEveryLayoutAndKeepsIt) {
    const auto values = random_floats(37 * 11, 19);
    const Array c = Array::from_host(std::span<const float>(values), {37, 11});
    const Device there = device(1);
    for (const Array& source : {c, c.transpose(), c.index({Slice{1, 30, 3}, Slice{}}), c.index({Slice{}, 5})}) {
        const Array copied = source.to_device(there);
        EXPECT_EQ(copied.device(), there);
        EXPECT_EQ(copied.shape(), source.shape());
        if (source.is_c_contiguous() || source.is_f_contiguous()) EXPECT_EQ(copied.strides(), source.strides());
        EXPECT_EQ(host_of(copied), host_of(source));
        EXPECT_EQ(copied.to_device(device(0)).device(), device(0));
        EXPECT_EQ(host_of(copied.to_device(device(0))), host_of(source));
    }
    EXPECT_EQ(c.to_device(c.device()).address(), c.address());  // already there: itself
}

TEST_F(PeerCopy, ASourceFreedAtOnceIsStillCopiedWhole) {
    const auto values = random_floats(1 << 20, 3);
    std::optional<Array> copied;
    {
        const Array source = Array::from_host(std::span<const float>(values), {1 << 20});
        copied = source.to_device(device(1));
    }  // the source's memory goes back to its device's pool before the copy has surely run
    const Array reuse = Array::empty({1 << 20}, DType::float32, device(0));
    reuse.fill(Scalar(0.0f));
    EXPECT_EQ(host_of(*copied), values);
}

TEST_F(PeerCopy, AssignmentAcrossDevicesConvertsAndBroadcasts) {
    const auto values = random_floats(8, 5);
    const Array row = Array::from_host(std::span<const float>(values), {8}, device(1));
    Array target = Array::empty({3, 8}, DType::float64, device(0));
    target.assign(row);
    std::vector<double> host(24);
    target.copy_to_host(HostView(reinterpret_cast<std::byte*>(host.data()), DType::float64, {3, 8}));
    for (std::size_t i = 0; i < host.size(); ++i) EXPECT_EQ(host[i], static_cast<double>(values[i % 8]));
}

TEST_F(PeerCopy, OperationsRefuseArraysOfTwoDevices) {
    const auto values = random_floats(16, 7);
    const Array a = Array::from_host(std::span<const float>(values), {16}, device(0));
    const Array b = Array::from_host(std::span<const float>(values), {16}, device(1));
    try {
        (void)add(a, b);
        FAIL() << "an elementwise operation took arrays of two devices";
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("device 1"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("to_device(0)"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)matmul(a.reshape({4, 4}), b.reshape({4, 4})), InvalidArgumentError);
}

TEST_F(PeerCopy, ExplicitCopiesMakeMixedWorkRun) {
    const auto values = random_floats(16, 7);
    const Array a = Array::from_host(std::span<const float>(values), {16}, device(0));
    const Array b = Array::from_host(std::span<const float>(values), {16}, device(1));
    const auto sum = host_of(add(a, b.to_device(device(0))));
    for (std::size_t i = 0; i < sum.size(); ++i) EXPECT_EQ(sum[i], values[i] + values[i]);
}

TEST_F(PeerCopy, BuffersCopyBetweenDevicesSynchronouslyAndOnAStream) {
    const auto values = random_floats(1000, 11);
    auto source = DeviceBuffer::from_host(std::span<const float>(values), device(0));
    DeviceBuffer target(device(1), values.size() * sizeof(float));
    copy(target.view(), source.view());
    std::vector<float> back(values.size());
    copy(std::span<float>(back), target.view());
    EXPECT_EQ(back, values);
    DeviceBuffer again(device(0), values.size() * sizeof(float));
    const Stream stream(device(1));
    copy_async(again.view(), target.view(), stream);
    stream.synchronize();
    copy(std::span<float>(back), again.view());
    EXPECT_EQ(back, values);
}

TEST_F(PeerCopy, PeerAccessIsAskedAndEnabledOncePerPair) {
    const Device first = device(0);
    const Device second = device(1);
    EXPECT_FALSE(first.can_access_peer(first));
    if (!first.can_access_peer(second)) {
        EXPECT_THROW(first.enable_peer_access(second), InvalidArgumentError);
        GTEST_SKIP() << "these two devices have no peer access";
    }
    first.enable_peer_access(second);
    first.enable_peer_access(second);  // a second time: nothing to do, no driver error
}

TEST_F(PeerCopy, AStreamWaitsForAnotherDevicesEvent) {
    const auto values = random_floats(1 << 16, 13);
    const Array source = Array::from_host(std::span<const float>(values), {1 << 16}, device(0));
    const Array doubled = multiply(source, source);
    Event done(device(0), EventFlags::no_timing);
    done.record(current_stream(device(0)));
    const Stream other(device(1));
    other.wait(done);
    DeviceBuffer there(device(1), values.size() * sizeof(float));
    const BufferView from(device(0), doubled.address(), values.size() * sizeof(float));
    copy_async(there.view(), from, other);
    other.synchronize();
    std::vector<float> back(values.size());
    copy(std::span<float>(back), there.view());
    for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i], values[i] * values[i]);
}

TEST_F(PeerCopy, ADeviceOutOfRangeNamesHowManyThereAre) {
    const auto count = devices().size();
    try {
        (void)device(static_cast<int>(count) + 3);
        FAIL() << "device() took an ordinal past the last device";
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("there are " + std::to_string(count)), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)device(-1), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
