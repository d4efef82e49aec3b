// src/ops/sort/kernels.hpp: the sort kernels (kernels/gpukit_sort.cuh), compiled once per device
// and kernel shape, their parameters, and how they are launched.
#pragma once

#include <cstdint>
#include <string_view>

#include "gpukit/device.hpp"
#include "gpukit/kernel.hpp"

namespace gpukit::detail {

inline constexpr std::string_view sort_header_name = "gpukit_sort.cuh";

// The text of kernels/gpukit_sort.cuh, embedded at build time.
std::string_view sort_header();

// Mirrors gk_sort_params in kernels/gpukit_sort.cuh (what each field means is said there).
struct SortParams {
    std::uint64_t keys_in, keys_out;
    std::uint64_t values_in, values_out;
    std::uint64_t low_keys;
    std::uint64_t counts;
    std::uint64_t elements;
    std::uint64_t positions;
    std::uint64_t needles, low_needles;
    std::int64_t size;
    std::int64_t haystack;
    std::int64_t row_length;
    std::int64_t chunk;
    std::int64_t blocks;
    std::uint64_t nan_key;
    std::int32_t kind;
    std::int32_t shift;
    std::int32_t digit_of_row;
    std::int32_t word;
    std::int32_t canonical_zero;
    std::int32_t mode;
    std::int32_t invert;
    std::int32_t has_nan;
    std::int32_t equal_nan;
    std::int32_t itemsize;
    std::int32_t index_bytes;
    std::int32_t encode_input;
    std::int32_t index_values;
    std::int32_t decode_output;
    std::int32_t indices_output;
    std::int32_t pass;
    std::uint64_t decoded;
    std::uint64_t statuses;
    std::uint64_t tickets;
    std::int32_t key_passes, passes;
    std::int32_t copies;
    std::int32_t unused;
};

// Whether `device` runs the simulator's chunked radix passes (a thread per block, a contiguous
// chunk each) rather than the GPU's tiles (which tests run on the simulator too).
bool sort_chunked(const Device& device);

// The kernel `name` of gpukit_sort.cuh for `device`, in the shapes sort_chunked says: compiled on
// first use (through the compile cache), then kept for the life of the process.
Kernel sort_kernel(std::string_view name, const Device& device);

// Launches `name` over `work` independent elements (the elementwise engine's grid).
void launch_sort_elements(std::string_view name, const Device& device, std::int64_t work, const SortParams& params);

}  // namespace gpukit::detail
