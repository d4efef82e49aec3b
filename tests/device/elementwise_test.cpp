// tests/device/elementwise_test.cpp: the elementwise engine through gpukit::add, on every backend,
// against a CPU reference: every dtype, contiguous, strided, transposed, broadcast, 0-size and 0-d.
#include <cmath>

#include "device_test_fixture.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::testing {
namespace {

class Elementwise : public DeviceTest {};

// Small integers, exact in every dtype (bfloat16 holds integers to 256), never all zero.
std::vector<double> small_values(std::int64_t n, DType dtype, unsigned seed) {
    std::mt19937 random(seed);
    const bool is_unsigned = kind(dtype) == DTypeKind::unsigned_integer;
    const bool is_bool = dtype == DType::bool_;
    std::uniform_int_distribution<int> pick(is_bool ? 0 : is_unsigned ? 0 : -20, is_bool ? 1 : 40);
    std::vector<double> values(static_cast<std::size_t>(n));
    for (auto& v : values) v = pick(random);
    return values;
}

Array array_of(const std::vector<double>& values, Shape shape, DType dtype) {
    return Array::from_host(std::span<const double>(values), std::move(shape)).astype(dtype);
}

std::vector<double> as_doubles(const Array& array) { return array.astype(DType::float64).to_vector<double>(); }

// a + b computed on the host in double, then converted as the device result is.
void expect_sum(const Array& a, const Array& b, const Array& sum, const std::string& what) {
    const Shape shapes[] = {a.shape(), b.shape()};
    const Shape shape = sum.shape();
    // Broadcast on the host by letting the device's broadcast copy (assign) expand the inputs.
    Array wide_a = Array::empty(shape, DType::float64, a.device());
    Array wide_b = Array::empty(shape, DType::float64, a.device());
    wide_a.assign(a);
    wide_b.assign(b);
    const std::vector<double> x = as_doubles(wide_a);
    const std::vector<double> y = as_doubles(wide_b);
    std::vector<double> expected(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) expected[i] = x[i] + y[i];
    const std::vector<double> converted = as_doubles(array_of(expected, shape, sum.dtype()));
    const std::vector<double> got = as_doubles(sum);
    ASSERT_EQ(got.size(), converted.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], converted[i]) << what << " at " << i;
}

TEST_F(Elementwise, AddsEveryDtypeAtEdgeSizes) {
    for (const DTypeInfo& info : dtype_table) {
        for (std::int64_t n : {0, 1, 31, 4097}) {
            const Array a = array_of(small_values(n, info.dtype, 1), {n}, info.dtype);
            const Array b = array_of(small_values(n, info.dtype, 2), {n}, info.dtype);
            const Array c = add(a, b);
            EXPECT_EQ(c.dtype(), info.dtype);
            expect_sum(a, b, c, std::string(info.name) + " n=" + std::to_string(n));
        }
    }
}

TEST_F(Elementwise, AddsBroadcastStridedAndTransposedOperands) {
    for (DType dtype : {DType::float32, DType::float16, DType::bfloat16, DType::int64, DType::complex128}) {
        const std::string name(to_string(dtype));
        const Array column = array_of(small_values(3, dtype, 3), {3, 1}, dtype);
        const Array row = array_of(small_values(5, dtype, 4), {5}, dtype);
        expect_sum(column, row, add(column, row), name + " (3,1)+(5,)");

        const Array matrix = array_of(small_values(6 * 7, dtype, 5), {6, 7}, dtype);
        const Array other = array_of(small_values(7 * 6, dtype, 6), {7, 6}, dtype);
        expect_sum(matrix.transpose(), other, add(matrix.transpose(), other), name + " a.T + b");

        const Array every_other = matrix.index({Slice{}, Slice{std::nullopt, std::nullopt, 2}});  // (6, 4)
        const Array reversed =
            array_of(small_values(4, dtype, 7), {4}, dtype).index({Slice{std::nullopt, std::nullopt, -1}});
        expect_sum(every_other, reversed, add(every_other, reversed), name + " a[:, ::2] + b[::-1]");

        const Array scalar = array_of({3}, {}, dtype);
        expect_sum(scalar, scalar, add(scalar, scalar), name + " 0-d + 0-d");
        expect_sum(matrix, scalar, add(matrix, scalar), name + " matrix + 0-d");
    }
}

