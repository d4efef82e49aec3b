// tests/device/memory_pool_test.cpp: the caching allocator behind arrays (gpukit/memory_pool.hpp):
// reuse, rounding and splitting, stream order, the bytes it counts, out of memory, views, and the
// simulator's checks, which must still see each array as an allocation of its own.
//
// Stream order is tested without timing: a kernel holds its stream until the host opens a gate
// (an int in managed memory), so "that stream still runs" is certain while the gate is shut.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

constexpr const char* pool_kernels = R"(
// Holds its stream until the host opens the gate (or, should the host never do so, for a few
// seconds), then writes `value` to every element: work that would land late if the pool handed its
// memory to another stream too early.
extern "C" __global__ void hold(volatile const int* gate, float* out, int n, float value) {
  const long long start = clock64();
  while (*gate == 0 && clock64() - start < (1LL << 33)) {}
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = value;
}
extern "C" __global__ void set(float* out, int n, float value) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = value;
}
)";

// The default pool of the current device, caching whatever the backend (the simulator's does not
// cache by default), empty and without a limit; put back as it was afterwards.
class MemoryPools : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        pool_ = default_memory_pool();
        was_caching_ = pool_->caching();
        pool_->set_caching(true);
        pool_->set_limit(0);
        pool_->free_all_blocks();
    }
    void TearDown() override {
        if (!pool_) return;
        Device::current().synchronize();
        pool_->set_limit(0);
        pool_->set_caching(was_caching_);
        pool_->free_all_blocks();
    }

    MemoryPool& pool() { return *pool_; }

    static Kernel kernel(const char* name) {
        static const Module module = Module::compile(pool_kernels);
        return module.kernel(name);
    }

    // A shut gate in managed memory, which the host opens while a kernel reads it.
    struct Gate {
        ManagedBuffer flag{sizeof(int)};
        Gate() { std::memset(flag.data(), 0, sizeof(int)); }
        void open() {
            std::atomic_ref(*flag.as<int>().data()).store(1);
            std::atomic_thread_fence(std::memory_order_seq_cst);
        }
    };

    static std::vector<float> values_of(const Array& array) { return array.to_vector<float>(); }

private:
    std::optional<MemoryPool> pool_;
    bool was_caching_ = false;
};

constexpr std::int64_t mib = 1 << 20;
// 12 MiB of float32: a large request, whose segment is exactly its size (nothing split off).
constexpr std::int64_t large_count = 12 * mib / 4;

Array empty_floats(std::int64_t count) { return Array::empty({count}, DType::float32); }

TEST_F(MemoryPools, AFreedBlockIsHandedOutAgainAndHoldsWhatItIsGiven) {
    const auto values = random_floats(1000, 3);
    std::uint64_t address = 0;
    {
        const Array a = Array::from_host(std::span<const float>(values), {1000});
        address = a.address();
        EXPECT_EQ(a.to_vector<float>(), values);
        EXPECT_TRUE(a.owns_data());
        EXPECT_EQ(pool().used_bytes(), 4096u);  // 4000 bytes rounded up to 512
    }
    EXPECT_EQ(pool().used_bytes(), 0u);
    EXPECT_EQ(pool().total_bytes(), std::size_t{2 * mib});  // one small segment, cached
    EXPECT_EQ(pool().n_free_blocks(), 1u);
    const auto others = random_floats(900, 4);
    const Array b = Array::from_host(std::span<const float>(others), {900});  // 3600 bytes: the same block size
    EXPECT_EQ(b.address(), address);
    EXPECT_EQ(b.to_vector<float>(), others);
    EXPECT_EQ(pool().total_bytes(), std::size_t{2 * mib});
}

