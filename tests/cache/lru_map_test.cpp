// tests/cache/lru_map_test.cpp: the memo's map keeps its most recently used entries within its bounds.
#include "cache/lru_map.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpukit::detail {
namespace {

TEST(LruMap, EvictsTheLeastRecentlyUsedBeyondTheEntryBound) {
    LruMap<std::string, int> map;
    std::vector<int> evicted;
    for (int i = 0; i < 5; ++i) map.emplace("k" + std::to_string(i), i, 10);
    ASSERT_NE(map.find("k0"), nullptr);  // k0 becomes the most recently used
    EXPECT_EQ(map.trim(3, 1000, evicted), 2u);
    EXPECT_EQ(evicted, (std::vector<int>{1, 2}));
    EXPECT_EQ(map.size(), 3u);
    EXPECT_EQ(map.bytes(), 30u);
    EXPECT_EQ(map.find("k1"), nullptr);
    EXPECT_EQ(*map.find("k0"), 0);
    EXPECT_EQ(*map.find("k4"), 4);
}

TEST(LruMap, EvictsBeyondTheByteBound) {
    LruMap<int, int> map;
    std::vector<int> evicted;
    map.emplace(1, 1, 600);
    map.emplace(2, 2, 300);
    map.emplace(3, 3, 300);
    EXPECT_EQ(map.trim(100, 700, evicted), 1u);  // 1200 bytes: the oldest goes, 600 remain
    EXPECT_EQ(evicted, std::vector<int>{1});
    EXPECT_EQ(map.bytes(), 600u);
    map.emplace(4, 4, 5000);  // one entry over the bound alone is not kept either
    map.trim(100, 700, evicted);
    EXPECT_EQ(map.size(), 0u);
    EXPECT_EQ(map.bytes(), 0u);
}

TEST(LruMap, KeepsTheFirstValueStoredForAKey) {
    LruMap<int, std::shared_ptr<int>> map;
    const auto first = std::make_shared<int>(1);
    EXPECT_EQ(map.emplace(7, first, 4), first);
    EXPECT_EQ(map.emplace(7, std::make_shared<int>(2), 4), first);
    EXPECT_EQ(map.size(), 1u);
    EXPECT_EQ(map.bytes(), 4u);
}

TEST(LruMap, ClearHandsBackEveryValue) {
    LruMap<int, std::shared_ptr<int>> map;
    const auto value = std::make_shared<int>(5);
    map.emplace(1, value, 8);
    std::vector<std::shared_ptr<int>> evicted;
    map.clear(evicted);
    EXPECT_EQ(map.size(), 0u);
    EXPECT_EQ(map.bytes(), 0u);
    ASSERT_EQ(evicted.size(), 1u);
    EXPECT_EQ(value.use_count(), 2);  // freed by the caller, not by the map
}

TEST(LruMap, ZeroKeepsNothing) {
    LruMap<int, int> map;
    std::vector<int> evicted;
    map.emplace(1, 1, 1);
    EXPECT_EQ(map.trim(0, 1000, evicted), 1u);
    EXPECT_EQ(map.size(), 0u);
}

}  // namespace
}  // namespace gpukit::detail
