// tests/device/indexing_test.cpp: advanced indexing and the indexing routines
// (gpukit/advanced_indexing.hpp) on every backend, against references computed here element by
// element: gathers compare bytes (every dtype), selections compare positions. NumPy's own answers
// for the same cases are in tests/python/array/test_indexing.py.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class Indexing : public DeviceTest {};

// Small integers, exact in every dtype; for bool 0 and 1 (mostly 1), never all zero.
std::vector<double> values(std::int64_t n, DType dtype, unsigned seed) {
    std::mt19937 random(seed);
    const bool is_bool = dtype == DType::bool_;
    const bool is_unsigned = kind(dtype) == DTypeKind::unsigned_integer;
    std::uniform_int_distribution<int> pick(is_bool ? 0 : is_unsigned ? 1 : -40, is_bool ? 2 : 40);
    std::vector<double> result(static_cast<std::size_t>(n));
    for (auto& v : result) v = is_bool ? (pick(random) != 0) : pick(random);
    return result;
}

Array make(const std::vector<double>& elements, Shape shape, DType dtype) {
    return Array::from_host(std::span<const double>(elements), std::move(shape)).astype(dtype);
}

Array int64s(const std::vector<std::int64_t>& elements, Shape shape) {
    return Array::from_host(std::span<const std::int64_t>(elements), std::move(shape));
}

Array bools(const std::vector<bool>& elements, Shape shape) {
    std::vector<std::uint8_t> bytes(elements.begin(), elements.end());
    return Array::from_host(
        ConstHostView(reinterpret_cast<const std::byte*>(bytes.data()), DType::bool_, std::move(shape)));
}

std::vector<double> doubles(const Array& array) { return array.astype(DType::float64).to_vector<double>(); }
std::vector<std::int64_t> int64s_of(const Array& array) { return array.to_vector<std::int64_t>(); }

// The elements' bytes in C order.
std::vector<std::byte> bytes_of(const Array& array) {
    std::vector<std::byte> bytes(static_cast<std::size_t>(array.nbytes()));
    array.copy_to_host(HostView(bytes.data(), array.dtype(), array.shape()));
    return bytes;
}

// Random indices in [-n, n), some negative.
std::vector<std::int64_t> random_indices(std::int64_t count, std::int64_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::int64_t> pick(-n, n - 1);
    std::vector<std::int64_t> result(static_cast<std::size_t>(count));
    for (auto& i : result) i = pick(random);
    return result;
}

TEST_F(Indexing, GathersEveryDtypeAtEdgeSizes) {
    for (const DTypeInfo& info : dtype_table) {
        for (std::int64_t n : {1, 31, 4097}) {
            const Array x = make(values(n, info.dtype, 1), {n}, info.dtype);
            const std::vector<std::int64_t> picks = random_indices(2 * n + 3, n, 2);
            const Array idx = int64s(picks, {static_cast<std::int64_t>(picks.size())});
            const Array got = getitem(x, {idx});
            ASSERT_EQ(got.shape(), idx.shape());
            const std::vector<std::byte> source = bytes_of(x), result = bytes_of(got);
            const auto item = static_cast<std::size_t>(x.itemsize());
            for (std::size_t i = 0; i < picks.size(); ++i) {
                const auto at = static_cast<std::size_t>(picks[i] < 0 ? picks[i] + n : picks[i]);
                ASSERT_EQ(std::memcmp(&result[i * item], &source[at * item], item), 0)
                    << info.name << " n=" << n << " element " << i;
            }
        }
        // 0-size: an empty index, and indexing a 0-size dimension with an empty index.
        const Array empty = make({}, {0}, info.dtype);
        EXPECT_EQ(getitem(empty, {int64s({}, {0})}).shape(), (Shape{0}));
        EXPECT_EQ(getitem(make({1, 2}, {2}, info.dtype), {int64s({}, {0, 3})}).shape(), (Shape{0, 3}));
    }
}