TEST_F(MemoryPools, SegmentsAreSplitAndTheirFreedBlocksMergeBackWhole) {
    std::vector<Array> arrays;
    for (std::int64_t count : {1, 128, 1000, 3000, 100000}) arrays.push_back(empty_floats(count));
    // 4, 512, 4000, 12000 and 400000 bytes -> 512, 512, 4096, 12288 and 400384: side by side in one segment.
    EXPECT_EQ(pool().used_bytes(), std::size_t{512 + 512 + 4096 + 12288 + 400384});
    EXPECT_EQ(pool().total_bytes(), std::size_t{2 * mib});
    for (std::size_t i = 1; i < arrays.size(); ++i)
        EXPECT_EQ(arrays[i].address(), arrays[i - 1].address() + ((arrays[i - 1].nbytes() + 511) / 512 * 512)) << i;
    EXPECT_EQ(pool().n_free_blocks(), 1u);  // the rest of the segment

    arrays[1] = Array::empty({0}, DType::float32);
    arrays[3] = Array::empty({0}, DType::float32);
    EXPECT_EQ(pool().n_free_blocks(), 3u);  // two holes and the rest
    pool().free_all_blocks();               // the segment still holds live blocks: it stays
    EXPECT_EQ(pool().total_bytes(), std::size_t{2 * mib});
    arrays.clear();
    EXPECT_EQ(pool().n_free_blocks(), 1u);  // merged back into one
    EXPECT_EQ(pool().used_bytes(), 0u);
    pool().free_all_blocks();
    EXPECT_EQ(pool().total_bytes(), 0u);
    EXPECT_EQ(pool().n_free_blocks(), 0u);
}

TEST_F(MemoryPools, MediumAndLargeRequestsGetSegmentsOfTheirOwnSizes) {
    const Array medium = empty_floats(3 * mib / 4);  // 3 MiB: cut from a 20 MiB segment
    EXPECT_EQ(pool().total_bytes(), std::size_t{20 * mib});
    EXPECT_EQ(pool().used_bytes(), std::size_t{3 * mib});
    const Array another = empty_floats(5 * mib / 4);  // from the same segment
    EXPECT_EQ(another.address(), medium.address() + 3 * mib);
    EXPECT_EQ(pool().total_bytes(), std::size_t{20 * mib});
    const Array large = empty_floats(large_count + 1);  // 12 MiB and 4 bytes: 14 MiB, a segment of its own
    EXPECT_EQ(pool().total_bytes(), std::size_t{34 * mib});
    EXPECT_EQ(pool().used_bytes(), std::size_t{3 * mib + 5 * mib + 12 * mib + 512});
    const Array small = empty_floats(10);  // small requests never come from large segments
    EXPECT_EQ(pool().total_bytes(), std::size_t{36 * mib});
}

TEST_F(MemoryPools, ViewsKeepTheirBlockFromBeingHandedOut) {
    const auto values = random_floats(1000, 5);
    Array view = [&] {
        const Array whole = Array::from_host(std::span<const float>(values), {1000});
        return whole.index({Slice{100, 900, 7}});
    }();
    EXPECT_EQ(pool().used_bytes(), 4096u);  // the view holds the whole block
    const Array other = empty_floats(1000);
    EXPECT_NE(other.address(), view.memory()->allocation()->address());
    const auto seen = view.to_vector<float>();
    for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], values[100 + 7 * i]) << i;
    view = Array::empty({0}, DType::float32);
    EXPECT_EQ(pool().used_bytes(), 4096u);  // only `other`
    EXPECT_EQ(pool().n_free_blocks(), 2u);
}

TEST_F(MemoryPools, ZeroBytesHoldNoBlock) {
    const Array none = Array::empty({0, 5}, DType::float64);
    EXPECT_EQ(none.address(), 0u);
    EXPECT_TRUE(none.owns_data());
    EXPECT_EQ(pool().used_bytes(), 0u);
    EXPECT_EQ(pool().total_bytes(), 0u);
}

