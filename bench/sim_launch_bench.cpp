// bench/sim_launch_bench.cpp: what running kernels apart from the program costs on the simulator:
// the fixed cost of a launch, and the course's two short kernels, where kernels run now.
//
//   gpukit_sim_launch_bench [ROUNDS]
//
// Where they run is the environment's: the device process (default), this process
// (GPUKIT_SIM_ISOLATION=0) or the device process in its sandbox (GPUKIT_SIM_SANDBOX=1);
// bench/sim_launch_overhead.py runs it each way in turn and prints the ratios. Prints one line per
// measurement, the median over ROUNDS rounds (default 15) after a warm-up:
// - tiny launch + synchronize: one block of 32 threads, then a wait for it, 200 times: us each;
// - tiny launches in a stream: 200 launches, one wait: us each;
// - vector add, 2^20 threads (no barrier): ms;
// - tree reduction, 2^18 threads, 256 per block: ms;
// and, in the device process, how long set_sandbox(true) and set_sandbox(false) take (each a
// restart of the device process, its modules loaded again).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "course/course_kernels.hpp"
#include "gpukit/gpukit.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<float> random_floats(std::size_t n) {
    std::mt19937 random(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = uniform(random);
    return v;
}

template <class Run>
double median_seconds(int rounds, Run run) {
    run();  // warm-up
    std::vector<double> times;
    for (int i = 0; i < rounds; ++i) {
        const auto start = Clock::now();
        run();
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 15;
    gpukit::select_backend("sim");
    const char* isolation = std::getenv("GPUKIT_SIM_ISOLATION");
    const bool in_process = isolation && (std::strcmp(isolation, "0") == 0 || std::strcmp(isolation, "off") == 0);
    std::printf("where: %s\n", in_process            ? "this process"
                               : gpukit::sandboxed() ? "the device process, sandboxed"
                                                     : "the device process");

    auto add = gpukit::Module::compile(gpukit::course::vector_add_source).kernel("vector_add");
    const int n = 1 << 20;
    const auto a = random_floats(n), b = random_floats(n);
    auto da = gpukit::DeviceBuffer::from_host(std::span<const float>(a));
    auto db = gpukit::DeviceBuffer::from_host(std::span<const float>(b));
    gpukit::DeviceBuffer dc(n * sizeof(float));
    const auto device = gpukit::Device::current();

    const int tiny = 200;
    const double tiny_sync = median_seconds(rounds, [&] {
        for (int i = 0; i < tiny; ++i) {
            add({.grid = 1, .block = 32}, da, db, dc, 32);
            device.synchronize();
        }
    });
    const double tiny_stream = median_seconds(rounds, [&] {
        for (int i = 0; i < tiny; ++i) add({.grid = 1, .block = 32}, da, db, dc, 32);
        device.synchronize();
    });
    const double vector_add = median_seconds(rounds, [&] {
        add({.grid = gpukit::grid_for(n, 256), .block = 256}, da, db, dc, n);
        device.synchronize();
    });
    std::vector<float> c(n);
    gpukit::copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i)
        if (c[i] != a[i] + b[i]) return std::fprintf(stderr, "vector_add: wrong result at %d\n", i), 1;

    const int rn = 1 << 18;
    auto reduce = gpukit::Module::compile(gpukit::course::reduction_source).kernel("sum_reduce");
    gpukit::DeviceBuffer partial((rn / 256) * sizeof(float));
    const double reduction = median_seconds(rounds, [&] {
        reduce({.grid = gpukit::grid_for(rn, 256), .block = 256, .shared_bytes = 256 * sizeof(float)}, da, partial, rn);
        device.synchronize();
    });
    std::vector<float> partials(rn / 256);
    gpukit::copy(std::span<float>(partials), partial.view());
    double sum = 0, expected = 0;
    for (float p : partials) sum += p;
    for (int i = 0; i < rn; ++i) expected += a[i];
    if (std::abs(sum - expected) > 1e-2 * (1 + std::abs(expected)))
        return std::fprintf(stderr, "sum_reduce: %f != %f\n", sum, expected), 1;

    std::printf("tiny launch + synchronize (us each): %.2f\n", tiny_sync * 1e6 / tiny);
    std::printf("tiny launches in a stream (us each): %.2f\n", tiny_stream * 1e6 / tiny);
    std::printf("vector add, 2^20 threads (ms): %.3f\n", vector_add * 1e3);
    std::printf("tree reduction, 2^18 threads (ms): %.3f\n", reduction * 1e3);

    if (!in_process) {
        const bool was = gpukit::sandboxed();
        std::vector<double> into, out_of;
        for (int i = 0; i < 5; ++i) {
            try {
                auto start = Clock::now();
                gpukit::set_sandbox(true);
                into.push_back(std::chrono::duration<double>(Clock::now() - start).count());
                start = Clock::now();
                gpukit::set_sandbox(false);
                out_of.push_back(std::chrono::duration<double>(Clock::now() - start).count());
            } catch (const gpukit::BackendUnavailableError& e) {
                gpukit::set_sandbox(false);
                std::printf("no sandbox here: %s\n", e.what());
                break;
            }
        }
        gpukit::set_sandbox(was);
        if (!into.empty()) {
            std::sort(into.begin(), into.end());
            std::sort(out_of.begin(), out_of.end());
            std::printf("restart into the sandbox, 2 modules (ms): %.2f\n", into[into.size() / 2] * 1e3);
            std::printf("restart out of the sandbox, 2 modules (ms): %.2f\n", out_of[out_of.size() / 2] * 1e3);
        }
    }
    return 0;
}