TEST_F(Indexing, GathersFromStridedTransposedAndReversedViews) {
    for (DType dtype : {DType::float32, DType::complex128, DType::int8, DType::bfloat16}) {
        const Array base = make(values(6 * 7, dtype, 3), {6, 7}, dtype);
        const std::vector<double> all = doubles(base);
        const auto at = [&](std::int64_t r, std::int64_t c) { return all[static_cast<std::size_t>(r * 7 + c)]; };
        const Array rows = int64s({5, 0, -1, 2}, {4});
        const Array cols = int64s({1, 6, 3}, {3});

        // base.T[rows] -> (4, 6): row r of the transpose is column r of base.
        const std::vector<double> t = doubles(getitem(base.transpose(), {rows}));
        const std::int64_t tr[] = {5, 0, 6, 2};
        for (std::int64_t i = 0; i < 4; ++i)
            for (std::int64_t j = 0; j < 6; ++j) ASSERT_EQ(t[static_cast<std::size_t>(i * 6 + j)], at(j, tr[i]));

        // base[::2, ::-1][:, cols] -> (3, 3)
        const Array view = base.index({Slice{{}, {}, 2}, Slice{{}, {}, -1}});
        const std::vector<double> s = doubles(getitem(view, {Slice{}, cols}));
        const std::int64_t sc[] = {1, 6, 3};
        for (std::int64_t i = 0; i < 3; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                ASSERT_EQ(s[static_cast<std::size_t>(i * 3 + j)], at(2 * i, 6 - sc[j])) << to_string(dtype);

        // A strided index array: every other element of a longer one.
        const Array long_rows = int64s({1, 9, 3, 9, 4, 9}, {6}).index({Slice{{}, {}, 2}});
        const std::vector<double> l = doubles(getitem(base, {long_rows, 0}));
        EXPECT_EQ(l, (std::vector<double>{at(1, 0), at(3, 0), at(4, 0)}));
    }
}

TEST_F(Indexing, IndexArraysBroadcastAndPlaceTheirDimensionsAsNumPy) {
    const Array x = make(values(2 * 3 * 4, DType::int32, 4), {2, 3, 4}, DType::int32);
    const std::vector<double> all = doubles(x);
    const auto at = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
        return all[static_cast<std::size_t>((i * 3 + j) * 4 + k)];
    };
    const Array i = int64s({1, 0}, {2, 1});  // broadcasts with j to (2, 3)
    const Array j = int64s({0, 2, 1}, {3});

    // Adjacent: the broadcast dimensions replace the indexed ones.
    const Array adjacent = getitem(x, {Slice{}, j, int64s({3}, {1})});  // x[:, j, [3]] -> (2, 3)
    EXPECT_EQ(adjacent.shape(), (Shape{2, 3}));
    const Array both = getitem(x, {i, j});  // x[i, j] -> (2, 3, 4)
    EXPECT_EQ(both.shape(), (Shape{2, 3, 4}));
    const std::vector<double> b = doubles(both);
    const std::int64_t iv[] = {1, 0}, jv[] = {0, 2, 1};
    for (std::int64_t p = 0; p < 2; ++p)
        for (std::int64_t q = 0; q < 3; ++q)
            for (std::int64_t r = 0; r < 4; ++r)
                ASSERT_EQ(b[static_cast<std::size_t>((p * 3 + q) * 4 + r)], at(iv[p], jv[q], r));

    // Separated by a slice: the broadcast dimensions go first. An integer counts as advanced.
    EXPECT_EQ(getitem(x, {int64s({1, 0, 1}, {3}), Slice{}, 0}).shape(), (Shape{3, 3}));  // x[[1, 0, 1], :, 0]
    EXPECT_EQ(getitem(x, {0, Slice{}, int64s({1, 2}, {2})}).shape(), (Shape{2, 3}));     // x[0, :, [1, 2]]
    EXPECT_EQ(getitem(x, {Slice{}, 0, int64s({1, 2}, {2})}).shape(), (Shape{2, 2}));     // x[:, 0, [1, 2]]
    EXPECT_EQ(getitem(x, {int64s({0}, {1}), ellipsis, int64s({0}, {1})}).shape(), (Shape{1, 3}));
    EXPECT_EQ(getitem(x, {newaxis, int64s({0, 1}, {2}), newaxis}).shape(), (Shape{1, 2, 1, 3, 4}));
    const std::vector<double> sep = doubles(getitem(x, {0, Slice{}, int64s({1, 2}, {2})}));
    EXPECT_EQ(sep, (std::vector<double>{at(0, 0, 1), at(0, 1, 1), at(0, 2, 1), at(0, 0, 2), at(0, 1, 2), at(0, 2, 2)}));

    // A 0-d index array, and booleans: a new dimension of 1 or 0.
    EXPECT_EQ(getitem(x, {int64s({1}, {})}).shape(), (Shape{3, 4}));
    EXPECT_EQ(getitem(x, {true}).shape(), (Shape{1, 2, 3, 4}));
    EXPECT_EQ(getitem(x, {false}).shape(), (Shape{0, 2, 3, 4}));
    EXPECT_EQ(getitem(x, {Slice{}, true, int64s({0, 1}, {2})}).shape(), (Shape{2, 2, 4}));
    EXPECT_EQ(doubles(getitem(x, {1, true, 2, 3})), (std::vector<double>{at(1, 2, 3)}));

    // Index arrays of every integer dtype.
    for (DType dtype :
         {DType::int8, DType::int16, DType::int32, DType::uint8, DType::uint16, DType::uint32, DType::uint64}) {
        const Array idx = make({1, 0, 1}, {3}, dtype);
        EXPECT_EQ(doubles(getitem(x, {idx, 2, 3})), (std::vector<double>{at(1, 2, 3), at(0, 2, 3), at(1, 2, 3)}))
            << to_string(dtype);
    }
}

