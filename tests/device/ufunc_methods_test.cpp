// tests/device/ufunc_methods_test.cpp: ufunc.reduce, accumulate, reduceat and at (src/ops/ufunc_methods.cpp)
// on every backend, against folds computed here: the in-order kernels, the engines behind add, the
// atomic add.at with repeated indices, and NumPy's errors. (tests/python/array/test_ufunc_methods.py
// compares every ufunc with NumPy.)
#include <cmath>

#include "device_test_fixture.hpp"
#include "gpukit/creation.hpp"
#include "ops/ufunc_methods.hpp"

namespace gpukit::testing {
namespace {

using detail::ufunc;
using detail::UfuncId;

class UfuncMethods : public DeviceTest {};

std::vector<double> values_of(std::int64_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> pick(0.5, 1.5);
    std::vector<double> values(static_cast<std::size_t>(n));
    for (auto& v : values) v = pick(random);
    return values;
}

TEST_F(UfuncMethods, SubtractFoldsEachLineInOrder) {
    const std::int64_t rows = 5, columns = 1001;  // odd, not a multiple of a block
    const std::vector<double> values = values_of(rows * columns, 3);
    const Array a = Array::from_host(std::span<const double>(values), {rows, columns});
    detail::UfuncReduceOptions along_rows;
    along_rows.axis = std::vector<std::int64_t>{1};
    const std::vector<double> reduced =
        detail::ufunc_reduce(ufunc(UfuncId::subtract), a, along_rows).to_vector<double>();
    const std::vector<double> running = detail::ufunc_accumulate(ufunc(UfuncId::subtract), a, 1).to_vector<double>();
    for (std::int64_t r = 0; r < rows; ++r) {
        double acc = values[static_cast<std::size_t>(r * columns)];
        for (std::int64_t c = 1; c < columns; ++c) {
            acc -= values[static_cast<std::size_t>(r * columns + c)];
            EXPECT_EQ(running[static_cast<std::size_t>(r * columns + c)], acc) << r << "," << c;
        }
        EXPECT_EQ(reduced[static_cast<std::size_t>(r)], acc) << r;
    }
}

TEST_F(UfuncMethods, ReduceatFoldsSegmentsAndTakesTheStartOfEmptyOnes) {
    const std::vector<double> values = values_of(10, 5);
    const Array a = Array::from_host(std::span<const double>(values), {10});
    const std::vector<std::int64_t> starts{0, 4, 4, 9, 2};
    const Array indices = Array::from_host(std::span<const std::int64_t>(starts), {5});
    const std::vector<double> got = detail::ufunc_reduceat(ufunc(UfuncId::true_divide), a, indices).to_vector<double>();
    const auto fold = [&](std::size_t start, std::size_t stop) {
        double acc = values[start];
        for (std::size_t k = start + 1; k < stop; ++k) acc /= values[k];
        return acc;
    };
    EXPECT_EQ(got[0], fold(0, 4));
    EXPECT_EQ(got[1], values[4]);  // [4, 4): empty
    EXPECT_EQ(got[2], fold(4, 9));
    EXPECT_EQ(got[3], values[9]);  // [9, 2): backwards
    EXPECT_EQ(got[4], fold(2, 10));
    const std::vector<std::int64_t> outside{0, 10};
    EXPECT_THROW(
        detail::ufunc_reduceat(ufunc(UfuncId::add), a, Array::from_host(std::span<const std::int64_t>(outside), {2})),
        IndexError);
}

TEST_F(UfuncMethods, AddAtCountsRepeatedIndicesAtomically) {
    const std::int64_t count = 5000;
    std::vector<std::int64_t> positions(static_cast<std::size_t>(count));
    for (std::int64_t j = 0; j < count; ++j) positions[static_cast<std::size_t>(j)] = (j * 7) % 13;
    for (DType dtype : {DType::int32, DType::uint64, DType::float64, DType::int8}) {  // int8: in order
        const Array counts = zeros({13}, dtype);
        const Array offsets = Array::from_host(std::span<const std::int64_t>(positions), {count}).astype(DType::int64) *
                              std::int64_t{counts.itemsize()};
        detail::ufunc_at(ufunc(UfuncId::add), counts, offsets, detail::ElementwiseOperand(Scalar(1)));
        const std::vector<double> got = counts.astype(DType::float64).to_vector<double>();
        std::vector<double> expected(13, 0.0);
        for (std::int64_t p : positions) expected[static_cast<std::size_t>(p)] += 1;
        for (std::size_t k = 0; k < 13; ++k) {
            const double want =
                dtype == DType::int8
                    ? static_cast<double>(static_cast<std::int8_t>(static_cast<std::int64_t>(expected[k])))
                    : expected[k];
            EXPECT_EQ(got[k], want) << to_string(dtype) << " " << k;
        }
    }
}

TEST_F(UfuncMethods, NumpysErrors) {
    const Array a = zeros({2, 3});
    detail::UfuncReduceOptions every_axis;
    every_axis.axis.reset();
    EXPECT_THROW(detail::ufunc_reduce(ufunc(UfuncId::subtract), a, every_axis), InvalidArgumentError);
    EXPECT_THROW(detail::ufunc_reduce(ufunc(UfuncId::negative), a), InvalidArgumentError);
    EXPECT_THROW(detail::ufunc_reduce(ufunc(UfuncId::less), zeros({3}, DType::int64)), DTypeError);
    detail::UfuncReduceOptions masked;
    masked.where = ones({2, 3}, DType::bool_);
    EXPECT_THROW(detail::ufunc_reduce(ufunc(UfuncId::arctan2), a, masked), InvalidArgumentError);
    EXPECT_THROW(detail::ufunc_reduce(ufunc(UfuncId::true_divide), zeros({0})), InvalidArgumentError);
    EXPECT_EQ(detail::ufunc_reduce(ufunc(UfuncId::bitwise_or), zeros({0}, DType::int32)).to_vector<std::int32_t>(),
              std::vector<std::int32_t>{0});  // an identity: an empty reduction gives it
}

}  // namespace
}  // namespace gpukit::testing
