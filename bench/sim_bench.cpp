// bench/sim_bench.cpp: the simulator's speed on the course's kernels, on the CPU it runs on.
//
//   gpukit_sim_bench [--quick]
//
// Prints, for each kernel, the median and the best of 9 timed runs after a warm-up (3 for the
// matmul):
// - vector add, 2^24 threads (no barrier): ns per simulated thread (goal <= 5);
// - shared-memory tree reduction, 256 threads per block, 2^22 threads: ns per thread per barrier
//   (9 barriers per thread; goal <= 15);
// - 16x16 tiled matmul at 1024x1024: seconds (goal <= 10);
// - a tiny launch (one block of 32 threads): microseconds each, the fixed cost of a launch.
// GPUKIT_SIM_ISOLATION=0 runs the kernels in this process instead of the device process: run it
// both ways to see what containing faults costs (and with GPUKIT_SIM_SANDBOX=1, the sandbox).
// Then check mode (every tool: memcheck, racecheck, synccheck, initcheck) against the fast mode on
// the same three kernels at smaller sizes (2^20 threads, 2^18 threads, 256x256): the slowdown
// (goal <= 20x), by the wall clock and by the CPU time the process used. On a machine shared with
// other work the wall clock stretches a long run (the scheduler takes the cores away) far more
// than a short one, so the CPU time is the fairer slowdown there; on an idle machine the two agree.
// The CPU time counts this process and its live children: the simulator's device process, where
// the kernels run, is one.
// The same kernels under Numba's simulator are measured by bench/numba_sim_bench.py.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>
#include <unistd.h>

#include "course/course_kernels.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/gpukit.hpp"

namespace {

using Clock = std::chrono::steady_clock;

using gpukit::course::matmul_source;
using gpukit::course::reduction_source;
using gpukit::course::vector_add_source;

std::vector<float> random_floats(std::size_t n) {
    std::mt19937 random(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = uniform(random);
    return v;
}

struct Timing {
    double median;
    double best;        // on a shared machine the least disturbed run
    double cpu_median;  // the CPU time of the process and its children (every worker), seconds
};

// The user and system time a /proc/<pid>/stat line reports, in seconds (fields 14 and 15, counted
// after the command name, which may hold spaces and ends at the last ')').
double stat_cpu_seconds(const std::string& stat, pid_t* parent) {
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string state;
    long long ppid = 0;
    fields >> state >> ppid;
    std::string skip;
    for (int i = 0; i < 9; ++i) fields >> skip;  // pgrp .. cmajflt
    unsigned long long user = 0;
    unsigned long long system = 0;
    fields >> user >> system;
    *parent = static_cast<pid_t>(ppid);
    return static_cast<double>(user + system) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// This process's CPU time (exact) plus that of its live children (the device process), from /proc.
double process_cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    double seconds = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
    const pid_t self = getpid();
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ignored)) {
        const std::string name = entry.path().filename();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream file(entry.path() / "stat");
        std::string stat;
        if (!std::getline(file, stat) || stat.find(')') == std::string::npos) continue;
        pid_t parent = 0;
        const double child_seconds = stat_cpu_seconds(stat, &parent);
        if (parent == self) seconds += child_seconds;
    }
    return seconds;
}

