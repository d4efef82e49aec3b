// tests/device/sorting_test.cpp: sorting and searching (gpukit/sorting.hpp) on every backend,
// against references computed here with std::stable_sort in NumPy's order (NaN last, -0.0 equal to
// 0.0): every real dtype, axes None, 0 and -1, contiguous, transposed, strided and reversed inputs,
// sizes 0, 1, odd, past a tile and past several blocks of a radix pass; argsort stable on keys with
// many repeats; complex order; lexsort, searchsorted, unique (of elements and of rows) and the errors. The simulator's
// chunked radix passes and the GPU's tiled ones (SortingGpuShapes), which the simcheck run checks
// under every check-mode tool.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <random>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

using Values = std::vector<double>;

// Small integers (many repeats), with NaN, -0.0 and infinities among them for floating dtypes.
Values test_values(std::size_t n, unsigned seed, DType dtype) {
    std::mt19937 random(seed);
    const bool is_unsigned = kind(dtype) == DTypeKind::unsigned_integer || dtype == DType::bool_;
    std::uniform_int_distribution<int> pick(is_unsigned ? 0 : -40, 40);
    Values values(n);
    for (auto& v : values) v = pick(random);
    if (kind(dtype) == DTypeKind::floating)
        for (std::size_t k = 0; k < n; ++k) {
            if (k % 13 == 5) values[k] = NAN;
            if (k % 17 == 3) values[k] = -0.0;
            if (k % 29 == 7) values[k] = k % 2 ? INFINITY : -INFINITY;
            if (k % 7 == 1) values[k] /= 8;  // fractions, exact in every float dtype
        }
    return values;
}

// NumPy's order of real numbers: NaN after everything, -0.0 == 0.0.
bool numpy_less(double a, double b) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    return a < b;
}

