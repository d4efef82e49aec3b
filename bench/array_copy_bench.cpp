// bench/array_copy_bench.cpp: copies, conversions and fills of arrays, in ns per element, on the
// device the backend picks (GPUKIT_BACKEND=sim for the simulator).
//
//   gpukit_array_copy_bench [elements]      (default 2^24)
//
// Each row: the median of 9 timed runs after a warm-up, the device synchronised around each run:
// - copy of a strided view (every other float32 of a 2n array: a[::2].copy());
// - astype float32 -> float64 of the same strided view, and of a transposed (4096 x n/4096) one;
// - astype float64 -> int32, contiguous;
// - fill of a contiguous float32 array with 2.5 (not a memset: its bytes differ) and with 0.
// The rows use only Array's public members, so the same file measures any version of gpukit.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "gpukit/gpukit.hpp"

namespace {

double median_ns_per_element(const std::function<void()>& run, std::int64_t elements) {
    const gpukit::Device device = gpukit::Device::current();
    run();  // warm-up: compiles the kernel
    device.synchronize();
    std::vector<double> times;
    for (int i = 0; i < 9; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        device.synchronize();
        times.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2] / static_cast<double>(elements);
}

}  // namespace

int main(int argc, char** argv) {
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : std::int64_t{1} << 24;
    const gpukit::Device device = gpukit::Device::current();
    std::printf("device: %s %d, %lld elements\n", device.backend_info().name.c_str(), device.ordinal(),
                static_cast<long long>(n));
    std::vector<float> values(static_cast<std::size_t>(2 * n));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000) * 0.25f - 7.0f;
    const auto base = gpukit::Array::from_host(std::span<const float>(values), {2 * n});
    const gpukit::Array strided = base.index({gpukit::Slice{{}, {}, 2}});
    const gpukit::Array transposed = base.index({gpukit::Slice{{}, n}}).reshape({4096, n / 4096}).transpose();
    const gpukit::Array contiguous64 = base.index({gpukit::Slice{{}, n}}).astype(gpukit::DType::float64);
    gpukit::Array target = gpukit::Array::empty({n}, gpukit::DType::float32);
    gpukit::Array target64 = gpukit::Array::empty({n}, gpukit::DType::float64);

    const struct {
        const char* name;
        std::function<void()> run;
        std::int64_t elements;
    } rows[] = {
        {"copy of a[::2] (float32)", [&] { (void)strided.copy(); }, n},
        {"astype float32 -> float64 of a[::2]", [&] { (void)strided.astype(gpukit::DType::float64); }, n},
        {"astype float32 -> float64 of a.T", [&] { (void)transposed.astype(gpukit::DType::float64); },
         transposed.size()},
        {"astype float64 -> int32, contiguous", [&] { (void)contiguous64.astype(gpukit::DType::int32); }, n},
        {"assign a[::2] into float32 (no allocation)", [&] { target.assign(strided); }, n},
        {"assign a[::2] into float64 (no allocation)", [&] { target64.assign(strided); }, n},
        {"fill float32 with 2.5", [&] { target.fill(2.5f); }, n},
        {"fill float32 with 0 (memset)", [&] { target.fill(0.0f); }, n},
    };
    for (const auto& row : rows)
        std::printf("%-40s %8.3f ns/element\n", row.name, median_ns_per_element(row.run, row.elements));
}