template <class Run>
Timing time_runs(int repeats, Run run) {
    run();  // warm-up: module load, first-touch of memory, worker start
    gpukit::Device::current().synchronize();
    std::vector<double> times;
    std::vector<double> cpu_times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        const double cpu_start = process_cpu_seconds();
        run();
        gpukit::Device::current().synchronize();
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        cpu_times.push_back(process_cpu_seconds() - cpu_start);
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu_times.begin(), cpu_times.end());
    return {times[times.size() / 2], times.front(), cpu_times[cpu_times.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    gpukit::select_backend("sim");
    const auto& device = gpukit::Device::current().properties();
    const char* isolation = std::getenv("GPUKIT_SIM_ISOLATION");
    std::printf("gpukit simulator benchmark on %s; kernels run %s\n", device.name.c_str(),
                isolation && (std::strcmp(isolation, "0") == 0 || std::strcmp(isolation, "off") == 0)
                    ? "in this process (GPUKIT_SIM_ISOLATION=0)"
                : gpukit::sandboxed() ? "in the device process, in its sandbox (GPUKIT_SIM_SANDBOX=1)"
                                      : "in the device process");
    const int repeats = quick ? 3 : 9;

    // Barrier-free: vector add.
    const int n = quick ? 1 << 20 : 1 << 24;
    auto add = gpukit::Module::compile(vector_add_source).kernel("vector_add");
    const auto a = random_floats(n), b = random_floats(n);
    auto da = gpukit::DeviceBuffer::from_host(std::span<const float>(a));
    auto db = gpukit::DeviceBuffer::from_host(std::span<const float>(b));
    gpukit::DeviceBuffer dc(n * sizeof(float));
    const Timing add_time =
        time_runs(repeats, [&] { add({.grid = gpukit::grid_for(n, 256), .block = 256}, da, db, dc, n); });
    std::vector<float> c(n);
    gpukit::copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i)
        if (c[i] != a[i] + b[i]) return std::fprintf(stderr, "vector_add: wrong result at %d\n", i), 1;

    // Barriers: shared-memory tree reduction, 256 threads per block, 9 barriers per thread.
    const int rn = quick ? 1 << 18 : 1 << 22;
    auto reduce = gpukit::Module::compile(reduction_source).kernel("sum_reduce");
    const auto x = random_floats(rn);
    auto dx = gpukit::DeviceBuffer::from_host(std::span<const float>(x));
    gpukit::DeviceBuffer partial((rn / 256) * sizeof(float));
    const Timing reduce_time = time_runs(repeats, [&] {
        reduce({.grid = gpukit::grid_for(rn, 256), .block = 256, .shared_bytes = 256 * sizeof(float)}, dx, partial, rn);
    });
    std::vector<float> partials(rn / 256);
    gpukit::copy(std::span<float>(partials), partial.view());
    double simulated = 0, expected = 0;
    for (float p : partials) simulated += p;
    for (float v : x) expected += v;
    if (std::abs(simulated - expected) > 1e-2 * (1 + std::abs(expected)))
        return std::fprintf(stderr, "sum_reduce: %f != %f\n", simulated, expected), 1;
    const int barriers_per_thread = 1 + 8;  // the load barrier and one per halving of 256

    // Tiled matmul.
    const int size = quick ? 256 : 1024;
    auto matmul = gpukit::Module::compile(matmul_source).kernel("matmul_tiled");
    const auto m = random_floats(std::size_t(size) * size), k = random_floats(std::size_t(size) * size);
    auto dm = gpukit::DeviceBuffer::from_host(std::span<const float>(m));
    auto dk = gpukit::DeviceBuffer::from_host(std::span<const float>(k));
    gpukit::DeviceBuffer dout(std::size_t(size) * size * sizeof(float));
    const gpukit::Dim3 block(16, 16);
    const Timing matmul_time = time_runs(quick ? 1 : 3, [&] {
        matmul({.grid = gpukit::grid_for(size, size, block), .block = block}, dm, dk, dout, size, size, size);
    });
    std::vector<float> out(std::size_t(size) * size);
    gpukit::copy(std::span<float>(out), dout.view());
    for (int check = 0; check < 64; ++check) {
        const int r = (check * 97) % size, col = (check * 61) % size;
        double ref = 0;
        for (int i = 0; i < size; ++i) ref += double(m[std::size_t(r) * size + i]) * k[std::size_t(i) * size + col];
        if (std::abs(out[std::size_t(r) * size + col] - ref) > 1e-3 * (1 + std::abs(ref)))
            return std::fprintf(stderr, "matmul_tiled: wrong result at (%d, %d)\n", r, col), 1;
    }

    // Tiny launches: one block of 32 threads, launched 200 times and waited for, per launch. Where
    // kernels run in the device process (the default), each launch is a round trip to it.
    const int tiny_launches = 200;
    const Timing tiny_time = time_runs(repeats, [&] {
        for (int i = 0; i < tiny_launches; ++i) add({.grid = 1, .block = 32}, da, db, dc, 32);
    });

    // Elementwise operations of the array layer (generic kernels, one contiguous chunk per thread).
    const std::int64_t en = quick ? std::int64_t{1} << 20 : std::int64_t{1} << 24;
    const std::int64_t side = quick ? 1024 : 4096;
    const auto ea = gpukit::Array::from_host(std::span<const float>(random_floats(std::size_t(en))), {en});
    const auto eb = gpukit::Array::from_host(std::span<const float>(random_floats(std::size_t(en))), {en});
    const auto square_a = ea.reshape({side, en / side});
    const auto square_b = eb.reshape({en / side, side});
    const auto column = gpukit::Array::from_host(std::span<const float>(random_floats(std::size_t(side))), {side, 1});
    gpukit::Array ec = gpukit::Array::empty({en}, gpukit::DType::float32);
    gpukit::Array square_c = gpukit::Array::empty({side, en / side}, gpukit::DType::float32);
    const Timing ew_add = time_runs(repeats, [&] { gpukit::add(ea, eb, ec); });
    const Timing ew_transposed = time_runs(repeats, [&] { gpukit::add(square_a, square_b.transpose(), square_c); });
    const Timing ew_broadcast = time_runs(repeats, [&] { gpukit::add(square_a, column, square_c); });
    // A scan against the host's own one-by-one loop over the same values (issue 14: native speed).
    const Timing ew_cumsum = time_runs(repeats, [&] { (void)gpukit::cumsum(ea, {.out = ec}); });
    const std::vector<float> host_values = ea.to_vector<float>();
    std::vector<float> host_sums(host_values.size());
    const Timing native_cumsum = time_runs(repeats, [&] {
        float carry = 0;
        for (std::size_t i = 0; i < host_values.size(); ++i) host_sums[i] = carry += host_values[i];
    });
    if (!std::isfinite(host_sums.back())) return std::fprintf(stderr, "native cumsum: not finite\n"), 1;

    const double tiled_threads = double(size) * size;
    const double tiled_barriers = tiled_threads * 2 * (size / 16);
    const double reduce_barriers = double(rn) * barriers_per_thread;
    std::printf("\n%-46s %14s %14s %12s\n", "kernel", "median", "best run", "goal");
    std::printf("%-46s %11.2f ns %11.2f ns %12s\n",
                ("vector_add, 2^" + std::to_string(quick ? 20 : 24) + " threads: per thread").c_str(),
                add_time.median * 1e9 / n, add_time.best * 1e9 / n, "<= 5 ns");
    std::printf("%-46s %11.2f ns %11.2f ns %12s\n", "tree reduction, 256/block: per thread-barrier",
                reduce_time.median * 1e9 / reduce_barriers, reduce_time.best * 1e9 / reduce_barriers, "<= 15 ns");
    std::printf("%-46s %12.3f s %12.3f s %12s\n",
                (std::to_string(size) + "x" + std::to_string(size) + " tiled matmul (16x16)").c_str(),
                matmul_time.median, matmul_time.best, quick ? "(quick)" : "<= 10 s");
    std::printf("%-46s %11.2f ns\n", "  tiled matmul: per thread-barrier incl. work",
                matmul_time.median * 1e9 / tiled_barriers);
    std::printf("%-46s %11.2f us %11.2f us\n", "tiny launch (1 block of 32), in a stream: each",
                tiny_time.median * 1e6 / tiny_launches, tiny_time.best * 1e6 / tiny_launches);
    const auto per_element = [&](const char* what, const Timing& t) {
        std::printf("%-46s %11.2f ns %11.2f ns %12s\n", what, t.median * 1e9 / double(en), t.best * 1e9 / double(en),
                    "<= 1 ns");
    };
    per_element("gpukit::add a + b float32: per element", ew_add);
    per_element("gpukit::add a + b.T float32: per element", ew_transposed);
    per_element("gpukit::add (n,m) + (n,1) float32: per element", ew_broadcast);
    std::printf("%-46s %11.2f ns %11.2f ns %12s\n", "gpukit::cumsum float32: per element",
                ew_cumsum.median * 1e9 / double(en), ew_cumsum.best * 1e9 / double(en), "<= native");
    std::printf("%-46s %11.2f ns %11.2f ns\n", "  native loop, one thread: per element",
                native_cumsum.median * 1e9 / double(en), native_cumsum.best * 1e9 / double(en));
    std::printf("simulated threads per second (median): vector_add %.3g, reduction %.3g, matmul %.3g\n",
                n / add_time.median, rn / reduce_time.median, tiled_threads / matmul_time.median);

    // Check mode against fast mode, each kernel compiled both ways and run on the same inputs.
    gpukit::CompileOptions checking;
    const char* tools = std::getenv("GPUKIT_SIM_BENCH_TOOLS");  // to time one tool alone
    checking.check = tools ? gpukit::CheckTools::parse(tools) : gpukit::CheckTools::all();
    const int check_repeats = 3;  // one run of a short kernel says little on a shared machine
    const int cn = 1 << 20, crn = 1 << 18, csize = 256;
    auto slowdown = [&](const char* source, const char* name, auto launch) {
        auto fast = gpukit::Module::compile(source).kernel(name);
        auto checked = gpukit::Module::compile(source, checking).kernel(name);
        const Timing fast_time = time_runs(check_repeats, [&] { launch(fast); });
        const Timing check_time = time_runs(check_repeats, [&] { launch(checked); });
        if (auto report = gpukit::take_check_report(); !report.clean()) {
            std::fprintf(stderr, "%s: check mode reported hazards:\n%s", name, report.text().c_str());
            std::exit(1);
        }
        return std::pair{fast_time, check_time};
    };
    const auto add_check = slowdown(vector_add_source, "vector_add", [&](gpukit::Kernel& kernel) {
        kernel({.grid = gpukit::grid_for(cn, 256), .block = 256}, da, db, dc, cn);
    });
    const auto reduce_check = slowdown(reduction_source, "sum_reduce", [&](gpukit::Kernel& kernel) {
        kernel({.grid = gpukit::grid_for(crn, 256), .block = 256, .shared_bytes = 256 * sizeof(float)}, dx, partial,
               crn);
    });
    const auto matmul_check = slowdown(matmul_source, "matmul_tiled", [&](gpukit::Kernel& kernel) {
        kernel({.grid = gpukit::grid_for(csize, csize, block), .block = block}, dm, dk, dout, csize, csize, csize);
    });
    std::printf("\n%-46s %14s %14s %10s %14s %14s %10s %8s\n",
                ("check mode (" + checking.check.to_string() + ") vs fast, median").c_str(), "fast", "check",
                "slowdown", "fast CPU", "check CPU", "by CPU", "goal");
    auto row = [](const char* what, std::pair<Timing, Timing> t) {
        const auto& [fast, check] = t;
        std::printf("%-46s %12.2f ms %12.2f ms %9.1fx %11.2f ms %11.2f ms %9.1fx %8s\n", what, fast.median * 1e3,
                    check.median * 1e3, check.median / fast.median, fast.cpu_median * 1e3, check.cpu_median * 1e3,
                    check.cpu_median / fast.cpu_median, "<= 20x");
    };
    row("vector_add, 2^20 threads", add_check);
    row("tree reduction, 2^18 threads", reduce_check);
    row("256x256 tiled matmul (16x16)", matmul_check);
    return 0;
}