TEST_F(Indexing, BadKeysAreRefusedInNumPysWords) {
    const Array x = make(values(2 * 3 * 4, DType::float32, 5), {2, 3, 4}, DType::float32);
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {int64s({0, 10}, {2})})),
                    "index 10 is out of bounds for axis 0 with size 2");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {Slice{}, int64s({1, 2}, {2}), int64s({0, -5}, {2})})),
                    "index -5 is out of bounds for axis 2 with size 4");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {newaxis, 1, int64s({3}, {1})})),
                    "index 3 is out of bounds for axis 1 with size 3");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {int64s({0, 1}, {2}), int64s({0, 1, 2}, {3})})),
                    "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {1, bools({true, false, true, true}, {4})})),
                    "boolean index did not match indexed array along axis 1; size of axis is 3 but size of "
                    "corresponding boolean axis is 4");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {make({1}, {1}, DType::float32)})),
                    "arrays used as indices must be of integer (or boolean) type");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {0, 0, 0, int64s({0}, {1})})),
                    "too many indices for array: array is 3-dimensional, but 4 were indexed");
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, getitem(x, {false, int64s({0, 1}, {2})})), "shapes (0,) (2,)");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, parse_index_mode("nearest")),
                    "clipmode must be one of 'clip', 'raise', or 'wrap' (got 'nearest')");
}

