// bench/core_bench.cpp: host-side costs of the core runtime, on a GPU machine.
//
//   gpukit_core_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// - launch overhead: an empty kernel through gpukit's checked launch, beside a bare
//   cuLaunchKernel loop on the same function in the same run (goal: within 10%);
// - compile cache: an in-process hit (goal <= 10 us), a disk hit in a new process (goal <= 2 ms),
//   and a cold NVRTC compile of the course's vector add;
// - host-to-device bandwidth from pageable and from page-locked memory;
// - an array operation's host cost: gpukit::add of 16 floats into an existing array and into a
//   new one (goal: C++ `a + b` <= 2 us), beside the bare launch above;
// - a launch and a wait for the device: a bare cuLaunchKernel + cuCtxSynchronize, gpukit's plain
//   wait (C++ without an interrupt check), and the interruptible one that Python's waits use
//   (src/backends/cuda/device_waiter.hpp), for a device sync and a stream sync.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "backends/cuda/driver.hpp"
#include "course/course_kernels.hpp"
#include "gpukit/gpukit.hpp"

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* empty_source = R"(extern "C" __global__ void empty() {})";
using gpukit::course::vector_add_source;

// Launches queue up asynchronously; draining the queue every so often keeps it from filling (a
// full queue makes launches block, and the loop would then time the GPU's pace, not the host's).
// The drain is not timed: these rows are the host's cost per launch.
constexpr int launches_per_drain = 256;

void drain(benchmark::State& state, const gpukit::detail::cuda::DriverApi& api, int& count) {
    if (++count % launches_per_drain != 0) return;
    state.PauseTiming();
    api.cuCtxSynchronize();
    state.ResumeTiming();
}

void BM_EmptyLaunch_BareCuLaunchKernel(benchmark::State& state) {
    auto kernel = gpukit::Module::compile(empty_source).kernel("empty");
    const auto& api = gpukit::detail::cuda::driver();
    auto function = static_cast<CUfunction>(kernel.native_handle());
    int count = 0;
    for (auto _ : state) {
        if (api.cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr) != CUDA_SUCCESS)
            state.SkipWithError("cuLaunchKernel failed");
        drain(state, api, count);
    }
    api.cuCtxSynchronize();
}
BENCHMARK(BM_EmptyLaunch_BareCuLaunchKernel);

void BM_EmptyLaunch_Gpukit(benchmark::State& state) {
    auto kernel = gpukit::Module::compile(empty_source).kernel("empty");
    const gpukit::LaunchConfig config{.grid = 1, .block = 32};
    const auto& api = gpukit::detail::cuda::driver();
    int count = 0;
    for (auto _ : state) {
        kernel(config);
        drain(state, api, count);
    }
    api.cuCtxSynchronize();
}
BENCHMARK(BM_EmptyLaunch_Gpukit);

void BM_VectorAddLaunch_BareCuLaunchKernel(benchmark::State& state) {
    auto kernel = gpukit::Module::compile(vector_add_source).kernel("vector_add");
    gpukit::DeviceBuffer a(4096), b(4096), c(4096);
    const auto& api = gpukit::detail::cuda::driver();
    auto function = static_cast<CUfunction>(kernel.native_handle());
    CUdeviceptr pa = a.address(), pb = b.address(), pc = c.address();
    int n = 1024;
    void* args[] = {&pa, &pb, &pc, &n};
    int count = 0;
    for (auto _ : state) {
        api.cuLaunchKernel(function, 4, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
        drain(state, api, count);
    }
    api.cuCtxSynchronize();
}
BENCHMARK(BM_VectorAddLaunch_BareCuLaunchKernel);

void BM_VectorAddLaunch_Gpukit(benchmark::State& state) {
    auto kernel = gpukit::Module::compile(vector_add_source).kernel("vector_add");
    gpukit::DeviceBuffer a(4096), b(4096), c(4096);
    const gpukit::LaunchConfig config{.grid = 4, .block = 256};
    const auto& api = gpukit::detail::cuda::driver();
    int count = 0;
    for (auto _ : state) {
        kernel(config, a, b, c, 1024);
        drain(state, api, count);
    }
    api.cuCtxSynchronize();
}
BENCHMARK(BM_VectorAddLaunch_Gpukit);

// Module::compile of a source compiled before in this process: a key and a lookup.
void BM_CacheHit_InProcess(benchmark::State& state) {
    gpukit::Module::compile(vector_add_source);
    for (auto _ : state) benchmark::DoNotOptimize(gpukit::Module::compile(vector_add_source));
}
BENCHMARK(BM_CacheHit_InProcess);

// A fresh process compiles a source the disk cache holds: the child times its first compile.
void BM_CacheHit_DiskInNewProcess(benchmark::State& state) {
    gpukit::Module::compile(vector_add_source);  // make sure the entry is on disk
    // popen runs a shell, whose /proc/self/exe is the shell: name our own file.
    const std::string command = std::filesystem::read_symlink("/proc/self/exe").string() + " --disk-hit-child";
    for (auto _ : state) {
        FILE* child = popen(command.c_str(), "r");
        double seconds = -1;
        if (!child || std::fscanf(child, "%lf", &seconds) != 1) seconds = -1;
        if (child) pclose(child);
        if (seconds < 0) {
            state.SkipWithError("the child process failed");
            break;
        }
        state.SetIterationTime(seconds);
    }
}
BENCHMARK(BM_CacheHit_DiskInNewProcess)->UseManualTime()->Iterations(20);

// The same, with the module loaded too (Module::compile, not just the cached image).
int disk_hit_child() {
    gpukit::select_backend("cuda");
    const auto target = gpukit::Device::current().properties().target;
    const auto start = Clock::now();
    auto image = gpukit::Module::compile_image(vector_add_source, {}, target, "cuda");
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const auto stats = gpukit::cache_stats();
    if (stats.disk_hits != 1 || image.data.empty()) return 1;
    std::printf("%.9f\n", seconds);
    return 0;
}

// NVRTC's own time for the vector add, measured by the cache's compile clock; every iteration
// compiles a new variant so that nothing is cached.
void BM_ColdCompile_VectorAdd(benchmark::State& state) {
    const auto target = gpukit::Device::current().properties().target;
    static int salt = 0;
    for (auto _ : state) {
        const std::string source = std::string(vector_add_source) + "// variant " + std::to_string(++salt) + " " +
                                   std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
        const double before = gpukit::cache_stats().compile_seconds;
        gpukit::Module::compile_image(source, {}, target, "cuda");
        state.SetIterationTime(gpukit::cache_stats().compile_seconds - before);
    }
}
BENCHMARK(BM_ColdCompile_VectorAdd)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);

