// tests/device/stream_event_test.cpp: streams and events on the GPU.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class StreamsAndEvents : public DeviceTest {};

constexpr const char* spin_source = R"(
extern "C" __global__ void spin(long long cycles, int* done) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  if (threadIdx.x == 0) *done = 1;
})";

TEST_F(StreamsAndEvents, EventsTimeWorkOnAStream) {
    auto spin = Module::compile(spin_source).kernel("spin");
    DeviceBuffer done(sizeof(int));
    memset(done, 0);
    Stream stream(StreamFlags::non_blocking);
    Event start, end;
    start.record(stream);
    const long long cycles = 20'000'000;  // about 10 ms at 2 GHz
    spin({.grid = 1, .block = 32, .stream = stream}, cycles, done);
    end.record(stream);
    EXPECT_FALSE(stream.query());
    EXPECT_FALSE(end.query());
    end.synchronize();
    EXPECT_TRUE(end.query());
    EXPECT_TRUE(stream.query());
    const float ms = Event::elapsed_ms(start, end);
    // The events bracket the spin (the simulator runs its 32 threads one after another); the upper
    // bound only rules out nonsense, with room for a loaded CI machine.
    EXPECT_GT(ms, 1.0f);
    EXPECT_LT(ms, 30000.0f);
    int flag = 0;
    copy(std::span<int>(&flag, 1), done.view());
    EXPECT_EQ(flag, 1);
}

TEST_F(StreamsAndEvents, ElapsedTimeNeedsTwoTimedRecordedEvents) {
    Event start, end, untimed(EventFlags::no_timing);
    EXPECT_THROW(Event::elapsed_ms(start, end), InvalidArgumentError);
    start.record();
    untimed.record();
    EXPECT_THROW(Event::elapsed_ms(start, untimed), InvalidArgumentError);
    end.record();
    end.synchronize();
    EXPECT_GE(Event::elapsed_ms(start, end), 0.0f);
}

TEST_F(StreamsAndEvents, DefaultStreamRef) {
    StreamRef default_stream;
    EXPECT_TRUE(default_stream.is_default());
    EXPECT_EQ(default_stream.native_handle(), nullptr);
    default_stream.synchronize();
    EXPECT_TRUE(default_stream.query());
    Stream owned;
    EXPECT_FALSE(StreamRef(owned).is_default());
    EXPECT_NE(StreamRef(owned).native_handle(), nullptr);
    EXPECT_EQ(StreamRef::default_stream(device(0)).device(), device(0));
}

// One-block launches back to back, each with its own arguments: on the simulator they run on the
// thread that takes them (no worker is woken) and reach the device process without a sleep, so
// order, arguments and results are what is checked.
TEST_F(StreamsAndEvents, ManyOneBlockLaunchesRunInOrderWithTheirOwnArguments) {
    // Unsigned arithmetic wraps exactly on every backend: any launch out of order, or run with
    // another's arguments, changes the result.
    auto step = Module::compile(R"(
extern "C" __global__ void step(unsigned* x, unsigned scale, unsigned add, int n) {
  int i = threadIdx.x;
  if (i < n) x[i] = x[i] * scale + add;
})")
                    .kernel("step");
    const int n = 32, launches = 300;
    std::mt19937 random(34);
    std::vector<unsigned> start(n), scales(launches), adds(launches);
    for (auto& v : start) v = random();
    for (auto& v : scales) v = random() | 1;
    for (auto& v : adds) v = random();
    auto x = DeviceBuffer::from_host(std::span<const unsigned>(start));
    std::vector<unsigned> expected = start;
    Stream stream;
    for (int k = 0; k < launches; ++k) {
        step({.grid = 1, .block = n, .stream = stream}, x, scales[k], adds[k], n);
        for (auto& v : expected) v = v * scales[k] + adds[k];
        if (k % 7 == 0) stream.synchronize();  // some waited for one by one, most queued
    }
    stream.synchronize();
    std::vector<unsigned> out(n);
    copy(std::span<unsigned>(out), x.view());
    EXPECT_EQ(out, expected);
}

}  // namespace
}  // namespace gpukit::testing