TEST_F(Indexing, MasksSelectInCOrder) {
    for (DType dtype : {DType::float64, DType::uint16, DType::complex64, DType::float16}) {
        const Array x = make(values(3 * 5, dtype, 6), {3, 5}, dtype);
        const std::vector<double> all = doubles(x);
        const std::vector<bool> pattern = {true,  false, false, true, true,  false, true, false,
                                           false, false, true,  true, false, false, true};
        const Array mask = bools(pattern, {3, 5});
        std::vector<double> expected;
        for (std::size_t i = 0; i < pattern.size(); ++i)
            if (pattern[i]) expected.push_back(all[i]);
        EXPECT_EQ(doubles(getitem(x, {mask})), expected) << to_string(dtype);

        // A mask of the leading dimension, and one after a basic index: x[rows], x[1:, cols].
        const Array rows = bools({true, false, true}, {3});
        const Array picked = getitem(x, {rows});
        EXPECT_EQ(picked.shape(), (Shape{2, 5}));
        std::vector<double> first_and_last(all.begin(), all.begin() + 5);
        first_and_last.insert(first_and_last.end(), all.begin() + 10, all.end());
        EXPECT_EQ(doubles(picked), first_and_last);
        const Array cols = bools({false, true, false, false, true}, {5});
        EXPECT_EQ(doubles(getitem(x, {Slice{1, {}}, cols})), (std::vector<double>{all[6], all[9], all[11], all[14]}));
        // The transposed mask of a transposed array selects the same elements in the other order.
        const Array t = getitem(x.transpose(), {mask.transpose()});
        EXPECT_EQ(t.size(), static_cast<std::int64_t>(expected.size()));
        // All false, all true, 0-size.
        EXPECT_EQ(getitem(x, {bools(std::vector<bool>(15, false), {3, 5})}).shape(), (Shape{0}));
        EXPECT_EQ(doubles(getitem(x, {bools(std::vector<bool>(15, true), {3, 5})})), all);
        EXPECT_EQ(getitem(make({}, {0, 5}, dtype), {bools({}, {0})}).shape(), (Shape{0, 5}));
    }
}

TEST_F(Indexing, MasksComeFromComparisons) {
    // x[x > 0] and x[x > 0] = 0, the mask made by the greater ufunc.
    const std::vector<double> v = values(4097, DType::float32, 17);
    const Array x = make(v, {4097}, DType::float32);
    const Array zero = make({0}, {}, DType::float32);
    std::vector<double> positive;
    for (double e : v)
        if (e > 0) positive.push_back(e);
    EXPECT_EQ(doubles(getitem(x, {greater(x, zero)})), positive);
    setitem(x, std::vector<KeyItem>{greater(x, zero)}, 0.0f);
    EXPECT_EQ(count_nonzero(greater(x, zero)), 0);
    EXPECT_EQ(count_nonzero(x),
              static_cast<std::int64_t>(std::count_if(v.begin(), v.end(), [](double e) { return e < 0; })));
}

TEST_F(Indexing, NonzeroFindsEveryDtypesNonzeroElements) {
    for (const DTypeInfo& info : dtype_table) {
        for (std::int64_t n : {1, 31, 4097}) {
            std::vector<double> v = values(n, info.dtype, 7);
            for (std::size_t i = 0; i < v.size(); i += 3) v[i] = 0;  // a third zero, the rest mostly not
            const Array x = make(v, {n}, info.dtype);
            std::vector<std::int64_t> expected;
            for (std::size_t i = 0; i < v.size(); ++i)
                if (v[i] != 0) expected.push_back(static_cast<std::int64_t>(i));
            EXPECT_EQ(int64s_of(flatnonzero(x)), expected) << info.name << " n=" << n;
            EXPECT_EQ(count_nonzero(x), static_cast<std::int64_t>(expected.size()));
        }
    }
    // -0.0 is zero, NaN is not; complex numbers with only an imaginary part are not.
    const double nan = std::nan("");
    EXPECT_EQ(int64s_of(flatnonzero(make({-0.0, nan, 0.0, -1.0}, {4}, DType::float32))),
              (std::vector<std::int64_t>{1, 3}));
    EXPECT_EQ(int64s_of(flatnonzero(make({-0.0, nan, 0.0, -1.0}, {4}, DType::bfloat16))),
              (std::vector<std::int64_t>{1, 3}));
    const std::complex<double> z[] = {{0, 0}, {0, -0.0}, {0, 2}, {-0.0, 0}};
    const Array zs = Array::from_host(std::span<const std::complex<double>>(z), {4});
    EXPECT_EQ(int64s_of(flatnonzero(zs)), (std::vector<std::int64_t>{2}));
    EXPECT_EQ(int64s_of(flatnonzero(zs.astype(DType::complex64))), (std::vector<std::int64_t>{2}));
}

