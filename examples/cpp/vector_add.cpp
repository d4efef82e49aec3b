// examples/cpp/vector_add.cpp: the course's first kernel through gpukit's C++ API.
//
// Lists the devices, compiles vector_add at run time, adds two random vectors of an arbitrary
// size and checks the result. Where no backend can run kernels it says why and still compiles
// the kernel with NVRTC, so the source is checked. Exits non-zero if anything is wrong.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "course/course_kernels.hpp"
#include "gpukit/gpukit.hpp"

namespace {

using gpukit::course::vector_add_source;  // the course's kernel (python/gpukit/kernels/course/vector_add.cu)

int run_on_device(int size) {
    for (const auto& device : gpukit::devices()) {
        const auto& p = device.properties();
        std::printf("%s: %s, %d multiprocessors, %.1f GiB\n", device.describe().c_str(), p.architecture().c_str(),
                    p.multiprocessor_count, static_cast<double>(p.total_memory) / (1 << 30));
    }

    std::vector<float> a(size), b(size), c(size);
    std::mt19937 random(42);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    for (int i = 0; i < size; ++i) a[i] = uniform(random), b[i] = uniform(random);

    auto kernel = gpukit::Module::compile(vector_add_source).kernel("vector_add");
    auto da = gpukit::DeviceBuffer::from_host(std::span<const float>(a));
    auto db = gpukit::DeviceBuffer::from_host(std::span<const float>(b));
    gpukit::DeviceBuffer dc(size * sizeof(float));

    const std::uint32_t block = 256;
    kernel({.grid = gpukit::grid_for(size, block), .block = block}, da, db, dc, size);
    gpukit::copy(std::span<float>(c), dc.view());

    for (int i = 0; i < size; ++i) {
        if (c[i] != a[i] + b[i]) {
            std::fprintf(stderr, "wrong result at %d: %f != %f + %f\n", i, c[i], a[i], b[i]);
            return 1;
        }
    }
    std::printf("vector_add of %d elements on %s: correct\n", size, gpukit::Device::current().describe().c_str());

    // The course's mistake, now explained: 2048 threads in one block.
    try {
        kernel({.grid = 1, .block = 2048}, da, db, dc, size);
    } catch (const gpukit::LaunchConfigError& e) {
        std::printf("as expected, a 2048-thread block is refused:\n  %s\n", e.what());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const int size = argc > 1 ? std::atoi(argv[1]) : 1000003;
    try {
        const std::string reason = gpukit::backend_unavailable_reason("auto");
        if (reason.empty()) return run_on_device(size);
        std::printf("No device can run kernels here:\n%s\n\n", reason.c_str());
        const auto image = gpukit::Module::compile_image(vector_add_source, {}, "sm_90", "cuda");
        std::printf("vector_add still compiles with NVRTC: %zu-byte %s for sm_90\n", image.data.size(),
                    std::string(gpukit::to_string(image.format)).c_str());
        return 0;
    } catch (const gpukit::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
