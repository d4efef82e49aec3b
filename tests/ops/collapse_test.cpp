// tests/ops/collapse_test.cpp: broadcasting, dimension merging and access classes of elementwise kernels.
#include "ops/elementwise/collapse.hpp"

#include <gtest/gtest.h>

#include "gpukit/error.hpp"

namespace gpukit::detail {
namespace {

TEST(Collapse, ContiguousOperandsBecomeOneDimension) {
    const Shape shape{4, 5, 6};
    const std::vector<Strides> strides{c_strides(shape, 4), c_strides(shape, 8)};
    const CollapsedLayout layout = collapse(shape, strides);
    EXPECT_EQ(layout.shape, (Shape{120}));
    EXPECT_EQ(layout.strides[1], (Strides{8}));
    EXPECT_EQ(classify(layout, 0, 256, 4), AccessClass::contiguous_aligned16);
    EXPECT_EQ(classify(layout, 0, 260, 4), AccessClass::contiguous);
}

TEST(Collapse, BroadcastAndTransposedOperandsKeepTheirDimensions) {
    const Shape shape{3, 5};
    const std::vector<Strides> strides{broadcast_strides(Shape{3, 1}, Strides{4, 4}, shape),
                                       broadcast_strides(Shape{}, Strides{}, shape), Strides{4, 12}};
    const CollapsedLayout layout = collapse(shape, strides);
    EXPECT_EQ(layout.shape, (Shape{3, 5}));
    EXPECT_EQ(layout.strides[0], (Strides{4, 0}));
    EXPECT_EQ(classify(layout, 0, 0, 4), AccessClass::strided);
    EXPECT_EQ(classify(layout, 1, 0, 4), AccessClass::scalar);
    EXPECT_EQ(classify(layout, 2, 0, 4), AccessClass::strided);
}

TEST(Collapse, ExtentsOfOneAndEmptyArraysVanish) {
    EXPECT_EQ(collapse(Shape{1, 7, 1}, std::vector<Strides>{Strides{0, 4, 0}}).shape, (Shape{7}));
    EXPECT_EQ(collapse(Shape{3, 0}, std::vector<Strides>{Strides{0, 4}}).size, 0);
    EXPECT_TRUE(collapse(Shape{}, std::vector<Strides>{Strides{}}).shape.empty());
}

TEST(Collapse, Index32OnlyWhenEveryOffsetFits) {
    const Shape small{1000};
    const std::int64_t itemsizes[] = {8};
    EXPECT_TRUE(fits_index32(collapse(small, std::vector<Strides>{Strides{8}}), itemsizes));
    const Shape big{1 << 29};
    EXPECT_FALSE(fits_index32(collapse(big, std::vector<Strides>{Strides{8}}), itemsizes));
}

TEST(Collapse, ShapesThatDoNotBroadcastAreNamed) {
    const Shape shapes[] = {{2, 3}, {4}};
    try {
        broadcast_shapes(shapes);
        FAIL();
    } catch (const InvalidArgumentError& error) {
        EXPECT_STREQ(error.what(), ("operands could not be broadcast together with shapes " + format_shape(shapes[0]) +
                                    " " + format_shape(shapes[1]))
                                       .c_str());
    }
    const Shape ok[] = {{8, 1, 6, 1}, {7, 1, 5}};
    EXPECT_EQ(broadcast_shapes(ok), (Shape{8, 7, 6, 5}));
}

}  // namespace
}  // namespace gpukit::detail
