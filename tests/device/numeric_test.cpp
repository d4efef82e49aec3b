// tests/device/numeric_test.cpp: gpukit/numeric.hpp on small arrays whose results are written out
// here; tests/python/array/test_numeric.py compares every function with NumPy over dtypes and options.
#include <cstdint>
#include <vector>

#include "device/device_test_fixture.hpp"
#include "gpukit/numeric.hpp"

namespace gpukit::testing {
namespace {

class Numeric : public DeviceTest {};

using Values = std::vector<double>;
Array of(const Values& values) {
    return Array::from_host(std::span<const double>(values), {static_cast<std::int64_t>(values.size())});
}

TEST_F(Numeric, SelectInterpAndTrapezoid) {
    const Array x = of({-1, 0.5, 2, 3, 9});
    const Array conditions[] = {less(x, of({1})), less(x, of({3}))};
    const Array choices[] = {x * 10.0, x * 100.0};
    EXPECT_EQ(select(conditions, choices, Scalar::of(7.0)).to_vector<double>(), (Values{-10, 5, 200, 7, 7}));
    EXPECT_EQ(interp(x, of({0, 1, 3}), of({0, 10, 30})).to_vector<double>(), (Values{0, 5, 20, 30, 30}));
    InterpOptions ends;
    ends.left = of({-5});
    ends.right = of({99});
    EXPECT_EQ(interp(x, of({0, 1, 3}), of({0, 10, 30}), ends).to_vector<double>(), (Values{-5, 5, 20, 30, 99}));
    EXPECT_THROW(interp(x, of({0, 1}), of({0})), InvalidArgumentError);
    EXPECT_EQ(trapezoid(of({1, 2, 3})).to_vector<double>(), (Values{4}));
    EXPECT_EQ(trapezoid(of({1, 2, 3}), of({0, 1, 3})).to_vector<double>(), (Values{6.5}));
}

TEST_F(Numeric, IndexArithmeticAppendDeleteAndOverlap) {
    const Array flat = Array::from_host(std::span<const std::int64_t>(std::vector<std::int64_t>{0, 7, 11}), {3});
    const std::int64_t shape[] = {3, 4};
    const std::vector<Array> rows_columns = unravel_index(flat, shape);
    EXPECT_EQ(rows_columns[0].to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2}));
    EXPECT_EQ(rows_columns[1].to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 3}));
    const IndexMode raise[] = {IndexMode::raise};
    EXPECT_EQ(ravel_multi_index(rows_columns, shape, raise).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{0, 7, 11}));
    EXPECT_THROW(unravel_index(flat + std::int64_t{1}, shape), InvalidArgumentError);
    EXPECT_EQ(append(of({1, 2}), of({3})).to_vector<double>(), (Values{1, 2, 3}));
    const Array drop = Array::from_host(std::span<const std::int64_t>(std::vector<std::int64_t>{0, -1}), {2});
    EXPECT_EQ(delete_positions(of({1, 2, 3, 4}), drop).to_vector<double>(), (Values{2, 3}));
    const Array a = of({1, 2, 3, 4, 5, 6});
    EXPECT_TRUE(may_share_memory(a.index({Slice{0, 4}}), a.index({Slice{3, 6}})));
    EXPECT_FALSE(shares_memory(a.index({Slice{0, 6, 2}}), a.index({Slice{1, 6, 2}})));
    EXPECT_TRUE(may_share_memory(a.index({Slice{0, 6, 2}}), a.index({Slice{1, 6, 2}})));
}

TEST_F(Numeric, InsertResizeAndView) {
    const Array a = of({1, 2, 3, 4});
    const Array places = Array::from_host(std::span<const std::int64_t>(std::vector<std::int64_t>{3, 1, 1}), {3});
    EXPECT_EQ(insert(a, places, of({10, 11, 12})).to_vector<double>(), (Values{1, 11, 12, 2, 3, 10, 4}));
    const Array one_place = Array::from_host(std::span<const std::int64_t>(std::vector<std::int64_t>{-1}), {});
    EXPECT_EQ(insert(a, one_place, of({7, 8})).to_vector<double>(), (Values{1, 2, 3, 7, 8, 4}));
    const Array outside = Array::from_host(std::span<const std::int64_t>(std::vector<std::int64_t>{5}), {1});
    EXPECT_THROW(insert(a, outside, of({0})), IndexError);
    const std::int64_t shape[] = {2, 3};
    EXPECT_EQ(resize(a, shape).to_vector<double>(), (Values{1, 2, 3, 4, 1, 2}));
    const std::int64_t negative[] = {-1};
    EXPECT_THROW(resize(a, negative), InvalidArgumentError);
    const Array words = a.view(DType::int32);  // a float64 as two 32-bit halves
    EXPECT_EQ(words.shape(), (Shape{8}));
    EXPECT_EQ(words.view(DType::float64).to_vector<double>(), (Values{1, 2, 3, 4}));
    EXPECT_THROW(a.index({Slice{{}, {}, 2}}).view(DType::int32), InvalidArgumentError);    // last axis strided
    EXPECT_THROW(words.index({Slice{1, {}}}).view(DType::float64), InvalidArgumentError);  // misaligned
}

}  // namespace
}  // namespace gpukit::testing
