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

TEST_F(UfuncMethods, AtTakesTheKeysOfAOneDimensionalArray) {
    // Keys of every integer dtype, negative ones from the end, into a strided view; a key out of range
    // (either side, or a uint64 beyond int64) is IndexError naming it, and the process goes on.
    const std::int64_t count = 3000;
    std::vector<std::int64_t> keys(static_cast<std::size_t>(count));
    for (std::int64_t j = 0; j < count; ++j) keys[static_cast<std::size_t>(j)] = (j * 11) % 17 - (j % 3 == 0 ? 17 : 0);
    const Array signed_keys = Array::from_host(std::span<const std::int64_t>(keys), {count});
    for (DType key_dtype : {DType::int8, DType::int16, DType::int32, DType::int64}) {
        for (DType dtype : {DType::float32, DType::int64, DType::int8}) {  // atomic, compare-and-swap, in order
            const Array base = zeros({34}, dtype);
            const Array every_other = base.index({Slice{{}, {}, -2}});
            detail::ufunc_at_keys(ufunc(UfuncId::add), every_other, signed_keys.astype(key_dtype),
                                  detail::ElementwiseOperand(Scalar(1)));
            const std::vector<double> got = every_other.astype(DType::float64).to_vector<double>();
            std::vector<double> expected(17, 0.0);
            for (std::int64_t k : keys) expected[static_cast<std::size_t>(k < 0 ? k + 17 : k)] += 1;
            for (std::size_t k = 0; k < 17; ++k) {
                const double want =
                    dtype == DType::int8
                        ? static_cast<double>(static_cast<std::int8_t>(static_cast<std::int64_t>(expected[k])))
                        : expected[k];
                EXPECT_EQ(got[k], want) << to_string(key_dtype) << " " << to_string(dtype) << " " << k;
            }
        }
    }
    const Array target = zeros({4}, DType::float64);
    const std::vector<std::int64_t> too_high{1, 4}, too_low{-5, 0};
    const std::vector<std::uint64_t> beyond{2, ~std::uint64_t{0}};
    for (const Array& bad : {Array::from_host(std::span<const std::int64_t>(too_high), {2}),
                             Array::from_host(std::span<const std::int64_t>(too_low), {2}),
                             Array::from_host(std::span<const std::uint64_t>(beyond), {2})}) {
        for (UfuncId id : {UfuncId::add, UfuncId::subtract}) {
            try {
                detail::ufunc_at_keys(ufunc(id), target, bad, detail::ElementwiseOperand(Scalar(1.0)));
                ADD_FAILURE() << "no IndexError for " << to_string(bad.dtype());
            } catch (const IndexError& error) {
                EXPECT_NE(std::string(error.what()).find("is out of bounds for axis 0 with size 4"), std::string::npos);
            }
        }
    }
    EXPECT_THROW(detail::ufunc_at_keys(ufunc(UfuncId::add), zeros({2, 2}), zeros({1}, DType::int64),
                                       detail::ElementwiseOperand(Scalar(1.0))),
                 InvalidArgumentError);
    EXPECT_THROW(
        detail::ufunc_at_keys(ufunc(UfuncId::add), target, zeros({1}), detail::ElementwiseOperand(Scalar(1.0))),
        IndexError);
    const std::vector<std::int64_t> last{-1};
    detail::ufunc_at_keys(ufunc(UfuncId::add), target, Array::from_host(std::span<const std::int64_t>(last), {1}),
                          detail::ElementwiseOperand(Scalar(2.5)));
    EXPECT_EQ(target.to_vector<double>()[3], 2.5);
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
