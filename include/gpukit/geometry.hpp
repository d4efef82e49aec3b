// gpukit/geometry.hpp: grid and block shapes, and the launch geometry for a problem size.
//
// The course computes `ceil(size / threads)` by hand at every launch; grid_for does it once, with
// the overflow and empty-problem cases handled.
#pragma once

#include <cstdint>
#include <string>

namespace gpukit {

struct Dim3 {
    std::uint32_t x = 1;
    std::uint32_t y = 1;
    std::uint32_t z = 1;

    constexpr Dim3() = default;
    // Implicit from one number: `.block = 256` is a 1-D block, as CUDA's dim3 reads it.
    constexpr Dim3(std::uint32_t x_, std::uint32_t y_ = 1, std::uint32_t z_ = 1)  // NOLINT(google-explicit-constructor)
        : x(x_), y(y_), z(z_) {}

    constexpr std::uint64_t volume() const { return std::uint64_t{x} * y * z; }
    friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

std::string to_string(const Dim3& d);  // "(x, y, z)"

// Smallest n with n * divisor >= value (divisor > 0).
constexpr std::uint64_t ceil_div(std::uint64_t value, std::uint64_t divisor) {
    return value / divisor + (value % divisor != 0);
}

// The grid of `block`-shaped blocks that covers a problem of `size` elements (1-D) or
// `width` x `height` (x, y) or `width` x `height` x `depth`. Kernels still need their own
// bounds check: the last block may overhang. Throws InvalidArgumentError for a zero block
// dimension and LaunchConfigError when the grid would exceed 2^31-1 blocks in x or 65535 in y/z.
Dim3 grid_for(std::uint64_t size, std::uint32_t block);
Dim3 grid_for(std::uint64_t width, std::uint64_t height, Dim3 block);
Dim3 grid_for(std::uint64_t width, std::uint64_t height, std::uint64_t depth, Dim3 block);

}  // namespace gpukit