TEST_F(MemoryPools, AStreamTakesBackItsOwnBlockAtOnceAndAnotherOnlyOnceItsWorkIsDone) {
    Gate gate;
    Stream first, second;
    std::uint64_t address = 0;
    {
        const StreamScope scope(first);
        const Array a = empty_floats(large_count);
        address = a.address();
        kernel("hold")({.grid = 1, .block = 32, .stream = first}, gate.flag, a, static_cast<int>(large_count), 1.0f);
    }  // back in the pool at once, while `hold` still writes it
    EXPECT_EQ(pool().used_bytes(), 0u);
    EXPECT_FALSE(first.query());

    const Array elsewhere = [&] {
        const StreamScope scope(second);
        return empty_floats(large_count);
    }();
    EXPECT_NE(elsewhere.address(), address);  // `first` still runs: new memory for `second`
    Array again = [&] {
        const StreamScope scope(first);
        return empty_floats(large_count);
    }();
    EXPECT_EQ(again.address(), address);  // `first` itself queues after `hold`: no wait
    kernel("set")({.grid = 4, .block = 128, .stream = first}, again, static_cast<int>(large_count), 2.0f);
    EXPECT_FALSE(first.query());  // nothing so far waited for `hold`
    gate.open();
    first.synchronize();
    const auto written = values_of(again);
    for (std::int64_t i = 0; i < large_count; i += 4099) ASSERT_EQ(written[i], 2.0f) << i;  // `set` ran after `hold`

    // Now `first` has no work left: its block serves `second` too.
    again = Array::empty({0}, DType::float32);
    const Array reused = [&] {
        const StreamScope scope(second);
        return empty_floats(large_count);
    }();
    EXPECT_EQ(reused.address(), address);
    EXPECT_EQ(pool().total_bytes(), std::size_t{24 * mib});
}

TEST_F(MemoryPools, MemoryUsedOnAnotherStreamWaitsForTheDeviceBeforeItGoesBack) {
    Gate gate;
    Stream other;
    std::uint64_t address = 0;
    std::thread opener;
    {
        const Array a = empty_floats(large_count);  // on the default stream
        address = a.address();
        kernel("hold")({.grid = 1, .block = 32, .stream = other}, gate.flag, a, static_cast<int>(large_count), 1.0f);
        opener = std::thread([&gate] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            gate.open();
        });
    }  // used on `other`: this waits for the device, which waits for the gate
    opener.join();
    EXPECT_TRUE(other.query());
    const Stream third;
    const StreamScope scope(third);
    EXPECT_EQ(empty_floats(large_count).address(), address);  // free for any stream
}

TEST_F(MemoryPools, ABlockHandedOutInItsStreamsOrderMakesAnotherStreamWaitForThatOrder) {
    Gate gate;
    Stream first, second;
    {
        const StreamScope scope(first);
        const Array a = empty_floats(large_count);
        kernel("hold")({.grid = 1, .block = 32, .stream = first}, gate.flag, a, static_cast<int>(large_count), 1.0f);
    }
    ASSERT_FALSE(first.query());
    Array reused = [&] {
        const StreamScope scope(first);
        return empty_floats(large_count);  // the block `hold` still writes, in `first`'s order
    }();
    // On `second`, `set` must not overtake `hold`, which would then overwrite it.
    kernel("set")({.grid = 4, .block = 128, .stream = second}, reused, static_cast<int>(large_count), 3.0f);
    EXPECT_FALSE(second.query());  // waits for `first`
    gate.open();
    second.synchronize();
    const auto written = values_of(reused);
    for (std::int64_t i = 0; i < large_count; i += 4099) ASSERT_EQ(written[i], 3.0f) << i;
}

TEST_F(MemoryPools, AHostWriteOnAnotherStreamWaitsForTheBlocksOrderToo) {
    Gate gate;
    Stream first, second;
    {
        const StreamScope scope(first);
        const Array a = empty_floats(large_count);
        kernel("hold")({.grid = 1, .block = 32, .stream = first}, gate.flag, a, static_cast<int>(large_count), 1.0f);
    }
    Array reused = [&] {
        const StreamScope scope(first);
        return empty_floats(large_count);
    }();
    const auto values = random_floats(static_cast<std::size_t>(large_count), 11);
    std::thread opener([&gate] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        gate.open();
    });
    {
        const StreamScope scope(second);  // a copy on `second`, which returns once done: after `hold`
        reused.copy_from_host(
            ConstHostView(reinterpret_cast<const std::byte*>(values.data()), DType::float32, {large_count}));
    }
    opener.join();
    Device::current().synchronize();
    EXPECT_EQ(reused.to_vector<float>(), values);
}

