// tests/array/layout_test.cpp: contiguity, byte extents, reshape and transpose arithmetic, as NumPy does it.
#include "gpukit/layout.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "gpukit/error.hpp"

namespace gpukit {
namespace {

TEST(CStrides, AreRowMajorWithEmptyDimensionsCountedAsOne) {
    EXPECT_EQ(c_strides(Shape{3, 4, 5}, 4), (Strides{80, 20, 4}));
    EXPECT_EQ(c_strides(Shape{}, 8), Strides{});
    EXPECT_EQ(c_strides(Shape{7}, 2), Strides{2});
    EXPECT_EQ(c_strides(Shape{2, 0, 3}, 8), (Strides{24, 24, 8}));  // numpy.empty((2, 0, 3)).strides
}

TEST(Contiguity, FollowsNumPysFlags) {
    EXPECT_TRUE(is_c_contiguous(Shape{3, 4}, Strides{16, 4}, 4));
    EXPECT_FALSE(is_f_contiguous(Shape{3, 4}, Strides{16, 4}, 4));
    EXPECT_TRUE(is_f_contiguous(Shape{3, 4}, Strides{4, 12}, 4));  // the transpose of a (4, 3)
    EXPECT_FALSE(is_c_contiguous(Shape{3, 4}, Strides{4, 12}, 4));
    EXPECT_FALSE(is_c_contiguous(Shape{5}, Strides{-4}, 4));        // reversed
    EXPECT_FALSE(is_c_contiguous(Shape{5}, Strides{8}, 4));         // every other element
    EXPECT_TRUE(is_c_contiguous(Shape{1, 5}, Strides{999, 4}, 4));  // extent 1: its stride is never used
    EXPECT_TRUE(is_c_contiguous(Shape{3, 0}, Strides{-8, 12}, 4));  // no elements: both
    EXPECT_TRUE(is_f_contiguous(Shape{3, 0}, Strides{-8, 12}, 4));
    EXPECT_TRUE(is_c_contiguous(Shape{}, Strides{}, 8));  // 0-d: one element, both
    EXPECT_TRUE(is_f_contiguous(Shape{}, Strides{}, 8));
    EXPECT_TRUE(is_c_contiguous(Shape{1, 1, 6}, Strides{0, 0, 2}, 2));  // new axes
}

TEST(ByteExtent, SpansFromTheLowestToPastTheHighestElement) {
    const ByteExtent forward = byte_extent(Shape{3, 4}, Strides{16, 4}, 4);
    EXPECT_EQ(forward.low, 0);
    EXPECT_EQ(forward.high, 48);
    const ByteExtent reversed = byte_extent(Shape{11, 10}, Strides{-40, 8}, 4);  // [::-1, ::2] of (11, 20)
    EXPECT_EQ(reversed.low, -400);
    EXPECT_EQ(reversed.high, 76);
    EXPECT_EQ(reversed.size(), 476);
    const ByteExtent none = byte_extent(Shape{4, 0}, Strides{4, 4}, 4);
    EXPECT_EQ(none.size(), 0);
    EXPECT_EQ(byte_extent(Shape{}, Strides{}, 16).size(), 16);
}

TEST(ElementCount, MultipliesExtents) {
    EXPECT_EQ(element_count(Shape{}), 1);
    EXPECT_EQ(element_count(Shape{3, 0, 5}), 0);
    EXPECT_EQ(element_count(Shape{7, 3}), 21);
}

TEST(CheckShape, RefusesNegativeExtentsAndOverflow) {
    EXPECT_NO_THROW(check_shape(Shape{0, 3}, 8));
    try {
        check_shape(Shape{-1}, 4);
        FAIL();
    } catch (const InvalidArgumentError& e) {
        EXPECT_STREQ(e.what(), "negative dimensions are not allowed: (-1,)");
    }
    EXPECT_THROW(check_shape(Shape{std::int64_t{1} << 40, std::int64_t{1} << 30}, 8), InvalidArgumentError);
    EXPECT_NO_THROW(check_shape(Shape{std::int64_t{1} << 62, 0}, 8));  // no elements, no bytes
}

TEST(ResolveReshape, WorksOutTheUnknownExtent) {
    EXPECT_EQ(resolve_reshape(12, Shape{2, -1}), (Shape{2, 6}));
    EXPECT_EQ(resolve_reshape(12, Shape{-1}), Shape{12});
    EXPECT_EQ(resolve_reshape(0, Shape{0, 5}), (Shape{0, 5}));
    EXPECT_EQ(resolve_reshape(1, Shape{}), Shape{});
    EXPECT_EQ(resolve_reshape(12, Shape{1, 12, 1}), (Shape{1, 12, 1}));
}

std::string reshape_error(std::int64_t size, Shape requested) {
    try {
        resolve_reshape(size, requested);
    } catch (const InvalidArgumentError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ResolveReshape, SaysWhyAShapeCannotBe) {
    EXPECT_EQ(reshape_error(12, {5, 3}), "cannot reshape an array of size 12 into shape (5, 3)");
    EXPECT_EQ(reshape_error(12, {5, -1}), "cannot reshape an array of size 12 into shape (5, -1)");
    EXPECT_EQ(reshape_error(0, {0, -1}), "cannot reshape an array of size 0 into shape (0, -1)");
    EXPECT_EQ(reshape_error(12, {-1, -1}), "invalid shape (-1, -1): at most one extent may be -1, none other negative");
    EXPECT_EQ(reshape_error(12, {-2, 6}), "invalid shape (-2, 6): at most one extent may be -1, none other negative");
}

TEST(Axes, ArePermutationsWithNegativesFromTheEnd) {
    EXPECT_EQ(resolve_axes(3, {}), (std::vector<std::int64_t>{2, 1, 0}));
    EXPECT_EQ(resolve_axes(3, std::vector<std::int64_t>{1, 0, 2}), (std::vector<std::int64_t>{1, 0, 2}));
    EXPECT_EQ(resolve_axes(3, std::vector<std::int64_t>{-1, 0, 1}), (std::vector<std::int64_t>{2, 0, 1}));
    EXPECT_EQ(resolve_axes(0, {}), std::vector<std::int64_t>{});
    for (const std::vector<std::int64_t>& bad : {std::vector<std::int64_t>{0, 0, 1}, {0, 1}, {0, 1, 3}, {0, 1, 2, 3}})
        EXPECT_THROW(resolve_axes(3, bad), InvalidArgumentError);
    const auto message = [](std::vector<std::int64_t> axes) {
        try {
            resolve_axes(3, axes);
        } catch (const InvalidArgumentError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message({0, 0, 1}), "axes (0, 0, 1): axis 0 is repeated; the axes must be a permutation of 0 to 2");
    EXPECT_EQ(message({-3, 0, 2}), "axes (-3, 0, 2): axis 0 is repeated; the axes must be a permutation of 0 to 2");
    EXPECT_EQ(message({0, 5, 1}),
              "axes (0, 5, 1): axis 5 is out of bounds for an array of 3 dimensions (axes are -3 to 2)");
    EXPECT_EQ(message({-4, 0, 1}),
              "axes (-4, 0, 1): axis -4 is out of bounds for an array of 3 dimensions (axes are -3 to 2)");
    EXPECT_EQ(message({0, 1}), "axes (0, 1): give one axis for each of the array's 3 dimensions, not 2");
    const ViewLayout transposed = permute(Shape{2, 3, 4}, Strides{48, 16, 4}, std::vector<std::int64_t>{2, 0, 1});
    EXPECT_EQ(transposed.shape, (Shape{4, 2, 3}));
    EXPECT_EQ(transposed.strides, (Strides{4, 48, 16}));
}

TEST(FormatShape, WritesPythonTuples) {
    EXPECT_EQ(format_shape(Shape{}), "()");
    EXPECT_EQ(format_shape(Shape{5}), "(5,)");
    EXPECT_EQ(format_shape(Shape{3, -4}), "(3, -4)");
}

// Random layouts: the C strides of a shape are C-contiguous, and their extent is the byte count.
TEST(CStrides, RandomShapesAreContiguousAndDense) {
    std::mt19937 random(5);
    for (int trial = 0; trial < 1000; ++trial) {
        Shape shape(random() % 5);
        for (auto& extent : shape) extent = static_cast<std::int64_t>(random() % 6);
        const std::int64_t itemsize = std::int64_t{1} << (random() % 5);
        const Strides strides = c_strides(shape, itemsize);
        EXPECT_TRUE(is_c_contiguous(shape, strides, itemsize));
        EXPECT_EQ(byte_extent(shape, strides, itemsize).size(), element_count(shape) * itemsize);
    }
}

}  // namespace
}  // namespace gpukit

namespace gpukit {
namespace {

// (shape, strides, new shape, F order, the strides NumPy's reshape gives when it returns a view;
// 0 where the extent is 1, whose stride does not matter). From numpy.lib.stride_tricks.as_strided
// views reshaped with NumPy 2.4.
struct ReshapeCase {
    Shape shape;
    Strides strides;
    Shape new_shape;
    bool fortran;
    std::optional<Strides> expected;
};

TEST(ReshapedStrides, AreNumPysViewsAndRefuseWhatNumPyCopies) {
    const ReshapeCase cases[] = {
        {Shape{4, 6}, Strides{24, 4}, Shape{2, 2, 6}, false, Strides{48, 24, 4}},
        {Shape{4, 6}, Strides{24, 4}, Shape{24}, false, Strides{4}},
        {Shape{4, 3}, Strides{24, 8}, Shape{12}, false, Strides{8}},
        {Shape{4, 2}, Strides{24, 8}, Shape{8}, false, std::nullopt},
        {Shape{4, 2}, Strides{24, 8}, Shape{2, 2, 2}, false, Strides{48, 24, 8}},
        {Shape{4, 2}, Strides{24, 8}, Shape{2, 4}, false, std::nullopt},
        {Shape{6}, Strides{-4}, Shape{2, 3}, false, Strides{-12, -4}},
        {Shape{2, 3}, Strides{4, 8}, Shape{6}, false, std::nullopt},
        {Shape{2, 3}, Strides{4, 8}, Shape{6}, true, Strides{4}},
        {Shape{2, 3}, Strides{4, 8}, Shape{3, 2}, true, Strides{4, 12}},
        {Shape{3, 1, 4}, Strides{64, 999, 8}, Shape{12}, false, std::nullopt},
        {Shape{3, 1, 4}, Strides{64, 999, 8}, Shape{3, 4, 1}, false, Strides{64, 8, 0}},
        {Shape{2, 3, 4}, Strides{48, 16, 4}, Shape{6, 4}, false, Strides{16, 4}},
        {Shape{2, 3, 4}, Strides{48, 16, 4}, Shape{2, 12}, false, Strides{48, 4}},
        {Shape{2, 3, 4}, Strides{4, 8, 24}, Shape{24}, true, Strides{4}},
        {Shape{2, 3, 4}, Strides{4, 8, 24}, Shape{6, 4}, true, Strides{4, 24}},
        {Shape{5, 4}, Strides{8, 40}, Shape{20}, false, std::nullopt},
        {Shape{1}, Strides{4}, Shape{1, 1, 1}, false, Strides{0, 0, 0}},
        {Shape{}, Strides{}, Shape{1, 1}, false, Strides{0, 0}},
        {Shape{6, 4}, Strides{32, 8}, Shape{3, 8}, false, Strides{64, 8}},
    };
    for (const ReshapeCase& c : cases) {
        std::optional<Strides> got = reshaped_strides(c.shape, c.strides, 4, c.new_shape, c.fortran);
        const std::string what = format_shape(c.shape) + format_shape(c.strides) + " -> " + format_shape(c.new_shape);
        ASSERT_EQ(got.has_value(), c.expected.has_value()) << what;
        if (!got) continue;
        for (std::size_t d = 0; d < c.new_shape.size(); ++d)
            if (c.new_shape[d] == 1) (*got)[d] = 0;
        EXPECT_EQ(*got, *c.expected) << what;
    }
    EXPECT_EQ(reshaped_strides(Shape{0, 3}, Strides{-8, 4}, 4, Shape{3, 0}), c_strides(Shape{3, 0}, 4));  // any will do
}

TEST(Orders, FollowNumPysKeepOrderAndNames) {
    EXPECT_EQ(memory_order(Strides{8, 48, -4}), (std::vector<std::int64_t>{1, 0, 2}));
    EXPECT_EQ(memory_order(Strides{4, 4}), (std::vector<std::int64_t>{0, 1}));  // ties in axis order
    EXPECT_EQ(strides_in_order(Shape{2, 3}, 8, Order::F), (Strides{8, 16}));
    // K: like a (3, 4, 5) array transposed to (5, 3, 4); A: F for F-contiguous models only.
    EXPECT_EQ(strides_in_order(Shape{5, 3, 4}, 2, Order::K, Shape{5, 3, 4}, Strides{4, 80, 20}, 4),
              (Strides{2, 40, 10}));
    EXPECT_EQ(strides_in_order(Shape{2, 3}, 4, Order::A, Shape{2, 3}, Strides{4, 8}, 4), (Strides{4, 8}));
    EXPECT_EQ(strides_in_order(Shape{2, 3}, 4, Order::A, Shape{2, 3}, Strides{24, 4}, 4), (Strides{12, 4}));
    EXPECT_EQ(parse_order("f"), Order::F);
    EXPECT_THROW(parse_order("X"), InvalidArgumentError);
}

TEST(Axes, NormalizeWithNumPysAxisError) {
    EXPECT_EQ(normalize_axis(-1, 3), 2u);
    try {
        normalize_axis(3, 3);
        FAIL() << "no AxisError";
    } catch (const AxisError& error) {
        EXPECT_STREQ(error.what(), "axis 3 is out of bounds for array of dimension 3");
    }
    EXPECT_THROW(normalize_axes(std::vector<std::int64_t>{0, -2}, 2), InvalidArgumentError);  // repeated
}

}  // namespace
}  // namespace gpukit