TEST_F(Elementwise, MixedDtypesPromoteAsNumPy) {
    const Array i8 = array_of(small_values(100, DType::int8, 1), {100}, DType::int8);
    const Array f32 = array_of(small_values(100, DType::float32, 2), {100}, DType::float32);
    const Array u64 = array_of(small_values(100, DType::uint64, 3), {100}, DType::uint64);
    const Array i64 = array_of(small_values(100, DType::int64, 4), {100}, DType::int64);
    const Array h = array_of(small_values(100, DType::float16, 5), {100}, DType::float16);
    const Array bh = array_of(small_values(100, DType::bfloat16, 6), {100}, DType::bfloat16);
    EXPECT_EQ(add(i8, f32).dtype(), DType::float32);
    expect_sum(i8, f32, add(i8, f32), "int8 + float32");
    EXPECT_EQ(add(u64, i64).dtype(), DType::float64);
    expect_sum(u64, i64, add(u64, i64), "uint64 + int64");
    EXPECT_EQ(add(h, bh).dtype(), DType::float32);
    expect_sum(h, bh, add(h, bh), "float16 + bfloat16");
}

TEST_F(Elementwise, IntegerOverflowWrapsAsNumPy) {
    const Array a = array_of({127, -128, 100}, {3}, DType::int8);
    const Array b = array_of({1, -1, 100}, {3}, DType::int8);
    const std::vector<double> sum = as_doubles(add(a, b));
    EXPECT_EQ(sum, (std::vector<double>{-128, 127, -56}));
}

TEST_F(Elementwise, HalfPrecisionRoundsToNearestEven) {
    // 2048 + 1 is a tie in float16 (spacing 2 there): to even, 2048; 2048 + 3 -> 2052.
    const Array a = array_of({2048, 2048, 65504}, {3}, DType::float16);
    const Array b = array_of({1, 3, 65504}, {3}, DType::float16);
    const std::vector<double> sum = as_doubles(add(a, b));
    EXPECT_EQ(sum[0], 2048);
    EXPECT_EQ(sum[1], 2052);
    EXPECT_TRUE(std::isinf(sum[2]));
}

TEST_F(Elementwise, OutArgumentCastsUnderTheCastingRule) {
    const Array a = array_of(small_values(10, DType::float64, 1), {10}, DType::float64);
    const Array out32 = Array::empty({10}, DType::float32);
    add(a, a, out32);  // same_kind allows float64 -> float32
    expect_sum(a, a, out32, "float64 into float32");
    const Array out_int = Array::empty({10}, DType::int32);
    EXPECT_THROW(add(a, a, out_int), DTypeError);
    add(a, a, out_int, Casting::unsafe);
    expect_sum(a, a, out_int, "float64 into int32, unsafe");
}