TEST_F(Indexing, NonzeroAndArgwhereGiveCoordinates) {
    const Array x = make({0, 3, 0, 0, 0, 5, 7, 0, 0, 0, 0, 1}, {2, 3, 2}, DType::int16);
    const std::vector<Array> rows = nonzero(x);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(int64s_of(rows[0]), (std::vector<std::int64_t>{0, 0, 1, 1}));
    EXPECT_EQ(int64s_of(rows[1]), (std::vector<std::int64_t>{0, 2, 0, 2}));
    EXPECT_EQ(int64s_of(rows[2]), (std::vector<std::int64_t>{1, 1, 0, 1}));
    const Array where = argwhere(x);
    EXPECT_EQ(where.shape(), (Shape{4, 3}));
    EXPECT_EQ(int64s_of(where), (std::vector<std::int64_t>{0, 0, 1, 0, 2, 1, 1, 0, 0, 1, 2, 1}));
    // Transposed: coordinates of the view, C order of the view.
    EXPECT_EQ(int64s_of(argwhere(x.transpose())), (std::vector<std::int64_t>{0, 0, 1, 1, 0, 0, 1, 2, 0, 1, 2, 1}));
    // 0-d: argwhere gives (1, 0) or (0, 0); nonzero refuses, as NumPy 2's.
    EXPECT_EQ(argwhere(make({4}, {}, DType::int32)).shape(), (Shape{1, 0}));
    EXPECT_EQ(argwhere(make({0}, {}, DType::int32)).shape(), (Shape{0, 0}));
    EXPECT_EQ(int64s_of(flatnonzero(make({4}, {}, DType::int32))), (std::vector<std::int64_t>{0}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, nonzero(make({4}, {}, DType::int32))),
                    "Calling nonzero on 0d arrays is not allowed");
    EXPECT_EQ(nonzero(make({}, {0, 3}, DType::int32))[1].shape(), (Shape{0}));
}

TEST_F(Indexing, ManyBlocksScanTheirCountsInOrder) {
    // Large enough for several blocks on every backend, with runs that cross block boundaries.
    constexpr std::int64_t n = 600'001;
    std::vector<bool> pattern(static_cast<std::size_t>(n));
    std::vector<std::int64_t> expected;
    for (std::int64_t i = 0; i < n; ++i) {
        pattern[static_cast<std::size_t>(i)] = (i * 7919) % 13 < 5 || (i > 200'000 && i < 300'000);
        if (pattern[static_cast<std::size_t>(i)]) expected.push_back(i);
    }
    const Array mask = bools(pattern, {n});
    EXPECT_EQ(int64s_of(flatnonzero(mask)), expected);
    const Array x = int64s(std::vector<std::int64_t>(static_cast<std::size_t>(n), 0), {n});
    EXPECT_EQ(getitem(x, {mask}).size(), static_cast<std::int64_t>(expected.size()));
}

