// tests/device/shape_routines_test.cpp: hsplit/vsplit/dsplit, block, rollaxis, broadcast_shapes, tri,
// the triangle and diagonal indices, ix_, logspace, geomspace, vander, require and isfortran on small
// arrays whose results are written out here; tests/python/array/test_shape_routines.py compares each
// with NumPy over dtypes and layouts.
#include <numeric>

#include "device/device_test_fixture.hpp"
#include "gpukit/index_routines.hpp"

namespace gpukit::testing {
namespace {

class ShapeRoutines : public DeviceTest {};

// 0, 1, 2, ... in `shape` (int32).
Array counting(Shape shape) {
    std::vector<std::int32_t> values(static_cast<std::size_t>(element_count(shape)));
    std::iota(values.begin(), values.end(), 0);
    return Array::from_host(std::span<const std::int32_t>(values), std::move(shape));
}

std::vector<std::int64_t> ints_of(const Array& a) { return a.astype(DType::int64).to_vector<std::int64_t>(); }
std::vector<double> doubles_of(const Array& a) { return a.astype(DType::float64).to_vector<double>(); }

TEST_F(ShapeRoutines, FixedAxisSplitsAreViews) {
    const Array a = counting({2, 4, 6});
    const auto columns = hsplit(a, 2);
    ASSERT_EQ(columns.size(), 2U);
    EXPECT_EQ(columns[1].shape(), (Shape{2, 2, 6}));
    EXPECT_EQ(ints_of(columns[1]).front(), 12);
    const std::int64_t at[] = {1};
    EXPECT_EQ(vsplit(a, at)[1].shape(), (Shape{1, 4, 6}));
    EXPECT_EQ(dsplit(a, 3)[2].shape(), (Shape{2, 4, 2}));
    EXPECT_EQ(hsplit(counting({6}), 3)[1].shape(), (Shape{2}));
    EXPECT_EQ(hsplit(a, 2)[0].address(), a.address());
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, vsplit(counting({4}), 2)),
                    "vsplit only works on arrays of 2 or more dimensions");
    EXPECT_THROW(dsplit(counting({2, 2}), 2), InvalidArgumentError);
    EXPECT_THROW(hsplit(a, 3), InvalidArgumentError);  // not an equal division
}

TEST_F(ShapeRoutines, BlockJoinsNestedListsInnermostAlongTheLastAxis) {
    Blocks top, bottom, both;
    top.items = {Blocks{counting({2, 2}), {}}, Blocks{counting({2, 1}), {}}};
    bottom.items = {Blocks{counting({1, 3}), {}}};
    both.items = {top, bottom};
    const Array joined = block(both);
    EXPECT_EQ(joined.shape(), (Shape{3, 3}));
    EXPECT_EQ(ints_of(joined), (std::vector<std::int64_t>{0, 1, 0, 2, 3, 1, 0, 1, 2}));
    const Array lone = counting({3});
    const Array copied = block(Blocks{lone, {}});
    EXPECT_NE(copied.address(), lone.address());
    Blocks uneven;
    uneven.items = {top, Blocks{counting({2}), {}}};
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, block(uneven)),
                    "List depths are mismatched. First element was at depth 2, but there is an element at depth 1 "
                    "(arrays[1])");
    Blocks with_empty;
    with_empty.items = {top, Blocks{}};
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, block(with_empty)), "List at arrays[1] cannot be empty");
}

