// bench/memory_pool_bench.cpp: what an array's allocation and free cost, with the memory pool
// caching and without it (every array its own allocation of the device), on any backend.
//
//   gpukit_memory_pool_bench [--backend=cuda|sim] [--iterations=N]
//
// Two loops per size, each timed on the host (median of 5 runs of N iterations, N / 20 for 64 MiB):
//   alloc+free       Array::empty, then the array goes;
//   alloc+fill+free  the same with a memset on the current stream in between: without the pool
//                    the free waits for the device (and cuMemFree would anyway); with it, the
//                    block goes back in stream order.
// Prints nanoseconds per iteration; timings are for reading, not for tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpukit/gpukit.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <class Body>
double median_ns_per_iteration(int iterations, Body body) {
    std::vector<double> runs;
    for (int run = 0; run < 5; ++run) {
        const auto start = Clock::now();
        for (int i = 0; i < iterations; ++i) body();
        gpukit::Device::current().synchronize();
        runs.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() / iterations);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int iterations = 2000;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--backend=", 10) == 0) gpukit::select_backend(argv[i] + 10);
        if (std::strncmp(argv[i], "--iterations=", 13) == 0) iterations = std::atoi(argv[i] + 13);
    }
    const gpukit::Device device = gpukit::Device::current();
    const gpukit::MemoryPool pool = gpukit::default_memory_pool(device);
    const bool was_caching = pool.caching();
    std::printf("memory pool on %s, %d iterations, median of 5 runs, ns per iteration\n", device.describe().c_str(),
                iterations);
    std::printf("%-10s %-16s %12s %12s %8s\n", "bytes", "loop", "no pool", "pool", "ratio");
    for (const std::int64_t bytes : {std::int64_t{4096}, std::int64_t{1} << 20, std::int64_t{64} << 20}) {
        const int n = bytes >= (std::int64_t{64} << 20) ? std::max(1, iterations / 20) : iterations;
        struct Loop {
            const char* name;
            bool fill;
        };
        for (const Loop loop : {Loop{"alloc+free", false}, Loop{"alloc+fill+free", true}}) {
            double ns[2] = {0, 0};
            for (const bool caching : {false, true}) {
                pool.set_caching(caching);
                pool.free_all_blocks();
                ns[caching] = median_ns_per_iteration(n, [&] {
                    gpukit::Array a = gpukit::Array::empty({bytes}, gpukit::DType::uint8);
                    if (loop.fill) a.fill(std::uint8_t{0});
                });
            }
            std::printf("%-10lld %-16s %12.0f %12.0f %7.1fx\n", static_cast<long long>(bytes), loop.name, ns[0], ns[1],
                        ns[0] / ns[1]);
        }
    }
    pool.set_caching(was_caching);
    pool.free_all_blocks();
    return 0;
}