TEST_F(Indexing, ScattersValuesScalarsAndMasks) {
    for (DType dtype : {DType::float32, DType::int64, DType::complex128, DType::bool_, DType::float16}) {
        const std::string name(to_string(dtype));
        Array x = make(values(4 * 5, dtype, 8), {4, 5}, dtype);
        std::vector<double> expected = doubles(x);
        // x[[2, 0]] = rows (2, 5)
        const std::vector<double> rows = values(10, dtype, 9);
        setitem(x, std::vector<KeyItem>{int64s({2, 0}, {2})}, make(rows, {2, 5}, dtype));
        for (std::size_t c = 0; c < 5; ++c) {
            expected[10 + c] = rows[c];
            expected[c] = rows[5 + c];
        }
        ASSERT_EQ(doubles(x), expected) << name;
        // x[:, [-1]] = a column broadcast from (4, 1)
        const std::vector<double> column = values(4, dtype, 10);
        setitem(x, std::vector<KeyItem>{Slice{}, int64s({-1}, {1})}, make(column, {4, 1}, dtype));
        for (std::size_t r = 0; r < 4; ++r) expected[r * 5 + 4] = column[r];
        ASSERT_EQ(doubles(x), expected) << name;
        // x[[1, 3], [0, 2]] = scalar
        setitem(x, std::vector<KeyItem>{int64s({1, 3}, {2}), int64s({0, 2}, {2})}, 1.0);
        expected[5] = expected[17] = 1;
        ASSERT_EQ(doubles(x), expected) << name;
        // x[mask] = scalar (no positions), x[mask] = values (positions), x[mask] = a size-1 array.
        std::vector<bool> pattern(20);
        for (std::size_t i = 0; i < 20; ++i) pattern[i] = i % 3 == 1;
        const Array mask = bools(pattern, {4, 5});
        setitem(x, std::vector<KeyItem>{mask}, 0.0);
        for (std::size_t i = 0; i < 20; ++i)
            if (pattern[i]) expected[i] = 0;
        ASSERT_EQ(doubles(x), expected) << name;
        const std::vector<double> seven = values(7, dtype, 11);
        setitem(x, std::vector<KeyItem>{mask}, make(seven, {7}, dtype));
        for (std::size_t i = 0, k = 0; i < 20; ++i)
            if (pattern[i]) expected[i] = seven[k++];
        ASSERT_EQ(doubles(x), expected) << name;
        setitem(x, std::vector<KeyItem>{bools({false, true, false, true}, {4})}, make({1}, {1}, dtype));
        for (std::size_t c = 0; c < 5; ++c) expected[5 + c] = expected[15 + c] = 1;
        ASSERT_EQ(doubles(x), expected) << name;
    }
}

TEST_F(Indexing, ScattersIntoViewsAndConvertsValues) {
    Array x = make(values(6 * 4, DType::float64, 12), {6, 4}, DType::float64);
    std::vector<double> expected = doubles(x);
    // Into the transposed view: x.T[[1, 3]] = int32 values, converted.
    const Array t = x.transpose();
    setitem(t, std::vector<KeyItem>{int64s({1, 3}, {2})}, make(values(12, DType::int32, 13), {2, 6}, DType::int32));
    const std::vector<double> v = values(12, DType::int32, 13);
    for (std::size_t r = 0; r < 6; ++r) {
        expected[r * 4 + 1] = v[r];
        expected[r * 4 + 3] = v[6 + r];
    }
    ASSERT_EQ(doubles(x), expected);
    // Values that alias the target are read before it is written: x[[0, 1]] = x[[1, 0]] swaps rows
    // (the gather copies), and x[:, [0, 1]] = x[:, 1:3] reads a view of x itself.
    setitem(x, std::vector<KeyItem>{Slice{}, int64s({0, 1}, {2})}, x.index({Slice{}, Slice{1, 3}}));
    for (std::size_t r = 0; r < 6; ++r) {
        expected[r * 4] = expected[r * 4 + 1];
        expected[r * 4 + 1] = expected[r * 4 + 2];
    }
    ASSERT_EQ(doubles(x), expected);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, setitem(x, std::vector<KeyItem>{int64s({0, 1}, {2})},
                                                                    make({1, 2, 3}, {3}, DType::float64))),
                    "shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape "
                    "(2, 4)");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError,
                                      setitem(x, std::vector<KeyItem>{bools(std::vector<bool>(24, true), {6, 4})},
                                              make({1, 2}, {2}, DType::float64))),
                    "cannot assign 2 input values to the 24 output values where the mask is true");
    // Out of range: an error, and nothing written.
    const std::vector<double> before = doubles(x);
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, setitem(x, std::vector<KeyItem>{int64s({0, 6}, {2})}, 5.0)),
                    "index 6 is out of bounds for axis 0 with size 6");
    EXPECT_EQ(doubles(x), before);
}