bool same_value(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

struct Case {
    Shape shape;
    std::optional<std::int64_t> axis;
    int layout;  // 0 contiguous, 1 transposed, 2 every other element of the last axis, 3 last axis reversed
};

Array make_input(const Case& c, DType dtype, unsigned seed) {
    Shape storage = c.shape;
    if (c.layout == 1) std::reverse(storage.begin(), storage.end());
    if (c.layout == 2 && !storage.empty()) storage.back() *= 2;
    const auto n = static_cast<std::size_t>(element_count(storage));
    const Values stored = test_values(n, seed, dtype);
    Array input = Array::from_host(std::span<const double>(stored), storage).astype(dtype);
    if (c.layout == 1) input = input.transpose();
    if (c.layout >= 2 && !storage.empty()) {
        std::vector<Index> key(storage.size(), Slice{});
        key.back() = c.layout == 2 ? Slice{std::nullopt, std::nullopt, 2} : Slice{std::nullopt, std::nullopt, -1};
        input = input.index(key);
    }
    return input;
}

// The flat C-order indices of each line along the sorted axis (all of them: one line), in order.
std::vector<std::vector<std::size_t>> lines_of(const Shape& shape, std::optional<std::int64_t> axis) {
    const auto n = static_cast<std::size_t>(element_count(shape));
    std::vector<std::vector<std::size_t>> lines;
    if (!axis || shape.size() == 1) {
        lines.emplace_back(n);
        std::iota(lines.back().begin(), lines.back().end(), std::size_t{0});
        return lines;
    }
    const auto rows = static_cast<std::size_t>(shape[0]), columns = static_cast<std::size_t>(shape[1]);
    const bool along_rows = *axis == 1 || *axis == -1;
    for (std::size_t l = 0; l < (along_rows ? rows : columns); ++l) {
        lines.emplace_back();
        for (std::size_t k = 0; k < (along_rows ? columns : rows); ++k)
            lines.back().push_back(along_rows ? l * columns + k : k * columns + l);
    }
    return lines;
}

void check_case(DType dtype, const Case& c, unsigned seed) {
    const Array input = make_input(c, dtype, seed);
    ASSERT_EQ(input.shape(), c.shape);
    const Values values = input.astype(DType::float64).to_vector<double>();
    const std::string what = std::string(to_string(dtype)) + " " + format_shape(c.shape) + " layout " +
                             std::to_string(c.layout) + (c.axis ? " axis " + std::to_string(*c.axis) : " flat");
    const Values sorted = sort(input, c.axis).astype(DType::float64).to_vector<double>();
    const std::vector<std::int64_t> order = argsort(input, c.axis).to_vector<std::int64_t>();
    ASSERT_EQ(sorted.size(), values.size()) << what;
    ASSERT_EQ(order.size(), values.size()) << what;
    for (const auto& line : lines_of(c.shape, c.axis)) {
        std::vector<std::size_t> want(line.size());
        std::iota(want.begin(), want.end(), std::size_t{0});
        std::stable_sort(want.begin(), want.end(),
                         [&](std::size_t a, std::size_t b) { return numpy_less(values[line[a]], values[line[b]]); });
        for (std::size_t k = 0; k < line.size(); ++k) {
            ASSERT_EQ(order[line[k]], static_cast<std::int64_t>(want[k])) << what << " argsort at " << line[k];
            ASSERT_TRUE(same_value(sorted[line[k]], values[line[want[k]]])) << what << " sort at " << line[k];
        }
    }
}

const std::vector<Case>& cases() {
    static const std::vector<Case> table = {
        {{0}, -1, 0},
        {{1}, -1, 0},
        {{31}, -1, 0},
        {{1025}, -1, 0},
        {{1025}, -1, 2},
        {{1025}, -1, 3},
        {{3 * 4096 + 17}, -1, 0},
        {{7, 33}, 1, 0},
        {{7, 33}, 0, 0},
        {{7, 33}, -1, 1},
        {{33, 7}, 0, 1},
        {{7, 33}, 0, 3},
        {{7, 33}, std::nullopt, 2},
        {{3, 0}, 1, 0},
        {{0, 3}, 1, 0},
        {{300, 70}, 0, 0},
    };
    return table;
}

const std::vector<DType>& real_dtypes() {
    static const std::vector<DType> dtypes = {
        DType::bool_, DType::int8,   DType::uint8,   DType::int16,    DType::uint16,  DType::int32,  DType::uint32,
        DType::int64, DType::uint64, DType::float16, DType::bfloat16, DType::float32, DType::float64};
    return dtypes;
}

void check_every_case(const std::vector<DType>& dtypes) {
    unsigned seed = 1;
    for (const DType dtype : dtypes)
        for (const Case& c : cases()) check_case(dtype, c, ++seed);
}

class Sorting : public DeviceTest {};
class SortingGpuShapes : public GpuShapesTest {};

TEST_F(Sorting, EveryDtypeAxisAndLayoutMatchesAStableReference) { check_every_case(real_dtypes()); }

// Past several blocks of a radix pass (each a run of tiles): every block's offsets come from the scan.
TEST_F(Sorting, ManyBlocksOfKeys) {
    for (const DType dtype : {DType::float32, DType::int64}) check_case(dtype, {{300001}, -1, 0}, 7);
}

TEST_F(Sorting, ComplexNumbersOrderByRealThenImaginaryWithNansLast) {
    for (const DType dtype : {DType::complex64, DType::complex128}) {
        std::vector<std::complex<double>> values;
        std::mt19937 random(3);
        std::uniform_int_distribution<int> pick(-3, 3);
        for (int k = 0; k < 5000; ++k) {
            double re = pick(random), im = pick(random);
            if (k % 11 == 2) re = NAN;
            if (k % 13 == 4) im = NAN;
            if (k % 17 == 6) im = -0.0;
            values.emplace_back(re, im);
        }
        const Array input = Array::from_host(std::span<const std::complex<double>>(values), {5000}).astype(dtype);
        // NumPy's classes: R + Rj, R + nanj, nan + Rj, nan + nanj; by real, then imaginary, within them.
        auto key = [](std::complex<double> z) {
            const int cls = std::isnan(z.real()) * 2 + std::isnan(z.imag());
            const double first = cls == 0 || cls == 1 ? z.real() : cls == 2 ? z.imag() : 0;
            const double second = cls == 0 ? z.imag() : 0;
            return std::make_tuple(cls, first, second);
        };
        std::vector<std::size_t> want(values.size());
        std::iota(want.begin(), want.end(), std::size_t{0});
        std::stable_sort(want.begin(), want.end(),
                         [&](std::size_t a, std::size_t b) { return key(values[a]) < key(values[b]); });
        const std::vector<std::int64_t> order = argsort(input).to_vector<std::int64_t>();
        const std::vector<std::complex<double>> sorted =
            sort(input).astype(DType::complex128).to_vector<std::complex<double>>();
        for (std::size_t k = 0; k < values.size(); ++k) {
            ASSERT_EQ(order[k], static_cast<std::int64_t>(want[k])) << to_string(dtype) << " at " << k;
            ASSERT_TRUE(key(sorted[k]) == key(values[want[k]])) << to_string(dtype) << " at " << k;
        }
    }
}

TEST_F(Sorting, LexsortSearchsortedAndUnique) {
    const Values first = {1, 0, 1, 0, 2, 2}, second = {3, 3, 1, 1, 0, 0};
    const Array a = Array::from_host(std::span<const double>(first), {6});
    const Array b = Array::from_host(std::span<const double>(second), {6});
    const Array keys[] = {a, b};  // b primary, then a
    EXPECT_EQ(lexsort(keys).to_vector<std::int64_t>(), (std::vector<std::int64_t>{4, 5, 3, 2, 1, 0}));

    const Values haystack = {-1, 0, 0, 2, NAN}, needles = {0, -0.0, 3, NAN, -5};
    const Array h = Array::from_host(std::span<const double>(haystack), {5});
    const Array v = Array::from_host(std::span<const double>(needles), {5});
    EXPECT_EQ(searchsorted(h, v).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 4, 4, 0}));
    EXPECT_EQ(searchsorted(h, v, Side::right).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 3, 4, 5, 0}));

    const Values repeated = {3, 1, NAN, 3, 2, NAN, 1, 1};
    const Array r = Array::from_host(std::span<const double>(repeated), {2, 4});
    const UniqueResult u = unique(r, {.return_index = true, .return_inverse = true, .return_counts = true});
    const Values got = u.values.to_vector<double>();
    ASSERT_EQ(got.size(), 4U);
    EXPECT_EQ(got[0], 1);
    EXPECT_EQ(got[2], 3);
    EXPECT_TRUE(std::isnan(got[3]));
    EXPECT_EQ(u.index->to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 4, 0, 2}));
    EXPECT_EQ(u.inverse->shape(), (Shape{2, 4}));
    EXPECT_EQ(u.inverse->to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0, 3, 2, 1, 3, 0, 0}));
    EXPECT_EQ(u.counts->to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 1, 2, 2}));
    EXPECT_EQ(unique(r, {.equal_nan = false}).values.size(), 5);

    const Values rows = {1, 0, 1, 2, 2, 2, 1, 0, 1, 0, 5, 5};
    const Array m = Array::from_host(std::span<const double>(rows), {4, 3}).astype(DType::int32);
    const UniqueResult by_rows =
        unique(m, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
    EXPECT_EQ(by_rows.values.shape(), (Shape{3, 3}));
    EXPECT_EQ(by_rows.values.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 5, 5, 1, 0, 1, 2, 2, 2}));
    EXPECT_EQ(by_rows.index->to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 0, 1}));
    EXPECT_EQ(by_rows.inverse->to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 1, 0}));
    EXPECT_EQ(by_rows.counts->to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 1}));
}

