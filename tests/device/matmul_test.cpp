// tests/device/matmul_test.cpp: gpukit::matmul against products made here on the host, in every
// kernel shape (MatmulGpuShapes runs the GPU's shared-memory tiles and its fast register tiles on
// the simulator): sizes that are not multiples of a tile, a broadcast batch, transposed operands,
// row- and column-major operands that start one element past an aligned address, integer
// wrap-around and bool. The NumPy comparison of every dtype and shape is
// tests/python/array/test_matmul.py.
#include <complex>
#include <random>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

std::vector<double> values(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(-9, 9);
    std::vector<double> result(n);
    for (auto& v : result) v = pick(random);  // small integers: exact products and sums in every dtype
    return result;
}

// C (batch, m, n) = A (batch or 1, m, k) @ B (k, n), on the host.
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b, std::int64_t batch,
                              std::int64_t m, std::int64_t k, std::int64_t n, bool a_broadcast) {
    std::vector<double> c(static_cast<std::size_t>(batch * m * n), 0.0);
    for (std::int64_t z = 0; z < batch; ++z)
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                double sum = 0;
                for (std::int64_t q = 0; q < k; ++q)
                    sum += a[static_cast<std::size_t>((a_broadcast ? 0 : z) * m * k + i * k + q)] *
                           b[static_cast<std::size_t>(q * n + j)];
                c[static_cast<std::size_t>((z * m + i) * n + j)] = sum;
            }
    return c;
}

void check_products(DType dtype) {
    SCOPED_TRACE(std::string(to_string(dtype)));
    const std::int64_t batch = 3, m = 65, k = 17, n = 70;
    const std::vector<double> a = values(static_cast<std::size_t>(batch * m * k), 1), b = values(k * n, 2);
    const Array x = Array::from_host(std::span<const double>(a), {batch, m, k}).astype(dtype);
    const Array y = Array::from_host(std::span<const double>(b), {k, n}).astype(dtype);
    EXPECT_EQ(matmul(x, y).astype(DType::float64).to_vector<double>(), reference(a, b, batch, m, k, n, false));
    // The first matrix alone, broadcast against a batch of the transposed B's.
    const Array first = x.index({Index(0)});
    const Array stacked = broadcast_to(y.transpose(), Shape{batch, n, k}).transpose(std::vector<std::int64_t>{0, 2, 1});
    EXPECT_EQ(matmul(first, stacked).astype(DType::float64).to_vector<double>(), reference(a, b, batch, m, k, n, true));
}

class Matmul : public DeviceTest {};
class MatmulGpuShapes : public GpuShapesTest {};

TEST_F(Matmul, ProductsOfEveryKindOfDtype) {
    for (const DType dtype : {DType::float32, DType::float64, DType::int32, DType::int64, DType::float16})
        check_products(dtype);
}

TEST_F(Matmul, IntegersWrapAndBoolsAreOrsOfAnds) {
    const std::vector<std::int8_t> big(64, 100);
    const Array a = Array::from_host(std::span<const std::int8_t>(big), {1, 64});
    const Array b = Array::from_host(std::span<const std::int8_t>(big), {64, 1});
    EXPECT_EQ(matmul(a, b).to_vector<std::int8_t>()[0], static_cast<std::int8_t>(64 * 100 * 100 % 256));
    const std::vector<std::uint8_t> flags{1, 0, 0, 0};
    const Array f = Array::from_host(std::span<const std::uint8_t>(flags), {2, 2}).astype(DType::bool_);
    EXPECT_EQ(matmul(f, f).astype(DType::uint8).to_vector<std::uint8_t>(), flags);
}

TEST_F(Matmul, BadShapesNameBothOperands) {
    const Array a = zeros({2, 3}), b = zeros({4, 5});
    const std::string message = GPUKIT_MESSAGE_OF(InvalidArgumentError, (void)matmul(a, b));
    expect_contains(message, "(2, 3)");
    expect_contains(message, "(4, 5)");
    expect_contains(message, "mismatch in its core dimension 0");
}

TEST_F(MatmulGpuShapes, TilesAtTheEdgesOfEveryKindOfDtype) {
    for (const DType dtype : {DType::float32, DType::int16, DType::complex64}) check_products(dtype);
}