TEST_F(Indexing, TakeAndPutFollowTheirModes) {
    const Array a = make(values(3 * 4, DType::int32, 14), {3, 4}, DType::int32);
    const std::vector<double> all = doubles(a);
    const Array idx = int64s({5, -1, 13}, {3});
    // Flat take: wrap, clip; raise names the flattened size.
    EXPECT_EQ(doubles(take(a, idx, std::nullopt, IndexMode::wrap)), (std::vector<double>{all[5], all[11], all[1]}));
    EXPECT_EQ(doubles(take(a, idx, std::nullopt, IndexMode::clip)), (std::vector<double>{all[5], all[0], all[11]}));
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, take(a, idx)), "index 13 is out of bounds for axis 0 with size 12");
    // Along an axis, from a transposed array, into out of a wider dtype.
    const Array cols = int64s({2, 0}, {2, 1});
    const Array t = take(a.transpose(), cols, 1);  // (4, 2, 1): a.T[:, cols]
    EXPECT_EQ(t.shape(), (Shape{4, 2, 1}));
    EXPECT_EQ(doubles(t), (std::vector<double>{all[8], all[0], all[9], all[1], all[10], all[2], all[11], all[3]}));
    const Array out = Array::empty({4, 2, 1}, DType::float64);
    take(a.transpose(), cols, 1, out);
    EXPECT_EQ(doubles(out), doubles(t));
    EXPECT_THROW(take(a, cols, 1, Array::empty({3, 2, 2}, DType::int32)), InvalidArgumentError);
    EXPECT_THROW(take(a, cols, 1, Array::empty({3, 2, 1}, DType::int8)), InvalidArgumentError);
    EXPECT_THROW(take(a, cols, 2), InvalidArgumentError);
    expect_contains(GPUKIT_MESSAGE_OF(
                        IndexError, take(make({}, {0}, DType::int32), int64s({1}, {1}), std::nullopt, IndexMode::wrap)),
                    "cannot do a non-empty take from an empty axes.");

    // put: flat positions of any layout, values repeated.
    Array b = make(values(12, DType::float32, 15), {3, 4}, DType::float32);
    std::vector<double> expected = doubles(b);
    const Array bt = b.transpose();  // (4, 3): flat position p of bt is element (p / 3, p % 3) of bt
    put(bt, int64s({0, 4, 11, 7}, {4}), make({-1, -2}, {2}, DType::float32));
    const auto of_bt = [](std::int64_t p) { return static_cast<std::size_t>((p % 3) * 4 + p / 3); };
    expected[of_bt(0)] = -1;
    expected[of_bt(4)] = -2;
    expected[of_bt(11)] = -1;
    expected[of_bt(7)] = -2;
    EXPECT_EQ(doubles(b), expected);
    put(b, int64s({-1, 20}, {2}), make({9}, {1}, DType::float32), IndexMode::clip);
    expected[0] = expected[11] = 9;
    EXPECT_EQ(doubles(b), expected);
    put(b, int64s({-13, 14}, {2}), make({8, 7}, {2}, DType::float32), IndexMode::wrap);
    expected[11] = 8;
    expected[2] = 7;
    EXPECT_EQ(doubles(b), expected);
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, put(b, int64s({0, 12}, {2}), make({5}, {1}, DType::float32))),
                    "index 12 is out of bounds for axis 0 with size 12");
    EXPECT_EQ(doubles(b), expected);  // nothing written
}

