// src/ops/random/kernels.hpp: the random number kernels (kernels/gpukit_random.cuh), compiled once
// per device, their parameters, and how they are launched.
#pragma once

#include <cstdint>
#include <string_view>

#include "gpukit/device.hpp"
#include "gpukit/kernel.hpp"

namespace gpukit::detail {

inline constexpr std::string_view random_header_name = "gpukit_random.cuh";

// The text of kernels/gpukit_random.cuh, embedded at build time.
std::string_view random_header();

// Mirrors gk_random_params in kernels/gpukit_random.cuh (what each field means is said there).
struct RandomParams {
    std::uint64_t out = 0;
    std::int64_t size = 0;
    std::uint64_t offset_low = 0, offset_high = 0;
    std::uint32_t key0 = 0, key1 = 0;
    double a = 0, b = 0;
    std::uint64_t low = 0;
    std::uint64_t span = 0;
    std::uint64_t values_a = 0, values_b = 0, values_c = 0;
    std::int64_t step_a = 1, step_b = 1, step_c = 1;
    std::int32_t itemsize = 0;
    std::int32_t affine = 0;
};

// The kernel `name` of gpukit_random.cuh for `device`: compiled on first use (through the
// compile cache), then kept for the life of the process. (Tests launch it on grids of their own.)
Kernel random_kernel(std::string_view name, const Device& device);

// Launches the kernel `name` over `threads` independent work items (Philox blocks, or elements
// for poisson) on the current stream of `device`, on the elementwise engine's grid (a quarter of
// the threads for the compute-bound normals and exponentials on a large GPU launch).
void launch_random(std::string_view name, const Device& device, std::int64_t threads, const RandomParams& params);

}  // namespace gpukit::detail
