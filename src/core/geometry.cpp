// src/core/geometry.cpp: launch geometry from a problem size.
#include "gpukit/geometry.hpp"

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

std::string to_string(const Dim3& d) { return concat("(", d.x, ", ", d.y, ", ", d.z, ")"); }

namespace {
constexpr std::uint64_t max_grid_x = 2147483647u;
constexpr std::uint64_t max_grid_yz = 65535u;

std::uint32_t blocks_along(char axis, std::uint64_t extent, std::uint32_t block, std::uint64_t limit) {
    if (block == 0) throw InvalidArgumentError(concat("grid_for: the block's ", axis, " dimension is 0"));
    const std::uint64_t blocks = ceil_div(extent, block);
    if (blocks > limit)
        throw LaunchConfigError(concat("grid_for: covering ", extent, " elements along ", axis, " with blocks of ",
                                       block, " threads needs ", blocks, " blocks, more than the limit of ", limit,
                                       "; use larger blocks or a grid-stride loop"));
    return static_cast<std::uint32_t>(blocks);
}
}  // namespace

Dim3 grid_for(std::uint64_t size, std::uint32_t block) { return {blocks_along('x', size, block, max_grid_x), 1, 1}; }

Dim3 grid_for(std::uint64_t width, std::uint64_t height, Dim3 block) {
    return {blocks_along('x', width, block.x, max_grid_x), blocks_along('y', height, block.y, max_grid_yz), 1};
}

Dim3 grid_for(std::uint64_t width, std::uint64_t height, std::uint64_t depth, Dim3 block) {
    return {blocks_along('x', width, block.x, max_grid_x), blocks_along('y', height, block.y, max_grid_yz),
            blocks_along('z', depth, block.z, max_grid_yz)};
}

}  // namespace gpukit