TEST_F(ShapeRoutines, RollaxisAndBroadcastShapes) {
    const Array a = counting({2, 3, 4});
    EXPECT_EQ(rollaxis(a, 2).shape(), (Shape{4, 2, 3}));
    EXPECT_EQ(rollaxis(a, 0, 3).shape(), (Shape{3, 4, 2}));
    EXPECT_EQ(rollaxis(a, -1, 1).shape(), (Shape{2, 4, 3}));
    EXPECT_EQ(rollaxis(a, 1, 2).shape(), (Shape{2, 3, 4}));
    EXPECT_EQ(rollaxis(a, 2).address(), a.address());
    expect_contains(GPUKIT_MESSAGE_OF(AxisError, rollaxis(a, 0, 4)), "'start' arg requires -3 <= start < 4");
    EXPECT_THROW(rollaxis(a, 3), AxisError);
    const Shape shapes[] = {{2, 1}, {3}, {4, 1, 1}};
    EXPECT_EQ(broadcast_shapes(shapes), (Shape{4, 2, 3}));
    EXPECT_EQ(broadcast_shapes(std::span<const Shape>{}), Shape{});
    const Shape clash[] = {{1, 3}, {2, 1}, {2, 4}};
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, broadcast_shapes(clash)),
                    "Mismatch is between arg 0 with shape (1, 3) and arg 2 with shape (2, 4).");
}

TEST_F(ShapeRoutines, TriAndItsIndices) {
    EXPECT_EQ(ints_of(tri(3, 4, 1, DType::int32)), (std::vector<std::int64_t>{1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1}));
    EXPECT_EQ(tri(3).dtype(), DType::float64);
    EXPECT_EQ(tri(-2).shape(), (Shape{0, 0}));
    const auto lower = tril_indices(3);
    EXPECT_EQ(ints_of(lower[0]), (std::vector<std::int64_t>{0, 1, 1, 2, 2, 2}));
    EXPECT_EQ(ints_of(lower[1]), (std::vector<std::int64_t>{0, 0, 1, 0, 1, 2}));
    EXPECT_EQ(lower[0].dtype(), DType::int64);
    const auto upper = triu_indices(2, 1, 4);
    EXPECT_EQ(ints_of(upper[0]), (std::vector<std::int64_t>{0, 0, 0, 1, 1}));
    EXPECT_EQ(ints_of(upper[1]), (std::vector<std::int64_t>{1, 2, 3, 2, 3}));
    EXPECT_EQ(ints_of(tril_indices_from(counting({2, 3}), -1)[1]), (std::vector<std::int64_t>{0}));
    EXPECT_EQ(ints_of(triu_indices_from(counting({3, 2}))[0]), (std::vector<std::int64_t>{0, 0, 1}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, tril_indices_from(counting({3}))),
                    "input array must be 2-d");
    const auto diagonal_of_cube = diag_indices(3, 3);
    ASSERT_EQ(diagonal_of_cube.size(), 3U);
    EXPECT_EQ(ints_of(diagonal_of_cube[2]), (std::vector<std::int64_t>{0, 1, 2}));
    EXPECT_EQ(diag_indices_from(counting({2, 2, 2})).size(), 3U);
    EXPECT_THROW(diag_indices_from(counting({2, 3})), InvalidArgumentError);
    EXPECT_THROW(diag_indices_from(counting({2})), InvalidArgumentError);
}

TEST_F(ShapeRoutines, IxMakesAnOpenMesh) {
    const std::vector<std::uint8_t> mask = {1, 0, 1, 1};
    const Array chosen = Array::from_host(std::span<const std::uint8_t>(mask), {4}).view(DType::bool_);
    const Array sequences[] = {counting({3}), chosen, counting({2})};
    const auto mesh = ix_(sequences);
    EXPECT_EQ(mesh[0].shape(), (Shape{3, 1, 1}));
    EXPECT_EQ(mesh[1].shape(), (Shape{1, 3, 1}));
    EXPECT_EQ(ints_of(mesh[1]), (std::vector<std::int64_t>{0, 2, 3}));
    EXPECT_EQ(mesh[2].shape(), (Shape{1, 1, 2}));
    const Array square[] = {counting({2, 2})};
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, ix_(square)), "Cross index must be 1 dimensional");
}

