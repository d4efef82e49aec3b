// tests/backends/sim/device_memory_test.cpp: the simulated device's memory and its guard pages:
// the protection changes the allocator hands the device process, applied in order, make exactly
// the pages live allocations touch accessible; allocations of a page or more end on a page
// boundary with an untouched page after them.
#include "backends/sim/device_memory.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using gpukit::detail::sim::DeviceMemory;

const std::uint64_t page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));

// What the device process knows: the pages it made accessible, from the changes it was sent.
class DeviceView {
public:
    void apply(const std::vector<DeviceMemory::ProtectionChange>& changes) {
        std::uint64_t previous_end = 0;
        for (const auto& change : changes) {
            ASSERT_EQ(change.address % page, 0u);
            ASSERT_EQ(change.bytes % page, 0u);
            ASSERT_GT(change.bytes, 0u);
            ASSERT_GE(change.address, previous_end) << "changes come in address order, without overlap";
            previous_end = change.address + change.bytes;
            for (std::uint64_t at = change.address; at < change.address + change.bytes; at += page) {
                // A change is sent only where the state differs from what the device process has.
                ASSERT_NE(open_.count(at) != 0, change.accessible) << "page " << at << " sent without a change";
                if (change.accessible)
                    open_.insert(at);
                else
                    open_.erase(at);
            }
        }
    }
    void take_all(DeviceMemory& memory, std::size_t most = 1 << 20) {
        while (memory.protection_changes_left()) {
            const auto changes = memory.take_protection_changes(most);
            ASSERT_FALSE(changes.empty());
            ASSERT_LE(changes.size(), most);
            apply(changes);
        }
    }
    void forget() { open_.clear(); }
    const std::set<std::uint64_t>& open() const { return open_; }

private:
    std::set<std::uint64_t> open_;
};

// The pages the live allocations' bytes touch.
std::set<std::uint64_t> touched(const std::map<std::uint64_t, std::size_t>& live) {
    std::set<std::uint64_t> pages;
    for (const auto& [address, bytes] : live)
        for (std::uint64_t at = address / page * page; at < address + bytes; at += page) pages.insert(at);
    return pages;
}

TEST(DeviceMemoryGuardPages, AnAllocationOfAPageOrMoreEndsOnAPageBoundaryBeforeAnUntouchedPage) {
    DeviceMemory memory(std::size_t{64} << 20);
    memory.guard_pages(true);
    std::mt19937 random(11);
    std::uniform_int_distribution<std::size_t> units(1, 1200);  // 256 B to 300 KiB, in 256-byte units
    std::map<std::uint64_t, std::size_t> live;
    for (int i = 0; i < 400; ++i) {
        const std::size_t bytes = units(random) * 256;
        const auto address = memory.allocate(bytes);
        ASSERT_TRUE(address);
        EXPECT_EQ(*address % 256, 0u);
        live[*address] = bytes;
        if (i % 3 == 0) {  // free some, so that later ones land in the holes
            auto victim = live.begin();
            std::advance(victim, static_cast<long>(random() % live.size()));
            EXPECT_EQ(memory.release(victim->first), victim->second);
            live.erase(victim);
        }
    }
    const auto pages = touched(live);
    for (const auto& [address, bytes] : live) {
        if (bytes < page) continue;
        EXPECT_EQ((address + bytes) % page, 0u) << bytes << " bytes at " << address;
        EXPECT_EQ(pages.count(address + bytes), 0u) << "the page after " << bytes << " bytes at " << address;
    }
}