TEST_F(Sorting, DescendingSortsKeepEqualElementsInOrder) {
    const Values keys = {2, 5, 2, 7, 5, 2, 0, 7};
    const Array a = Array::from_host(std::span<const double>(keys), {2, 4});
    EXPECT_EQ(sort_descending(a).to_vector<double>(), (Values{7, 5, 2, 2, 7, 5, 2, 0}));
    EXPECT_EQ(argsort_descending(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 1, 0, 2, 3, 0, 1, 2}));
    EXPECT_EQ(argsort_descending(a, 0).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(argsort_descending(a, std::nullopt).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{3, 7, 1, 4, 0, 2, 5, 6}));
    EXPECT_EQ(sort_descending(a, std::nullopt).to_vector<double>(), (Values{7, 7, 5, 5, 2, 2, 2, 0}));
    EXPECT_EQ(argsort_descending(Array::from_host(std::span<const double>(Values{}), {0})).size(), 0);
}

TEST_F(Sorting, BadArgumentsAreNumPysErrors) {
    const Array a = Array::from_host(std::span<const double>(Values{3, 1, 2}), {3});
    EXPECT_THROW(sort(a, 1), AxisError);
    EXPECT_THROW(sort(Array::from_host(std::span<const double>(Values{1}), {})), AxisError);
    const std::int64_t out_of_range[] = {3};
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, partition(a, out_of_range)), "kth(=3) out of bounds (3)");
    EXPECT_THROW(check_sort_arguments("bogus", std::nullopt, false), InvalidArgumentError);
    EXPECT_THROW(check_sort_arguments("stable", true, false), InvalidArgumentError);
    EXPECT_THROW(check_sort_arguments(std::nullopt, std::nullopt, true), InvalidArgumentError);
    EXPECT_NO_THROW(check_sort_arguments("mergesort", std::nullopt, false));
    EXPECT_THROW(check_partition_arguments("quicksort", false), InvalidArgumentError);
    EXPECT_NO_THROW(check_partition_arguments("introselect", false));
    EXPECT_THROW(parse_side("middle"), InvalidArgumentError);
    EXPECT_THROW(searchsorted(a.reshape({3, 1}), a), InvalidArgumentError);
}