TEST_F(Elementwise, ShapesThatDoNotBroadcastAreNamed) {
    const Array a = Array::empty({2, 3}, DType::float32);
    const Array b = Array::empty({4}, DType::float32);
    try {
        add(a, b);
        FAIL() << "no error";
    } catch (const InvalidArgumentError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(format_shape(a.shape())), std::string::npos) << message;
        EXPECT_NE(message.find(format_shape(b.shape())), std::string::npos) << message;
    }
    EXPECT_THROW(add(a, a, Array::empty({3, 2}, DType::float32)), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing

namespace gpukit::testing {
namespace {

// The GPU's kernel shapes (16-byte vectors, vectors along rows, shared-memory tiles for transposed
// inputs) run on the simulator too here, so CI checks the code a GPU runs.
class ElementwiseGpuShapes : public GpuShapesTest {};

TEST_F(ElementwiseGpuShapes, VectorsRowsAndTilesGiveTheSameSums) {
    for (DType dtype : {DType::float32, DType::int8}) {
        const std::string name(to_string(dtype));
        for (const auto& [rows, cols] : {std::pair{64, 64}, std::pair{45, 70}, std::pair{1, 37}}) {
            const std::string what = name + " " + std::to_string(rows) + "x" + std::to_string(cols);
            const Array a = array_of(small_values(std::int64_t{rows} * cols, dtype, 1), {rows, cols}, dtype);
            const Array b = array_of(small_values(std::int64_t{rows} * cols, dtype, 2), {rows, cols}, dtype);
            const Array t = array_of(small_values(std::int64_t{rows} * cols, dtype, 3), {cols, rows}, dtype);
            const Array column = array_of(small_values(rows, dtype, 4), {rows, 1}, dtype);
            const Array row = array_of(small_values(cols, dtype, 5), {cols}, dtype);
            const Array one = array_of(small_values(1, dtype, 6), {}, dtype);
            expect_sum(a, b, add(a, b), what + " contiguous");
            expect_sum(a, column, add(a, column), what + " + column");
            expect_sum(a, row, add(a, row), what + " + row");
            expect_sum(a, one, add(a, one), what + " + 0-d");
            expect_sum(t.transpose(), b, add(t.transpose(), b), what + " a.T + b");
            expect_sum(t.transpose(), t.transpose(), add(t.transpose(), t.transpose()), what + " a.T + a.T");
            expect_sum(column, t.transpose(), add(column, t.transpose()), what + " column + a.T");
            const Array unaligned =
                array_of(small_values(std::int64_t{rows} * cols + 1, dtype, 7), {std::int64_t{rows} * cols + 1}, dtype)
                    .index({Slice{1, std::nullopt}})
                    .reshape({rows, cols});
            expect_sum(unaligned, b, add(unaligned, b), what + " unaligned");
        }
    }
}

// Operands of different widths in one vector kernel: 16 bytes of the widest per group, fewer of
// the others (a cast float32 -> float16 is the common case).
TEST_F(ElementwiseGpuShapes, NarrowAndWideOperandsShareAGroup) {
    const Array narrow = array_of(small_values(64 * 64, DType::int8, 10), {64, 64}, DType::int8);
    const Array wide = array_of(small_values(64 * 64, DType::float32, 11), {64, 64}, DType::float32);
    const Array column = array_of(small_values(64, DType::float64, 12), {64, 1}, DType::float64);
    expect_sum(narrow, wide, add(narrow, wide), "int8 + float32");
    expect_sum(narrow, column, add(narrow, column), "int8 + float64 column");
    const Array half_out = Array::empty({64, 64}, DType::float16);
    add(wide, wide, half_out, Casting::same_kind);
    expect_sum(wide, wide, half_out, "float32 + float32 into float16");
}

// Loops that read i, the element's flat index, in every kernel shape: vectors (arange into a
// contiguous array), rows (tril of a row broadcast), tiles (tril of a.T), strided (indices into a
// plane) and element by element.
TEST_F(ElementwiseGpuShapes, EveryShapeGivesLoopsTheirFlatIndex) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{31}, std::int64_t{4097}}) {
        const std::vector<std::int32_t> counted = arange(Scalar(n), DType::int32).to_vector<std::int32_t>();
        for (std::int64_t k = 0; k < n; ++k) ASSERT_EQ(counted[static_cast<std::size_t>(k)], k) << "arange " << n;
    }
    const auto expect_lower = [](const Array& source, const Array& lower, const std::string& what) {
        const std::vector<double> from = as_doubles(source), got = as_doubles(lower);
        const std::int64_t rows = lower.shape()[0], cols = lower.shape()[1];
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c) {
                const auto at = static_cast<std::size_t>(r * cols + c);
                const double expected = c <= r ? from[source.ndim() == 1 ? static_cast<std::size_t>(c) : at] : 0.0;
                ASSERT_EQ(got[at], expected) << what << " at " << r << ", " << c;
            }
    };
    const Array row = array_of(small_values(64, DType::float32, 13), {64}, DType::float32);
    expect_lower(row, tril(row), "tril of a row broadcast");
    const Array t = array_of(small_values(45 * 70, DType::float32, 14), {45, 70}, DType::float32);
    expect_lower(t.transpose().copy(), tril(t.transpose()), "tril of a.T");
    const Array grid = indices(std::vector<std::int64_t>{5, 7}, DType::int64);
    const std::vector<std::int64_t> coordinates = grid.to_vector<std::int64_t>();
    for (std::int64_t k = 0; k < 35; ++k) {
        ASSERT_EQ(coordinates[static_cast<std::size_t>(k)], k / 7) << "indices, rows";
        ASSERT_EQ(coordinates[static_cast<std::size_t>(35 + k)], k % 7) << "indices, columns";
    }
    const std::vector<double> spaced = as_doubles(linspace(Scalar(0.0), Scalar(10.0), 11));
    for (std::size_t k = 0; k < spaced.size(); ++k) ASSERT_EQ(spaced[k], static_cast<double>(k)) << "linspace";
}

