// tests/backends/sim/sim_streams_test.cpp: actions put off until the work queued before them has
// ended (how the simulator frees memory that queued kernels may still use, as cudaFree does); a
// destroyed stream's work goes on without the destroyer waiting for it; a give-up tells the work
// running at the time that it was given up.
#include "backends/sim/sim_streams.hpp"

#include <gtest/gtest.h>

#include "gpukit/error.hpp"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {

using gpukit::detail::Deadline;
using gpukit::detail::WaitLimit;
using gpukit::detail::sim::StreamScheduler;

// A deadline `ms` milliseconds from now.
Deadline in_ms(int ms) {
    return WaitLimit{std::chrono::steady_clock::now() + std::chrono::milliseconds(ms), ms / 1000.0};
}
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

TEST(StreamSchedulerDestroy, DestroyingAStreamDoesNotWaitForItsWorkWhichStillCounts) {
    StreamScheduler streams;
    auto* stream = streams.create_stream(true);
    std::atomic<bool> release{false}, done{false};
    streams.enqueue(stream, [&] {
        while (!release) std::this_thread::sleep_for(1ms);
        done = true;
    });
    const auto start = std::chrono::steady_clock::now();
    streams.destroy_stream(stream);  // the work may never end: no wait for it
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    EXPECT_THROW(streams.enqueue(stream, [] {}), gpukit::UsageError);
    EXPECT_THROW(streams.synchronize(stream), gpukit::UsageError);
    // Its work still counts: the device's synchronisation waits for it (and cannot stop it here).
    EXPECT_THROW(streams.synchronize_all(in_ms(50)), gpukit::WaitTimeoutError);
    EXPECT_FALSE(done.load());
    // Work on the legacy default stream waits for it too.
    std::atomic<bool> after{false};
    streams.enqueue(nullptr, [&] { after = done.load(); });
    release = true;
    streams.synchronize_all();
    EXPECT_TRUE(done.load());
    EXPECT_TRUE(after.load());
    // A later destroy joins the ended thread; destroying twice is nothing.
    auto* other = streams.create_stream(false);
    streams.destroy_stream(other);
    streams.destroy_stream(other);
}

TEST(StreamSchedulerGiveUp, TheRunningWorkLearnsItWasGivenUpAndLaterWorkDoesNot) {
    StreamScheduler streams;
    std::atomic<int> stops{0};
    streams.set_stopper([&](const std::string&) {
        ++stops;
        return true;
    });
    EXPECT_FALSE(StreamScheduler::given_up_check()) << "no stream's work runs on this thread";
    // Work that, like a launch on its way to the device process, ends only once it is given up.
    std::atomic<bool> started{false}, saw_given_up{false};
    auto* stream = streams.create_stream(true);
    streams.enqueue(stream, [&] {
        const auto given_up = StreamScheduler::given_up_check();
        ASSERT_TRUE(given_up);
        EXPECT_FALSE(given_up());
        started = true;
        while (!given_up()) std::this_thread::sleep_for(1ms);
        saw_given_up = true;
    });
    while (!started) std::this_thread::sleep_for(1ms);
    EXPECT_THROW(streams.synchronize(stream, in_ms(20)), gpukit::WaitTimeoutError);
    EXPECT_TRUE(saw_given_up.load());
    EXPECT_EQ(stops.load(), 1);
    std::atomic<bool> later_given_up{true};
    streams.enqueue(stream, [&] { later_given_up = StreamScheduler::given_up_check()(); });
    streams.synchronize(stream);
    EXPECT_FALSE(later_given_up.load());
    streams.destroy_stream(stream);
}

}  // namespace