TEST_F(ShapeRoutines, LogspaceAndGeomspace) {
    const Array decades = logspace(Scalar(std::int64_t{0}), Scalar(std::int64_t{3}), 4);
    EXPECT_EQ(decades.dtype(), DType::float64);
    EXPECT_EQ(doubles_of(decades), (std::vector<double>{1, 10, 100, 1000}));
    const Array powers_of_two = logspace(Scalar(0.0), Scalar(4.0), 4,
                                         {.endpoint = false, .dtype = DType::int32, .base = Scalar(std::int64_t{2})});
    EXPECT_EQ(powers_of_two.dtype(), DType::int32);
    EXPECT_EQ(ints_of(powers_of_two), (std::vector<std::int64_t>{1, 2, 4, 8}));
    const Array falling = geomspace(Scalar(-1.0), Scalar(-1000.0), 4);
    const std::vector<double> values = doubles_of(falling);
    EXPECT_EQ(values.front(), -1.0);  // the endpoints exactly
    EXPECT_EQ(values.back(), -1000.0);
    EXPECT_NEAR(values[1], -10.0, 1e-12);
    const Array imaginary = geomspace(Scalar(std::complex<double>(0, 1)), Scalar(std::complex<double>(0, 100)), 3);
    EXPECT_EQ(imaginary.dtype(), DType::complex128);
    const auto complex_values = imaginary.to_vector<std::complex<double>>();
    EXPECT_NEAR(complex_values[1].imag(), 10.0, 1e-12);
    EXPECT_NEAR(complex_values[1].real(), 0.0, 1e-12);
    EXPECT_EQ(geomspace(Scalar(1.0), Scalar(8.0), 4, {.endpoint = true, .dtype = DType::float32}).dtype(),
              DType::float32);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, geomspace(Scalar(0.0), Scalar(1.0))),
                    "Geometric sequence cannot include zero");
}

TEST_F(ShapeRoutines, VanderIsRunningProducts) {
    const Array x = counting({3});
    const Array matrix = vander(x);
    EXPECT_EQ(matrix.dtype(), DType::int64);
    EXPECT_EQ(ints_of(matrix), (std::vector<std::int64_t>{0, 0, 1, 1, 1, 1, 4, 2, 1}));
    EXPECT_EQ(ints_of(vander(x, 2, true)), (std::vector<std::int64_t>{1, 0, 1, 1, 1, 2}));
    EXPECT_EQ(vander(x, 0).shape(), (Shape{3, 0}));
    EXPECT_EQ(vander(x.astype(DType::float32)).dtype(), DType::float64);
    EXPECT_THROW(vander(counting({2, 2})), InvalidArgumentError);
    EXPECT_THROW(vander(x, -1), InvalidArgumentError);
}

TEST_F(ShapeRoutines, RequireCopiesOnlyWhatFallsShort) {
    const Array a = counting({3, 4});
    EXPECT_EQ(require(a).address(), a.address());
    EXPECT_EQ(require(a, std::nullopt, {.c_contiguous = true}).address(), a.address());
    const Array transposed = a.transpose();
    EXPECT_TRUE(isfortran(transposed));
    EXPECT_FALSE(isfortran(a));
    EXPECT_FALSE(isfortran(counting({5})));  // both C and F
    const Array rows = require(transposed, std::nullopt, {.c_contiguous = true});
    EXPECT_TRUE(rows.is_c_contiguous());
    EXPECT_EQ(ints_of(rows), ints_of(transposed));
    const Array strided = a.index({Slice{std::nullopt, std::nullopt, 2}});
    const Array owned = require(strided, std::nullopt, {.owns_data = true});
    EXPECT_TRUE(owned.owns_data());
    EXPECT_EQ(ints_of(owned), ints_of(strided));
    EXPECT_EQ(require(a, DType::float32).dtype(), DType::float32);
    EXPECT_THROW(require(a, std::nullopt, {.c_contiguous = true, .f_contiguous = true}), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