TEST_F(MemoryPools, OutOfMemoryGivesTheCacheBackAndTriesAgain) {
    pool().set_limit(4 * mib);
    EXPECT_EQ(pool().limit(), std::size_t{4 * mib});
    { const Array a = empty_floats(mib / 4); }              // 1 MiB, from a 2 MiB segment
    EXPECT_EQ(pool().total_bytes(), std::size_t{2 * mib});  // cached
    // 3 MiB more would pass the limit: the cached segment goes, then there is room.
    const Array big = empty_floats(3 * mib / 4);
    EXPECT_EQ(pool().total_bytes(), std::size_t{3 * mib});  // under a limit, no more than asked
    EXPECT_EQ(pool().n_free_blocks(), 0u);

    try {
        const Array too_much = empty_floats(3 * mib / 4);
        FAIL() << "allocated past the limit";
    } catch (const OutOfMemoryError& e) {
        EXPECT_EQ(e.requested_bytes(), std::size_t{3 * mib});
        EXPECT_EQ(e.total_bytes(), std::size_t{4 * mib});
        expect_contains(e.what(), "Failed to allocate 3.0 MiB on " + Device::current().describe());
        expect_contains(e.what(),
                        "the pool's limit of 4.0 MiB would be passed (it holds 3.0 MiB, 3.0 MiB of them in use)");
    }
    pool().set_limit(0);
    EXPECT_NO_THROW(empty_floats(3 * mib / 4));
}

TEST_F(MemoryPools, OutOfDeviceMemoryNamesTheBytesAskedFor) {
    { const Array cached = empty_floats(1000); }
    EXPECT_EQ(pool().total_bytes(), std::size_t{2 * mib});
    const std::size_t too_much = Device::current().properties().total_memory * 16;
    try {
        const Array huge = Array::empty({static_cast<std::int64_t>(too_much)}, DType::uint8);
        FAIL() << "allocated 16 times the device's memory";
    } catch (const OutOfMemoryError& e) {
        EXPECT_EQ(e.requested_bytes(), too_much);
        EXPECT_EQ(e.name(), "CUDA_ERROR_OUT_OF_MEMORY");
        expect_contains(e.what(), "through its memory pool (after giving back the 2.0 MiB it had cached)");
    }
    EXPECT_EQ(pool().total_bytes(), 0u);
}

TEST_F(MemoryPools, WithoutCachingEachArrayIsAnAllocationOfItsOwn) {
    { const Array cached = empty_floats(1000); }
    pool().set_caching(false);
    EXPECT_FALSE(pool().caching());
    EXPECT_EQ(pool().total_bytes(), 0u);  // the cache went back
    const Array a = empty_floats(1000), b = empty_floats(1000);
    EXPECT_EQ(pool().used_bytes(), 8000u);  // exactly the bytes asked for
    EXPECT_EQ(pool().total_bytes(), 8000u);
    { const Array c = empty_floats(10); }
    EXPECT_EQ(pool().total_bytes(), 8000u);
    EXPECT_EQ(pool().n_free_blocks(), 0u);
}

TEST_F(MemoryPools, ThreadsAllocatingAndFreeingAtOnceLeaveTheCountsRight) {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < 4; ++t)
        threads.emplace_back([t] {
            std::mt19937 random(t);
            std::vector<Array> held;
            for (int i = 0; i < 300; ++i) {
                const auto count = static_cast<std::int64_t>(random() % (i % 50 == 0 ? 4 * mib : 20000));
                held.push_back(empty_floats(count));
                if (random() % 3 == 0) held.erase(held.begin() + static_cast<std::ptrdiff_t>(random() % held.size()));
            }
        });
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(pool().used_bytes(), 0u);
    EXPECT_EQ(pool().free_bytes(), pool().total_bytes());
    pool().free_all_blocks();
    EXPECT_EQ(pool().total_bytes(), 0u);
}

TEST_F(MemoryPools, TheEnvironmentChoosesWhetherNewPoolsCache) {
    const char* before = std::getenv("GPUKIT_MEMORY_POOL");
    const std::string saved = before ? before : "";
    const bool checks = Device::current().backend_info().capabilities.check_mode;
    ::unsetenv("GPUKIT_MEMORY_POOL");
    EXPECT_EQ(MemoryPool().caching(), !checks);
    ::setenv("GPUKIT_MEMORY_POOL", "on", 1);
    EXPECT_TRUE(MemoryPool().caching());
    ::setenv("GPUKIT_MEMORY_POOL", "off", 1);
    EXPECT_FALSE(MemoryPool().caching());
    ::setenv("GPUKIT_MEMORY_POOL", "sometimes", 1);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, MemoryPool()),
                    "GPUKIT_MEMORY_POOL is 'sometimes'; it takes auto");
    if (before)
        ::setenv("GPUKIT_MEMORY_POOL", saved.c_str(), 1);
    else
        ::unsetenv("GPUKIT_MEMORY_POOL");
}

