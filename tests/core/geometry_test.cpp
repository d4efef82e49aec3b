// tests/core/geometry_test.cpp: launch geometry from a problem size.
#include "gpukit/geometry.hpp"

#include <gtest/gtest.h>

#include <random>

#include "gpukit/error.hpp"

namespace gpukit {
namespace {

TEST(CeilDiv, ExactAndInexact) {
    EXPECT_EQ(ceil_div(0, 256), 0u);
    EXPECT_EQ(ceil_div(1, 256), 1u);
    EXPECT_EQ(ceil_div(256, 256), 1u);
    EXPECT_EQ(ceil_div(257, 256), 2u);
    EXPECT_EQ(ceil_div(~std::uint64_t{0}, 1), ~std::uint64_t{0});  // no overflow from value + divisor - 1
}

TEST(GridFor, CoversEveryElementWithLessThanOneBlockToSpare) {
    std::mt19937_64 random(7);
    for (int trial = 0; trial < 1000; ++trial) {
        const std::uint64_t size = random() % (std::uint64_t{1} << 32);
        const std::uint32_t block = 1 + static_cast<std::uint32_t>(random() % 1024);
        const Dim3 grid = grid_for(size, block);
        EXPECT_GE(std::uint64_t{grid.x} * block, size);
        EXPECT_LT(std::uint64_t{grid.x} * block, size + block);
        EXPECT_EQ(grid.y, 1u);
        EXPECT_EQ(grid.z, 1u);
    }
}

TEST(GridFor, TheCourseExample) {
    // vector_add over 2048 elements: 256-thread blocks need 8 blocks; 1024-thread blocks 2.
    EXPECT_EQ(grid_for(2048, 256), Dim3(8));
    EXPECT_EQ(grid_for(2048, 1024), Dim3(2));
    EXPECT_EQ(grid_for(2049, 1024), Dim3(3));
}

TEST(GridFor, EmptyProblemHasNoBlocks) { EXPECT_EQ(grid_for(0, 256).x, 0u); }

TEST(GridFor, TwoAndThreeDimensions) {
    EXPECT_EQ(grid_for(1000, 1000, Dim3(16, 16)), Dim3(63, 63, 1));
    EXPECT_EQ(grid_for(33, 17, 5, Dim3(8, 8, 4)), Dim3(5, 3, 2));
}

TEST(GridFor, ZeroBlockIsAnInvalidArgument) {
    EXPECT_THROW(grid_for(10, 0), InvalidArgumentError);
    EXPECT_THROW(grid_for(10, 10, Dim3(16, 0)), InvalidArgumentError);
}

TEST(GridFor, TooManyBlocksSaysWhatToDo) {
    try {
        grid_for(std::uint64_t{1} << 40, 1);
        FAIL() << "expected LaunchConfigError";
    } catch (const LaunchConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("grid-stride loop"), std::string::npos) << e.what();
    }
    EXPECT_THROW(grid_for(16, 65536 * 16 + 1, Dim3(16, 16)), LaunchConfigError);
}

TEST(Dim3, VolumeAndText) {
    EXPECT_EQ(Dim3(1024, 2, 1).volume(), 2048u);
    EXPECT_EQ(to_string(Dim3(3, 2, 1)), "(3, 2, 1)");
}

}  // namespace
}  // namespace gpukit