// An operand of `batch` rows x cols matrices of `dtype` holding `values` (row-major order, one
// matrix after another), laid out row- or column-major, starting one element past an aligned
// address when `misaligned` (so that the fast kernel cannot read it 16 bytes at a time).
Array laid_out(const std::vector<double>& values, std::int64_t batch, std::int64_t rows, std::int64_t cols, DType dtype,
               bool column_major, bool misaligned) {
    std::vector<double> memory(misaligned ? 1 : 0, 0.0);
    for (std::int64_t z = 0; z < batch; ++z)
        for (std::int64_t outer = 0; outer < (column_major ? cols : rows); ++outer)
            for (std::int64_t inner = 0; inner < (column_major ? rows : cols); ++inner) {
                const std::int64_t r = column_major ? inner : outer, c = column_major ? outer : inner;
                memory.push_back(values[static_cast<std::size_t>((z * rows + r) * cols + c)]);
            }
    Array flat =
        Array::from_host(std::span<const double>(memory), {static_cast<std::int64_t>(memory.size())}).astype(dtype);
    if (misaligned) flat = flat.index({Slice(1, {})});
    if (!column_major) return flat.reshape({batch, rows, cols});
    return flat.reshape({batch, cols, rows}).transpose(std::vector<std::int64_t>{0, 2, 1});
}

// The fast kernel's cases: each operand row- or column-major, aligned or not, A a batch of `batch`
// against one B (broadcast), m, k and n around its 128-wide tiles and 8-deep slices.
void check_layouts(DType dtype, std::int64_t batch, std::int64_t m, std::int64_t k, std::int64_t n, bool a_column_major,
                   bool b_column_major, bool misaligned) {
    SCOPED_TRACE(::testing::Message() << to_string(dtype) << " batch " << batch << ", m " << m << ", k " << k << ", n "
                                      << n << ", A " << (a_column_major ? "column" : "row") << "-major, B "
                                      << (b_column_major ? "column" : "row") << "-major"
                                      << (misaligned ? ", misaligned" : ""));
    const std::vector<double> a = values(static_cast<std::size_t>(batch * m * k), 3), b = values(k * n, 4);
    const Array x = laid_out(a, batch, m, k, dtype, a_column_major, misaligned);
    const Array y = laid_out(b, 1, k, n, dtype, b_column_major, misaligned);
    // Sums of small integers are exact in float32 and float64; float16 rounds them once, at the store.
    const std::vector<double> exact = reference(a, b, batch, m, k, n, false);
    const std::vector<double> expected = Array::from_host(std::span<const double>(exact), {batch, m, n})
                                             .astype(dtype)
                                             .astype(DType::float64)
                                             .to_vector<double>();
    EXPECT_EQ(matmul(x, y).astype(DType::float64).to_vector<double>(), expected);
}

TEST_F(MatmulGpuShapes, FastTilesAtTheEdgesOfEveryLayout) {
    struct Size {
        std::int64_t m, k, n;
    };
    const Size sizes[] = {{1, 7, 127}, {7, 1, 129}, {128, 128, 128}, {129, 257, 1}, {257, 127, 129}, {127, 129, 7}};
    for (const bool a_column_major : {false, true})
        for (const bool b_column_major : {false, true})
            for (const Size& size : sizes)
                check_layouts(DType::float32, 1, size.m, size.k, size.n, a_column_major, b_column_major, false);
    for (const bool a_column_major : {false, true})
        for (const bool b_column_major : {false, true})
            check_layouts(DType::float32, 2, 129, 127, 257, a_column_major, b_column_major, true);
}

TEST_F(MatmulGpuShapes, FastTilesOfDoublesAndHalvesAndBatches) {
    for (const DType dtype : {DType::float64, DType::float16, DType::bfloat16}) {
        check_layouts(dtype, 3, 129, 257, 7, false, false, false);
        check_layouts(dtype, 2, 64, 24, 132, false, false, false);  // whole groups read and written at once
        check_layouts(dtype, 1, 132, 36, 68, true, true, false);
        check_layouts(dtype, 1, 127, 7, 257, true, true, false);
        check_layouts(dtype, 2, 65, 17, 129, false, true, true);
        check_layouts(dtype, 1, 1, 128, 1, true, false, true);
    }
}

}  // namespace
}  // namespace gpukit::testing
