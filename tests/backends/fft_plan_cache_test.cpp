// tests/backends/fft_plan_cache_test.cpp: the FFT libraries' plan cache (src/backends/fft_plan_cache.hpp):
// reuse by key, least recently used dropped first, plans in use outliving their eviction, one
// plan per key when threads race for it.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "backends/fft_plan_cache.hpp"

namespace gpukit::detail {
namespace {

struct CountedPlan {
    int id;
};

FftPlanKey key_of(std::int64_t n, FftType type = FftType::c2c) {
    FftPlanKey key;
    key.extents = {n};
    key.batch = 1;
    key.input_distance = key.output_distance = n;
    key.type = type;
    return key;
}

TEST(FftPlanCache, ReusesPlansByKeyAndDropsTheLeastRecentlyUsed) {
    FftPlanCache<CountedPlan> cache(2);
    int made = 0;
    const auto make = [&] { return std::make_shared<CountedPlan>(CountedPlan{made++}); };
    const auto a = cache.get(key_of(8), make);
    const auto b = cache.get(key_of(16), make);
    EXPECT_EQ(cache.get(key_of(8), make), a);                // reused, and now the most recent
    EXPECT_NE(cache.get(key_of(8, FftType::r2c), make), a);  // another type is another plan
    EXPECT_EQ(made, 3);
    EXPECT_EQ(cache.size(), 2u);
    EXPECT_EQ(cache.get(key_of(8), make), a);   // kept: 16 was the least recently used
    EXPECT_NE(cache.get(key_of(16), make), b);  // dropped, made again
    EXPECT_EQ(made, 4);
    EXPECT_EQ(b->id, 1);  // the dropped plan lives on with its user
}

TEST(FftPlanCache, ThreadsRacingForOneKeyShareOnePlan) {
    FftPlanCache<CountedPlan> cache(16);
    std::atomic<int> made{0};
    std::vector<std::shared_ptr<CountedPlan>> got(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < got.size(); ++t)
        threads.emplace_back([&, t] {
            got[t] = cache.get(key_of(1024), [&] { return std::make_shared<CountedPlan>(CountedPlan{made++}); });
        });
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(made.load(), 1);
    for (const auto& plan : got) EXPECT_EQ(plan, got[0]);
}

}  // namespace
}  // namespace gpukit::detail