constexpr std::size_t transfer_bytes = std::size_t{256} << 20;

void BM_HostToDevice_Pageable(benchmark::State& state) {
    std::vector<std::byte> host(transfer_bytes);
    std::memset(host.data(), 1, host.size());  // touch every page
    gpukit::DeviceBuffer device(transfer_bytes);
    for (auto _ : state) gpukit::copy(device.view(), std::span<const std::byte>(host));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * transfer_bytes));
}
BENCHMARK(BM_HostToDevice_Pageable)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_HostToDevice_Pinned(benchmark::State& state) {
    gpukit::PinnedBuffer host(transfer_bytes);
    std::memset(host.data(), 1, host.size_bytes());
    gpukit::DeviceBuffer device(transfer_bytes);
    for (auto _ : state) gpukit::copy(device.view(), std::span<const std::byte>(host.bytes()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * transfer_bytes));
}
BENCHMARK(BM_HostToDevice_Pinned)->Unit(benchmark::kMillisecond)->UseRealTime();

// gpukit::add of 16 floats: what the host spends per call (the kernel is queued, not waited for).
void array_add(benchmark::State& state, bool into_out) {
    const float values[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const auto a = gpukit::Array::from_host(std::span<const float>(values), {16});
    const auto b = gpukit::Array::from_host(std::span<const float>(values), {16});
    const auto out = gpukit::Array::empty({16}, gpukit::DType::float32);
    gpukit::add(a, b, out);  // the kernel compiled and loaded
    const gpukit::Device device = gpukit::Device::current();
    device.synchronize();
    int queued = 0;
    for (auto _ : state) {
        if (into_out)
            gpukit::add(a, b, out);
        else
            benchmark::DoNotOptimize(gpukit::add(a, b));
        if (++queued == launches_per_drain) {
            state.PauseTiming();
            device.synchronize();
            queued = 0;
            state.ResumeTiming();
        }
    }
    device.synchronize();
}
void BM_ArrayAdd16_IntoOut(benchmark::State& state) { array_add(state, true); }
void BM_ArrayAdd16_NewResult(benchmark::State& state) { array_add(state, false); }
BENCHMARK(BM_ArrayAdd16_IntoOut);
BENCHMARK(BM_ArrayAdd16_NewResult);

// The wait interrupt check installed while an interruptible wait is measured: never interrupts.
bool never_interrupted() { return false; }

void BM_LaunchAndSync_Bare(benchmark::State& state) {
    auto kernel = gpukit::Module::compile(empty_source).kernel("empty");
    const auto& api = gpukit::detail::cuda::driver();
    auto function = static_cast<CUfunction>(kernel.native_handle());
    for (auto _ : state) {
        api.cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr);
        if (api.cuCtxSynchronize() != CUDA_SUCCESS) state.SkipWithError("cuCtxSynchronize failed");
    }
}
BENCHMARK(BM_LaunchAndSync_Bare);

// `interruptible`: as Python waits (an interrupt check installed); `stream`: a stream's wait.
void launch_and_sync(benchmark::State& state, bool interruptible, bool stream_wait) {
    auto kernel = gpukit::Module::compile(empty_source).kernel("empty");
    const gpukit::Stream stream;
    const gpukit::LaunchConfig config{.grid = 1, .block = 32, .stream = stream};
    gpukit::set_wait_interrupt_check(interruptible ? &never_interrupted : nullptr);
    const gpukit::Device device = gpukit::Device::current();
    for (auto _ : state) {
        kernel(config);
        if (stream_wait)
            stream.synchronize();
        else
            device.synchronize();
    }
    gpukit::set_wait_interrupt_check(nullptr);
}
void BM_LaunchAndSync_GpukitDevice(benchmark::State& state) { launch_and_sync(state, false, false); }
void BM_LaunchAndSync_GpukitDeviceInterruptible(benchmark::State& state) { launch_and_sync(state, true, false); }
void BM_LaunchAndSync_GpukitStream(benchmark::State& state) { launch_and_sync(state, false, true); }
void BM_LaunchAndSync_GpukitStreamInterruptible(benchmark::State& state) { launch_and_sync(state, true, true); }
BENCHMARK(BM_LaunchAndSync_GpukitDevice);
BENCHMARK(BM_LaunchAndSync_GpukitDeviceInterruptible);
BENCHMARK(BM_LaunchAndSync_GpukitStream);
BENCHMARK(BM_LaunchAndSync_GpukitStreamInterruptible);

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--disk-hit-child") == 0) return disk_hit_child();
    const std::string reason = gpukit::backend_unavailable_reason("cuda");
    if (!reason.empty()) {
        std::fprintf(stderr, "gpukit_core_bench needs a CUDA GPU: %s\n", reason.c_str());
        return 0;
    }
    gpukit::select_backend("cuda");
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