// The tile kernel alone, small: check mode runs this one (its barriers and shared memory).
TEST_F(ElementwiseGpuShapes, TransposedTilesAtTheEdges) {
    const Array t = array_of(small_values(40 * 33, DType::float32, 8), {40, 33}, DType::float32);
    const Array b = array_of(small_values(33 * 40, DType::float32, 9), {33, 40}, DType::float32);
    expect_sum(t.transpose(), b, add(t.transpose(), b), "33x40 a.T + b");
}

}  // namespace
}  // namespace gpukit::testing

namespace gpukit::testing {
namespace {

class ElementwiseLarge : public DeviceTest {};

// Above 2^31 elements: 64-bit indices in every kernel shape (the simulator's memory is the
// machine's: these run on the GPU only). Values from memsets, checked at both ends and the middle.
TEST_F(ElementwiseLarge, MoreThanTwoToTheThirtyOneElements) {
    if (on_simulator()) GTEST_SKIP() << "6 GB of arrays: on the GPU only";
    const std::int64_t n = (std::int64_t{1} << 31) + 3;
    Array a = Array::empty({n}, DType::int8);
    Array b = Array::empty({n}, DType::int8);
    a.fill(std::int8_t{3});
    b.fill(std::int8_t{5});
    const Array sum = add(a, b);
    for (std::int64_t start : {std::int64_t{0}, n / 2 - 7, n - 64}) {
        const std::vector<std::int8_t> got = sum.index({Slice{start, start + 64}}).to_vector<std::int8_t>();
        for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], 8) << start + static_cast<std::int64_t>(i);
    }
    // Every other element of the large one, reversed: strided offsets past 2^31 bytes.
    const Array every_other = a.index({Slice{std::nullopt, std::nullopt, -2}});
    const Array twice = add(every_other, every_other);
    EXPECT_EQ(twice.size(), (n + 1) / 2);
    const std::vector<std::int8_t> tail = twice.index({Slice{-16, std::nullopt}}).to_vector<std::int8_t>();
    for (std::int8_t v : tail) EXPECT_EQ(v, 6);
}

// 2^30 + 3 float32 (4 GB each): vectors with a tail, and a float column broadcast down rows.
TEST_F(ElementwiseLarge, FloatsPastFourGigabytes) {
    if (on_simulator()) GTEST_SKIP() << "12 GB of arrays: on the GPU only";
    const std::int64_t n = (std::int64_t{1} << 30) + 3;
    Array a = Array::empty({n}, DType::float32);
    a.fill(1.5f);
    const Array doubled = add(a, a);
    const std::vector<float> end = doubled.index({Slice{n - 5, std::nullopt}}).to_vector<float>();
    for (float v : end) EXPECT_EQ(v, 3.0f);
}

}  // namespace
}  // namespace gpukit::testing