TEST_F(MemoryPools, APoolOfItsOwnIsApartFromTheDefaultOne) {
    const MemoryPool own(Device::current());
    own.set_caching(true);
    {
        const auto memory = own.allocate(1000);
        EXPECT_EQ(memory->allocation()->size_bytes(), 1000u);
        EXPECT_EQ(own.used_bytes(), 1024u);
        EXPECT_EQ(pool().used_bytes(), 0u);
        Array bytes(memory, memory->allocation()->address(), {1000}, {1}, DType::uint8);
        const std::vector<std::uint8_t> values(1000, 7);
        bytes.copy_from_host(ConstHostView(reinterpret_cast<const std::byte*>(values.data()), DType::uint8, {1000}));
        EXPECT_EQ(bytes.to_vector<std::uint8_t>(), values);
    }
    EXPECT_EQ(own.used_bytes(), 0u);
    EXPECT_EQ(own.n_free_blocks(), 1u);
}

// The simulator checks each access against the allocations: its default pool must not cache, so
// that an index run one past an array is still one past an allocation, and a new array's memory is
// unwritten for initcheck even where an earlier array's was written.
class MemoryPoolOnACheckingBackend : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        if (!Device::current().backend_info().capabilities.check_mode) GTEST_SKIP() << "check mode is the simulator's";
        if (checking_everything()) GTEST_SKIP() << "these tests choose their own tools";
        if (std::getenv("GPUKIT_MEMORY_POOL")) GTEST_SKIP() << "GPUKIT_MEMORY_POOL chooses the pool here";
        take_check_report();
    }
};

TEST_F(MemoryPoolOnACheckingBackend, ArraysStayAllocationsOfTheirOwnForMemcheckAndInitcheck) {
    EXPECT_FALSE(default_memory_pool().caching());
    CompileOptions options;
    options.check = CheckTools{CheckTool::memcheck} | CheckTool::initcheck;
    const Kernel copy_one_more = Module::compile(R"(
extern "C" __global__ void copy_one_more(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = in[i];  // one too many
})",
                                                 options)
                                     .kernel("copy_one_more");
    const int n = 1000;
    const auto values = random_floats(n, 9);
    {
        Array written = empty_floats(n);  // an earlier array, written whole, then gone
        written.fill(1.0f);
    }
    const Array in = Array::from_host(std::span<const float>(values), {n});
    const Array out = empty_floats(n);
    copy_one_more({.grid = grid_for(n + 1, 128), .block = 128}, in, out, n);
    const auto report = take_check_report();
    ASSERT_EQ(report.hazards.size(), 1u) << report.text();  // the read past the end (the thread stops there)
    EXPECT_EQ(report.hazards[0].tool, CheckTool::memcheck);
    EXPECT_EQ(report.hazards[0].what, "Invalid __global__ read of size 4 bytes");
    EXPECT_EQ(report.hazards[0].address, in.address() + n * sizeof(float));
    expect_contains(report.hazards[0].detail, "is 0 bytes after the nearest allocation");
    expect_contains(report.hazards[0].detail, "of size 4000 bytes");
    EXPECT_EQ(out.to_vector<float>(), values);

    const Kernel accumulate = Module::compile(R"(
extern "C" __global__ void accumulate(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += in[i];
})",
                                              options)
                                  .kernel("accumulate");
    const Array fresh = empty_floats(n);  // wherever it lies, no one wrote it
    accumulate({.grid = grid_for(n, 128), .block = 128}, in, fresh, n);
    const auto unwritten = take_check_report();
    ASSERT_FALSE(unwritten.hazards.empty());
    EXPECT_EQ(unwritten.hazards[0].tool, CheckTool::initcheck);
}

}  // namespace
}  // namespace gpukit::testing