// The GPU's tiled radix passes (warp ranks, shared-memory staging) run on the simulator too.
TEST_F(SortingGpuShapes, EveryDtypeAxisAndLayoutMatchesAStableReference) {
    check_every_case({DType::bool_, DType::int8, DType::uint16, DType::int32, DType::int64, DType::float16,
                      DType::float32, DType::float64});
}

// A few blocks of tiles each, keys only, keys with indices and rows: small enough for check mode,
// where the simcheck run checks them under every tool.
TEST_F(SortingGpuShapes, MultiBlockSortsFinishCleanly) {
    check_case(DType::float32, {{4 * 4096 + 33}, -1, 0}, 11);
    check_case(DType::int64, {{2 * 2048 + 9}, -1, 0}, 12);
    check_case(DType::int16, {{40, 300}, 0, 0}, 13);
}

// Keys all equal (every warp's 32 lanes one group of peers), already in order and reversed.
TEST_F(SortingGpuShapes, ConstantSortedAndReversedKeys) {
    const std::size_t n = 3 * 4096 + 100;
    for (int pattern = 0; pattern < 3; ++pattern) {
        Values values(n);
        for (std::size_t k = 0; k < n; ++k)
            values[k] = pattern == 0 ? 1.5 : pattern == 1 ? double(k) / 8 : double(n - k) / 8;
        const Array input = Array::from_host(std::span<const double>(values), {std::int64_t(n)}).astype(DType::float32);
        std::vector<std::int64_t> want(n);
        std::iota(want.begin(), want.end(), std::int64_t{0});
        if (pattern == 2) std::reverse(want.begin(), want.end());
        EXPECT_EQ(argsort(input).to_vector<std::int64_t>(), want) << "pattern " << pattern;
        Values sorted = values;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sort(input).astype(DType::float64).to_vector<double>(), sorted) << "pattern " << pattern;
    }
}

// Mostly NaN (a key whose every digit is the last one, as the places past the end of the last tile
// rank) in a size that leaves the last tile partial: those places stay out of every count.
TEST_F(SortingGpuShapes, LastDigitKeysBesideAPartialTile) {
    const std::size_t n = 2 * 4096 + 77;
    Values values(n, std::nan(""));
    for (std::size_t k = 0; k < n; k += 7) values[k] = double(k % 13) - 6;
    const Array input = Array::from_host(std::span<const double>(values), {std::int64_t(n)}).astype(DType::float32);
    std::vector<std::int64_t> want(n);
    std::iota(want.begin(), want.end(), std::int64_t{0});
    std::stable_sort(want.begin(), want.end(), [&](std::int64_t a, std::int64_t b) {
        return numpy_less(values[std::size_t(a)], values[std::size_t(b)]);
    });
    EXPECT_EQ(argsort(input).to_vector<std::int64_t>(), want);
    const std::vector<double> sorted = sort(input).astype(DType::float64).to_vector<double>();
    for (std::size_t k = 0; k < n; ++k) EXPECT_TRUE(same_value(sorted[k], values[std::size_t(want[k])])) << "at " << k;
}

// Small integers over several tiles: every key's top three bytes are one digit, passes that keep
// the order (the last one writing the elements or the indices).
TEST_F(SortingGpuShapes, PassesOfOneDigitKeepTheOrder) {
    const std::size_t n = 3 * 6144 + 5;
    Values values(n);
    for (std::size_t k = 0; k < n; ++k) values[k] = double((k * 7919) % 100);
    const Array input = Array::from_host(std::span<const double>(values), {std::int64_t(n)}).astype(DType::int32);
    std::vector<std::int64_t> want(n);
    std::iota(want.begin(), want.end(), std::int64_t{0});
    std::stable_sort(want.begin(), want.end(),
                     [&](std::int64_t a, std::int64_t b) { return values[std::size_t(a)] < values[std::size_t(b)]; });
    EXPECT_EQ(argsort(input).to_vector<std::int64_t>(), want);
    Values sorted = values;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sort(input).astype(DType::float64).to_vector<double>(), sorted);
}

}  // namespace
}  // namespace gpukit::testing
