// tests/backends/sim/sim_streams_test.cpp: actions put off until the work queued before them has
// ended (how the simulator frees memory that queued kernels may still use, as cudaFree does).
#include "backends/sim/sim_streams.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

using gpukit::detail::sim::StreamScheduler;
using namespace std::chrono_literals;

TEST(StreamSchedulerPutOff, AnActionRunsAtOnceWhenNothingIsQueued) {
    StreamScheduler streams;
    bool ran = false;
    streams.after_queued_work([&] { ran = true; });
    EXPECT_TRUE(ran);
}

TEST(StreamSchedulerPutOff, AnActionWaitsForTheWorkQueuedBeforeItOnEveryStream) {
    StreamScheduler streams;
    auto* other = streams.create_stream(false);
    std::atomic<bool> release_default{false}, release_other{false};
    std::atomic<int> order{0};
    int default_done = 0, other_done = 0, action_ran = 0;
    streams.enqueue(nullptr, [&] {
        while (!release_default) std::this_thread::sleep_for(1ms);
        default_done = ++order;
    });
    streams.enqueue(other, [&] {
        while (!release_other) std::this_thread::sleep_for(1ms);
        other_done = ++order;
    });
    streams.after_queued_work([&] { action_ran = ++order; });
    // Work queued after the action does not hold it back.
    std::atomic<bool> release_later{false};
    streams.enqueue(other, [&] {
        while (!release_later) std::this_thread::sleep_for(1ms);
    });
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(order.load(), 0);
    release_other = true;
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(action_ran, 0) << "the default stream's work has not ended";
    release_default = true;
    streams.finish_put_off_actions();
    EXPECT_EQ(action_ran, 3);
    EXPECT_LT(other_done, action_ran);
    EXPECT_LT(default_done, action_ran);
    release_later = true;
    streams.synchronize_all();
    streams.destroy_stream(other);
}

TEST(StreamSchedulerPutOff, ActionsRunInTheOrderTheyWerePutOff) {
    StreamScheduler streams;
    std::atomic<bool> go{false};
    streams.enqueue(nullptr, [&] {
        while (!go) std::this_thread::sleep_for(1ms);
    });
    std::vector<int> ran;
    for (int i = 0; i < 5; ++i) streams.after_queued_work([&ran, i] { ran.push_back(i); });
    EXPECT_TRUE(ran.empty());
    go = true;
    streams.finish_put_off_actions();
    EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4}));
}

}  // namespace
