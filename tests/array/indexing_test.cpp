// tests/array/indexing_test.cpp: basic indexing against NumPy's answers, and its error messages.
#include "gpukit/indexing.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpukit/error.hpp"

namespace gpukit {
namespace {

// A reversed-column view of an int16 array of shape (11, 10, 3), as NumPy lays out
// numpy.zeros((11, 10, 3), numpy.int16)[:, ::-1]: strides (60, -6, 2).
const Shape shape{11, 10, 3};
const Strides strides{60, -6, 2};

struct Case {
    std::string numpy_key;
    std::vector<Index> key;
    ViewLayout expected;  // from NumPy: the view's data pointer minus the base's, shape, strides
};

const std::vector<Case> numpy_cases = {
    {"[2:9]", {Slice{2, 9}}, {120, {7, 10, 3}, {60, -6, 2}}},
    {"[::3]", {Slice{{}, {}, 3}}, {0, {4, 10, 3}, {180, -6, 2}}},
    {"[::-1]", {Slice{{}, {}, -1}}, {600, {11, 10, 3}, {-60, -6, 2}}},
    {"[7:1:-2]", {Slice{7, 1, -2}}, {420, {3, 10, 3}, {-120, -6, 2}}},
    {"[1:-1, ::2]", {Slice{1, -1}, Slice{{}, {}, 2}}, {60, {9, 5, 3}, {60, -12, 2}}},
    {"[:, 3]", {Slice{}, 3}, {-18, {11, 3}, {60, 2}}},
    {"[-1]", {-1}, {600, {10, 3}, {-6, 2}}},
    {"[..., ::-3]", {ellipsis, Slice{{}, {}, -3}}, {4, {11, 10, 1}, {60, -6, -6}}},
    {"[None, 2:4, None]", {newaxis, Slice{2, 4}, newaxis}, {120, {1, 2, 1, 10, 3}, {0, 60, 0, -6, 2}}},
    {"[4:4]", {Slice{4, 4}}, {0, {0, 10, 3}, {60, -6, 2}}},
    {"[5, 2:9:4]", {5, Slice{2, 9, 4}}, {288, {2, 3}, {-24, 2}}},
    {"[..., 1]", {ellipsis, 1}, {2, {11, 10}, {60, -6}}},
    {"[-11]", {-11}, {0, {10, 3}, {-6, 2}}},
    {"[1, ..., None]", {1, ellipsis, newaxis}, {60, {10, 3, 1}, {-6, 2, 0}}},
    {"[100:]", {Slice{100, {}}}, {0, {0, 10, 3}, {60, -6, 2}}},
    {"[-100:3]", {Slice{-100, 3}}, {0, {3, 10, 3}, {60, -6, 2}}},
    {"[::-4, 9:-100:-3, 2]", {Slice{{}, {}, -4}, Slice{9, -100, -3}, 2}, {550, {3, 4}, {-240, 18}}},
    {"[()]", {}, {0, {11, 10, 3}, {60, -6, 2}}},
    {"[...]", {ellipsis}, {0, {11, 10, 3}, {60, -6, 2}}},
};

TEST(Select, GivesNumPysViews) {
    for (const Case& c : numpy_cases) {
        const ViewLayout view = select(shape, strides, c.key);
        EXPECT_EQ(view.offset, c.expected.offset) << c.numpy_key;
        EXPECT_EQ(view.shape, c.expected.shape) << c.numpy_key;
        EXPECT_EQ(view.strides, c.expected.strides) << c.numpy_key;
    }
}

TEST(Resolve, IsPythonsSliceIndices) {
    struct Row {
        Slice slice;
        std::int64_t extent;
        SliceRange expected;  // slice.indices(extent) and len(range(...))
    };
    const Row rows[] = {
        {Slice{}, 5, {0, 1, 5}},
        {Slice{{}, {}, -1}, 5, {4, -1, 5}},
        {Slice{-2, {}}, 5, {3, 1, 2}},
        {Slice{{}, -7, -1}, 5, {4, -1, 5}},
        {Slice{3, 1}, 5, {3, 1, 0}},
        {Slice{10, -10, -2}, 7, {6, -2, 4}},
        {Slice{-1, -1, 1}, 0, {0, 1, 0}},
        {Slice{{}, {}, 2}, 0, {0, 2, 0}},
        {Slice{std::int64_t{1} << 62, {}, -3}, 10, {9, -3, 4}},
        {Slice{{}, {}, std::numeric_limits<std::int64_t>::min()},
         10,
         {9, -std::numeric_limits<std::int64_t>::max(), 1}},
        {Slice{{}, {}, std::numeric_limits<std::int64_t>::max()}, 10, {0, std::numeric_limits<std::int64_t>::max(), 1}},
    };
    for (const Row& row : rows) {
        const SliceRange range = resolve(row.slice, row.extent);
        EXPECT_EQ(range.start, row.expected.start);
        EXPECT_EQ(range.step, row.expected.step);
        EXPECT_EQ(range.length, row.expected.length);
    }
    EXPECT_THROW(resolve(Slice{{}, {}, 0}, 3), InvalidArgumentError);
}

// Every element a random view selects lies inside the base, and the view has as many elements as
// its shape says: checked by walking the view and the base's index per dimension.
TEST(Select, RandomSlicesStayInsideTheBase) {
    std::mt19937 random(11);
    const auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
    for (int trial = 0; trial < 2000; ++trial) {
        const Shape base_shape{pick(0, 7), pick(1, 6)};
        const Strides base_strides{base_shape[1] * 4, 4};
        std::vector<Index> key;
        for (std::int64_t extent : base_shape) {
            std::int64_t step = pick(-4, 4);
            if (step == 0) step = 1;
            key.push_back(Slice{pick(0, 2) ? std::optional<std::int64_t>(pick(-9, 9)) : std::nullopt,
                                pick(0, 2) ? std::optional<std::int64_t>(pick(-9, 9)) : std::nullopt, step});
            (void)extent;
        }
        const ViewLayout view = select(base_shape, base_strides, key);
        for (std::int64_t i = 0; i < view.shape[0]; ++i)
            for (std::int64_t j = 0; j < view.shape[1]; ++j) {
                const std::int64_t offset = view.offset + i * view.strides[0] + j * view.strides[1];
                ASSERT_GE(offset, 0);
                ASSERT_LT(offset, base_shape[0] * base_shape[1] * 4);
            }
    }
}

std::string index_error(std::vector<Index> key) {
    try {
        select(shape, strides, key);
    } catch (const IndexError& e) {
        return e.what();
    }
    return "(no IndexError)";
}

TEST(Select, MistakesRaiseNumPysIndexErrors) {
    EXPECT_EQ(index_error({11}), "index 11 is out of bounds for axis 0 with size 11");
    EXPECT_EQ(index_error({0, -11}), "index -11 is out of bounds for axis 1 with size 10");
    EXPECT_EQ(index_error({0, 0, 0, 0}), "too many indices for array: array is 3-dimensional, but 4 were indexed");
    EXPECT_EQ(index_error({ellipsis, ellipsis}), "an index can only have a single ellipsis ('...')");
    EXPECT_EQ(index_error({newaxis, 0, newaxis, 0, 0}), "(no IndexError)");  // new axes select nothing
    EXPECT_THROW(select(shape, strides, std::vector<Index>{Slice{{}, {}, 0}}), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit
