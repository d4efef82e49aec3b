// tests/device/shape_ops_test.cpp: shape and joining functions (gpukit/shape_ops.hpp) on small
// arrays whose results are written out here; tests/python/array/test_joining.py and
// test_shape_views.py compare every function with NumPy over dtypes and layouts.
#include <numeric>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class ShapeOps : public DeviceTest {};

// 0, 1, 2, ... in `shape` (int32).
Array counting(Shape shape) {
    std::vector<std::int32_t> values(static_cast<std::size_t>(element_count(shape)));
    std::iota(values.begin(), values.end(), 0);
    return Array::from_host(std::span<const std::int32_t>(values), std::move(shape));
}

std::vector<std::int32_t> values_of(const Array& a) { return a.astype(DType::int32).to_vector<std::int32_t>(); }

TEST_F(ShapeOps, ViewsShareMemoryAndRearrangeDimensions) {
    const Array a = counting({2, 1, 3});
    EXPECT_EQ(squeeze(a).shape(), (Shape{2, 3}));
    const std::int64_t axis1[] = {1}, axis0[] = {0}, last[] = {-1};
    EXPECT_EQ(squeeze(a, axis1).shape(), (Shape{2, 3}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, squeeze(a, axis0)), "size not equal to one");
    const std::int64_t new_axes[] = {0, -1};
    EXPECT_EQ(expand_dims(a, new_axes).shape(), (Shape{1, 2, 1, 3, 1}));
    EXPECT_THROW(expand_dims(a, std::vector<std::int64_t>{5}), AxisError);
    EXPECT_EQ(swapaxes(a, 0, 2).shape(), (Shape{3, 1, 2}));
    EXPECT_EQ(values_of(swapaxes(a, 0, 2)), (std::vector<std::int32_t>{0, 3, 1, 4, 2, 5}));
    EXPECT_EQ(moveaxis(a, axis0, last).shape(), (Shape{1, 3, 2}));
    const Array wide = broadcast_to(counting({3}), std::vector<std::int64_t>{2, 3});
    EXPECT_EQ(wide.strides(), (Strides{0, 4}));
    EXPECT_EQ(values_of(wide), (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2}));
    const Array parts[] = {counting({3, 1}), counting({2})};
    const auto both = broadcast_arrays(parts);
    EXPECT_EQ(both[0].shape(), (Shape{3, 2}));
    EXPECT_EQ(values_of(both[1]), (std::vector<std::int32_t>{0, 1, 0, 1, 0, 1}));
    EXPECT_EQ(values_of(flip(counting({2, 3}))), (std::vector<std::int32_t>{5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(values_of(flip(counting({2, 3}), last)), (std::vector<std::int32_t>{2, 1, 0, 5, 4, 3}));
    EXPECT_EQ(values_of(rot90(counting({2, 3}))), (std::vector<std::int32_t>{2, 5, 1, 4, 0, 3}));
    EXPECT_EQ(values_of(rot90(counting({2, 3}), -1)), (std::vector<std::int32_t>{3, 0, 4, 1, 5, 2}));
    const Array m = counting({3, 4});
    EXPECT_EQ(values_of(diagonal(m)), (std::vector<std::int32_t>{0, 5, 10}));
    EXPECT_EQ(values_of(diagonal(m, 2)), (std::vector<std::int32_t>{2, 7}));
    EXPECT_EQ(values_of(diagonal(m, -1)), (std::vector<std::int32_t>{4, 9}));
    EXPECT_EQ(diagonal(m, 9).size(), 0);
    EXPECT_EQ(diagonal(m).address(), m.address());
    EXPECT_THROW(diagonal(counting({3})), InvalidArgumentError);
    EXPECT_EQ(atleast_3d(counting({4})).shape(), (Shape{1, 4, 1}));
    EXPECT_EQ(atleast_2d(counting({})).shape(), (Shape{1, 1}));
}

TEST_F(ShapeOps, MatrixTransposeUnstackAndToDevice) {
    const Array a = counting({2, 2, 3});
    EXPECT_EQ(matrix_transpose(a).shape(), (Shape{2, 3, 2}));
    EXPECT_EQ(values_of(matrix_transpose(a)), (std::vector<std::int32_t>{0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11}));
    EXPECT_THROW(matrix_transpose(counting({3})), InvalidArgumentError);
    const std::vector<Array> columns = unstack(a, -1);
    ASSERT_EQ(columns.size(), 3U);
    EXPECT_EQ(columns[1].shape(), (Shape{2, 2}));
    EXPECT_EQ(values_of(columns[1]), (std::vector<std::int32_t>{1, 4, 7, 10}));
    EXPECT_EQ(columns[1].memory(), a.memory());  // views
    EXPECT_THROW(unstack(a, 3), AxisError);
    EXPECT_EQ(a.to_device(a.device()).address(), a.address());
    LikeOptions here;
    here.device = a.device();
    EXPECT_EQ(empty_like(a, here).device(), a.device());
}

TEST_F(ShapeOps, RealAndImagViewComplexMemory) {
    const std::vector<std::complex<double>> values{{1, -1}, {2.5, 3}, {-4, 0.5}};
    const Array z = Array::from_host(std::span<const std::complex<double>>(values), {3});
    EXPECT_EQ(real(z).to_vector<double>(), (std::vector<double>{1, 2.5, -4}));
    EXPECT_EQ(imag(z).to_vector<double>(), (std::vector<double>{-1, 3, 0.5}));
    imag(z).fill(7.0);  // a view: writes the array
    EXPECT_EQ(z.to_vector<std::complex<double>>()[1], std::complex<double>(2.5, 7));
    const Array r = counting({3}).astype(DType::float32);
    EXPECT_EQ(real(r).address(), r.address());
    EXPECT_EQ(imag(r).to_vector<float>(), (std::vector<float>{0, 0, 0}));
}

TEST_F(ShapeOps, ReshapeIsAViewWhereStridesAllowAndRavelFollowsTheOrder) {
    const Array a = counting({4, 6});
    EXPECT_EQ(a.index({Slice{}, Slice{{}, {}, 2}}).reshape({12}).address(), a.address());  // evenly spaced: a view
    const Array every_other = a.index({Slice{}, Slice{{}, 4, 2}});                         // (4, 2), strides (24, 8)
    const Array split = every_other.reshape({2, 2, 2});                                    // the rows split: a view
    EXPECT_EQ(split.address(), a.address());
    EXPECT_EQ(values_of(split), values_of(every_other));
    const Array merged = every_other.reshape({8});  // not evenly spaced: a copy
    EXPECT_NE(merged.address(), a.address());
    EXPECT_EQ(values_of(merged), (std::vector<std::int32_t>{0, 2, 6, 8, 12, 14, 18, 20}));
    EXPECT_EQ(values_of(a.reshape({3, 8}, Order::F)),
              (std::vector<std::int32_t>{0, 18, 13, 8,  3,  21, 16, 11, 6,  1,  19, 14,
                                         9, 4,  22, 17, 12, 7,  2,  20, 15, 10, 5,  23}));
    EXPECT_EQ(values_of(a.transpose().ravel(Order::K)), values_of(a.ravel()));  // memory order
    EXPECT_EQ(a.transpose().ravel(Order::K).address(), a.address());
    EXPECT_EQ(values_of(flatten(a.index({Slice{{}, 2}}), Order::F)),
              (std::vector<std::int32_t>{0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11}));
    EXPECT_THROW(a.reshape({5, 5}), InvalidArgumentError);
}

TEST_F(ShapeOps, ConcatenateAndStackPromoteAndCheckShapes) {
    const Array a = counting({2, 3}), b = counting({1, 3}).astype(DType::float64);
    const Array pieces[] = {a, b};
    const Array joined = concatenate(pieces);
    EXPECT_EQ(joined.dtype(), DType::float64);
    EXPECT_EQ(values_of(joined), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 0, 1, 2}));
    const Array columns[] = {a, a.index({Slice{}, Slice{{}, 1}})};
    EXPECT_EQ(values_of(concatenate(columns, 1)), (std::vector<std::int32_t>{0, 1, 2, 0, 3, 4, 5, 3}));
    EXPECT_EQ(values_of(concatenate(pieces, std::nullopt)), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 0, 1, 2}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, concatenate(columns, 0)),
                    "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 1");
    EXPECT_THROW(concatenate(pieces, 2), AxisError);
    JoinOptions into_int;
    into_int.dtype = DType::int32;
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, concatenate(pieces, 0, into_int)),
                    "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'");
    into_int.casting = Casting::unsafe;
    EXPECT_EQ(concatenate(pieces, 0, into_int).dtype(), DType::int32);
    JoinOptions into_out;
    into_out.out = Array::empty({3, 3}, DType::float32);
    concatenate(pieces, 0, into_out);
    EXPECT_EQ(values_of(*into_out.out), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 0, 1, 2}));

    const Array same[] = {counting({3}), counting({3})};
    EXPECT_EQ(stack(same).shape(), (Shape{2, 3}));
    EXPECT_EQ(values_of(stack(same, -1)), (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2}));
    EXPECT_EQ(vstack(same).shape(), (Shape{2, 3}));
    EXPECT_EQ(hstack(same).shape(), (Shape{6}));
    EXPECT_EQ(dstack(same).shape(), (Shape{1, 3, 2}));
    EXPECT_EQ(values_of(column_stack(same)), (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2}));
    const Array mismatched[] = {counting({3}), counting({2})};
    EXPECT_THROW(stack(mismatched), InvalidArgumentError);
}

TEST_F(ShapeOps, SplitsAreViews) {
    const Array a = counting({7, 2});
    const auto equal = array_split(a, 3);
    ASSERT_EQ(equal.size(), 3u);
    EXPECT_EQ(equal[0].shape(), (Shape{3, 2}));
    EXPECT_EQ(equal[2].shape(), (Shape{2, 2}));
    EXPECT_EQ(equal[1].address(), a.address() + 24);
    EXPECT_THROW(split(a, 3), InvalidArgumentError);
    const std::int64_t at[] = {2, -2, 10};
    const auto cut = split(a, at);
    ASSERT_EQ(cut.size(), 4u);
    EXPECT_EQ(cut[1].shape(), (Shape{3, 2}));
    EXPECT_EQ(cut[3].shape(), (Shape{0, 2}));
    EXPECT_EQ(values_of(split(a, 2, 1)[1]), (std::vector<std::int32_t>{1, 3, 5, 7, 9, 11, 13}));
}

TEST_F(ShapeOps, TileRepeatRollAndTriangles) {
    const Array a = counting({2, 2});
    const std::int64_t reps[] = {2, 1, 2};
    EXPECT_EQ(values_of(tile(a, reps)), (std::vector<std::int32_t>{0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3}));
    EXPECT_EQ(values_of(repeat(a, 2)), (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(values_of(repeat(a, 2, 1)), (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
    const std::int64_t counts[] = {1, 0, 3, 3};
    EXPECT_EQ(values_of(repeat(counting({4}), counts)), (std::vector<std::int32_t>{0, 2, 2, 2, 3, 3, 3}));
    const std::int64_t negative[] = {-1};
    EXPECT_THROW(repeat(a, negative), InvalidArgumentError);
    const std::int64_t shift[] = {1}, axis[] = {1}, two_shifts[] = {1, -1}, two_axes[] = {0, 1};
    EXPECT_EQ(values_of(roll(counting({2, 3}), shift)), (std::vector<std::int32_t>{5, 0, 1, 2, 3, 4}));
    EXPECT_EQ(values_of(roll(counting({2, 3}), shift, axis)), (std::vector<std::int32_t>{2, 0, 1, 5, 3, 4}));
    EXPECT_EQ(values_of(roll(counting({2, 3}), two_shifts, two_axes)), (std::vector<std::int32_t>{4, 5, 3, 1, 2, 0}));
    EXPECT_EQ(values_of(tril(counting({3, 3}))), (std::vector<std::int32_t>{0, 0, 0, 3, 4, 0, 6, 7, 8}));
    EXPECT_EQ(values_of(triu(counting({3, 3}), 1)), (std::vector<std::int32_t>{0, 1, 2, 0, 0, 5, 0, 0, 0}));
    EXPECT_EQ(values_of(tril(counting({2}))), (std::vector<std::int32_t>{0, 0, 0, 1}));
}

TEST_F(ShapeOps, PadConstantEdgeAndReflect) {
    const Array a = counting({3});
    const std::pair<std::int64_t, std::int64_t> widths[] = {{2, 4}};
    const std::pair<Scalar, Scalar> values[] = {{Scalar(-1), Scalar(9)}};
    EXPECT_EQ(values_of(pad(a, widths, PadMode::constant, values)),
              (std::vector<std::int32_t>{-1, -1, 0, 1, 2, 9, 9, 9, 9}));
    EXPECT_EQ(values_of(pad(a, widths, PadMode::edge)), (std::vector<std::int32_t>{0, 0, 0, 1, 2, 2, 2, 2, 2}));
    // Wider than the array: reflected again, as NumPy's.
    EXPECT_EQ(values_of(pad(a, widths, PadMode::reflect)), (std::vector<std::int32_t>{2, 1, 0, 1, 2, 1, 0, 1, 2}));
    const std::pair<std::int64_t, std::int64_t> square[] = {{1, 1}, {1, 0}};
    EXPECT_EQ(values_of(pad(counting({2, 2}), square, PadMode::edge)),
              (std::vector<std::int32_t>{0, 0, 1, 0, 0, 1, 2, 2, 3, 2, 2, 3}));
    const std::pair<std::int64_t, std::int64_t> negative[] = {{-1, 0}};
    EXPECT_THROW(pad(a, negative), InvalidArgumentError);
    EXPECT_THROW(pad(counting({0}), widths, PadMode::edge), InvalidArgumentError);
}

TEST_F(ShapeOps, PadWrapStatisticsAndRamps) {
    const Array a = counting({3});  // 0 1 2
    const std::pair<std::int64_t, std::int64_t> widths[] = {{2, 4}};
    EXPECT_EQ(values_of(pad(a, widths, PadMode::wrap)), (std::vector<std::int32_t>{1, 2, 0, 1, 2, 0, 1, 2, 0}));
    EXPECT_EQ(values_of(pad(a, widths, PadMode::maximum)), (std::vector<std::int32_t>{2, 2, 0, 1, 2, 2, 2, 2, 2}));
    PadOptions nearest;
    nearest.mode = PadMode::mean;
    nearest.stat_length = {{std::int64_t{2}, std::int64_t{1}}};  // mean(0, 1) = 0.5 rounds to 0 (even)
    EXPECT_EQ(values_of(pad(a, widths, nearest)), (std::vector<std::int32_t>{0, 0, 0, 1, 2, 2, 2, 2, 2}));
    PadOptions ramp;
    ramp.mode = PadMode::linear_ramp;
    ramp.constants = {{Scalar(std::int64_t{10}), Scalar(std::int64_t{-2})}};
    EXPECT_EQ(values_of(pad(a, widths, ramp)), (std::vector<std::int32_t>{10, 5, 0, 1, 2, 1, 0, -1, -2}));
    PadOptions odd;
    odd.mode = PadMode::reflect;
    odd.odd = true;
    EXPECT_EQ(values_of(pad(a, widths, odd)), (std::vector<std::int32_t>{-2, -1, 0, 1, 2, 3, 4, 5, 6}));
}

TEST_F(ShapeOps, GridsIndicesAndCopyto) {
    const Array x = counting({3}), y = counting({2});
    const Array axes[] = {x, y};
    const auto xy = meshgrid(axes);
    EXPECT_EQ(xy[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(values_of(xy[0]), (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2}));
    EXPECT_EQ(values_of(xy[1]), (std::vector<std::int32_t>{0, 0, 0, 1, 1, 1}));
    MeshgridOptions ij;
    ij.matrix_indexing = true;
    ij.sparse = true;
    const auto sparse = meshgrid(axes, ij);
    EXPECT_EQ(sparse[0].shape(), (Shape{3, 1}));
    EXPECT_EQ(sparse[1].shape(), (Shape{1, 2}));
    const std::int64_t dims[] = {2, 3};
    EXPECT_EQ(values_of(indices(dims)), (std::vector<std::int32_t>{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2}));
    EXPECT_EQ(sparse_indices(dims)[1].shape(), (Shape{1, 3}));

    const Array target = counting({2, 3});
    copyto(target, Array::from_host(std::span<const std::int32_t>(std::vector<std::int32_t>{7, 8, 9}), {3}));
    EXPECT_EQ(values_of(target), (std::vector<std::int32_t>{7, 8, 9, 7, 8, 9}));
    const std::vector<std::uint8_t> mask_values{1, 0, 1};
    const Array mask = Array::from_host(std::span<const std::uint8_t>(mask_values), {3}).astype(DType::bool_);
    copyto(target, counting({2, 3}), Casting::same_kind, mask);
    EXPECT_EQ(values_of(target), (std::vector<std::int32_t>{0, 8, 2, 3, 8, 5}));
    EXPECT_THROW(copyto(target, counting({3}).astype(DType::float64)), DTypeError);
    EXPECT_THROW(copyto(target, counting({4})), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
