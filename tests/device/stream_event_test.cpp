// tests/device/stream_event_test.cpp: streams and events on the GPU.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpukit::testing