TEST_F(Indexing, AlongAxisAndCompress) {
    const Array a = make(values(3 * 4, DType::float32, 16), {3, 4}, DType::float32);
    const std::vector<double> all = doubles(a);
    const Array order = int64s({3, 0, 1, 1, 2, 2}, {3, 2});
    const Array along = take_along_axis(a, order, 1);
    EXPECT_EQ(along.shape(), (Shape{3, 2}));
    EXPECT_EQ(doubles(along), (std::vector<double>{all[3], all[0], all[5], all[5], all[10], all[10]}));
    // Broadcast along the other axis, and axis 0.
    EXPECT_EQ(doubles(take_along_axis(a, int64s({2}, {1, 1}), 0)),
              (std::vector<double>{all[8], all[9], all[10], all[11]}));
    EXPECT_EQ(doubles(take_along_axis(a, int64s({0, 2}, {1, 2}), 1)),
              (std::vector<double>{all[0], all[2], all[4], all[6], all[8], all[10]}));
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, take_along_axis(a, int64s({0, 2}, {2, 1}), 1)),
                    "shape mismatch: indexing arrays could not be broadcast together");
    EXPECT_EQ(doubles(take_along_axis(a, int64s({11, 0}, {2}), std::nullopt)), (std::vector<double>{all[11], all[0]}));
    EXPECT_THROW(take_along_axis(a, int64s({0}, {1}), 1), InvalidArgumentError);
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, take_along_axis(a, int64s({4}, {1, 1}), 1)),
                    "index 4 is out of bounds for axis 1 with size 4");

    Array b = a.copy();
    std::vector<double> expected = all;
    put_along_axis(b, int64s({1, 3, 0}, {3, 1}), make({-5}, {}, DType::float32), 1);
    expected[1] = expected[7] = expected[8] = -5;
    EXPECT_EQ(doubles(b), expected);

    const Array keep = bools({true, false, true}, {3});
    EXPECT_EQ(doubles(compress(keep, a, 0)),
              (std::vector<double>{all[0], all[1], all[2], all[3], all[8], all[9], all[10], all[11]}));
    EXPECT_EQ(doubles(compress(bools({false, true}, {2}), a, 1)), (std::vector<double>{all[1], all[5], all[9]}));
    EXPECT_EQ(doubles(compress(bools({false, true}, {2}), a)), (std::vector<double>{all[1]}));
    expect_contains(GPUKIT_MESSAGE_OF(IndexError, compress(bools({false, false, false, true}, {4}), a, 0)),
                    "index 3 is out of bounds for axis 0 with size 3");
    EXPECT_THROW(compress(bools({true}, {1, 1}), a), InvalidArgumentError);
}

TEST_F(Indexing, ExtractPlacePutmaskFillDiagonalAndChoose) {
    const Array a = make({1, 2, 3, 4, 5, 6}, {2, 3}, DType::int32);
    const Array mask = bools({true, false, true, false, false, true}, {2, 3});
    EXPECT_EQ(doubles(extract(mask, a)), (std::vector<double>{1, 3, 6}));

    Array placed = a.copy();
    place(placed, mask, make({10, 20}, {2}, DType::int32));  // the values repeat in order
    EXPECT_EQ(doubles(placed), (std::vector<double>{10, 2, 20, 4, 5, 10}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, place(placed, bools({true}, {1}), a)),
                    "place: mask and data must be the same size");

    Array masked = a.copy();
    putmask(masked, mask, make({-1, -2, -3, -4}, {4}, DType::float64));  // value n % 4 at position n
    EXPECT_EQ(doubles(masked), (std::vector<double>{-1, 2, -3, 4, 5, -2}));

    Array square = Array::empty({3, 4}, DType::float32, Device::current());
    square.fill(0.0f);
    fill_diagonal(square, make({7, 8}, {2}, DType::float32));
    EXPECT_EQ(doubles(square), (std::vector<double>{7, 0, 0, 0, 0, 8, 0, 0, 0, 0, 7, 0}));
    EXPECT_THROW(fill_diagonal(Array::empty({2, 3, 2}, DType::float32, Device::current()), square),
                 InvalidArgumentError);

    const Array choices[] = {make({1, 2, 3}, {3}, DType::int16), make({10}, {1}, DType::float32)};
    const Array chosen = choose(int64s({1, 0, 1}, {3}), choices);
    EXPECT_EQ(chosen.dtype(), DType::float32);
    EXPECT_EQ(doubles(chosen), (std::vector<double>{10, 2, 10}));
    EXPECT_EQ(doubles(choose(int64s({-1, 5, 0}, {3}), choices, IndexMode::wrap)), (std::vector<double>{10, 10, 3}));
    EXPECT_EQ(doubles(choose(int64s({-1, 5, 0}, {3}), choices, IndexMode::clip)), (std::vector<double>{1, 10, 3}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, choose(int64s({2, 0, 0}, {3}), choices)),
                    "invalid entry in choice array");
}

}  // namespace
}  // namespace gpukit::testing