TEST(DeviceMemoryGuardPages, TheChangesSentMakeExactlyTheTouchedPagesAccessible) {
    DeviceMemory memory(std::size_t{64} << 20);
    memory.guard_pages(true);
    DeviceView device;
    std::mt19937 random(3);
    // Small ones share pages; large ones do not.
    std::uniform_int_distribution<std::size_t> small(1, 3000), large(4096, 70000);
    std::map<std::uint64_t, std::size_t> live;
    for (int round = 0; round < 3000; ++round) {
        if (live.empty() || random() % 5 < 3) {
            const std::size_t bytes = random() % 2 ? small(random) : large(random);
            const auto address = memory.allocate(bytes);
            ASSERT_TRUE(address);
            live[*address] = bytes;
        } else {
            auto victim = live.begin();
            std::advance(victim, static_cast<long>(random() % live.size()));
            memory.release(victim->first);
            live.erase(victim);
        }
        if (round % 7 == 0) {  // a launch: the device process takes what changed since the last
            device.take_all(memory, 1 + random() % 16);
            ASSERT_EQ(device.open(), touched(live)) << "after round " << round;
        }
    }
    device.take_all(memory);
    EXPECT_EQ(device.open(), touched(live));

    // A new device process has no page accessible: everything is sent again.
    device.forget();
    memory.resend_protection();
    device.take_all(memory);
    EXPECT_EQ(device.open(), touched(live));

    // Everything freed: every page goes back to inaccessible.
    for (const auto& [address, bytes] : live) memory.release(address);
    device.take_all(memory);
    EXPECT_TRUE(device.open().empty());
}

TEST(DeviceMemoryGuardPages, AFreeAndAnAllocationOfTheSamePagesBetweenLaunchesSendNothing) {
    DeviceMemory memory(std::size_t{64} << 20);
    memory.guard_pages(true);
    DeviceView device;
    const auto first = memory.allocate(4096);
    ASSERT_TRUE(first);
    device.take_all(memory);
    for (int i = 0; i < 100; ++i) {
        memory.release(*first);
        ASSERT_EQ(memory.allocate(4096), first) << "best fit takes the same place again";
        EXPECT_FALSE(memory.protection_changes_left());
    }
    // The sharers of one page: it stays accessible while either lives.
    const auto a = memory.allocate(256);
    const auto b = memory.allocate(256);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(*a / page, *b / page);
    device.take_all(memory);
    EXPECT_EQ(device.open().count(*a / page * page), 1u);
    memory.release(*a);
    EXPECT_FALSE(memory.protection_changes_left());
    memory.release(*b);
    device.take_all(memory);
    EXPECT_EQ(device.open().count(*a / page * page), 0u);
}

TEST(DeviceMemoryGuardPages, WithoutGuardingNothingIsRecorded) {
    DeviceMemory memory(std::size_t{16} << 20);
    const auto a = memory.allocate(10000);
    ASSERT_TRUE(a);
    EXPECT_FALSE(memory.protection_changes_left());
    memory.guard_pages(true);  // the allocations made so far count from here
    DeviceView device;
    device.take_all(memory);
    EXPECT_EQ(device.open(), touched({{*a, 10000}}));
    memory.guard_pages(false);
    memory.release(*a);
    EXPECT_FALSE(memory.protection_changes_left());
}

TEST(DeviceMemoryGuardPages, DescribeNamesTheNearestAllocation) {
    DeviceMemory memory(std::size_t{16} << 20);
    const auto a = memory.allocate(4096);
    const auto b = memory.allocate(1 << 20);
    ASSERT_TRUE(a && b);
    ASSERT_LT(*a, *b);
    EXPECT_EQ(
        memory.describe(*a + 4096 + 8), "in no allocation: 8 bytes after the end of the allocation at 0x" + [&] {
            char text[32];
            std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(*a));
            return std::string(text);
        }() + " of 4096 bytes");
    EXPECT_NE(memory.describe(*b - 4).find("4 bytes before the allocation at"), std::string::npos);
    EXPECT_NE(memory.describe(*b + 100).find("inside the allocation at"), std::string::npos);
    EXPECT_EQ(memory.describe(*b + (std::uint64_t{8} << 20)), "in no allocation");
    EXPECT_EQ(memory.describe(memory.base() + memory.capacity() + 4096), "outside device memory");
}

}  // namespace
