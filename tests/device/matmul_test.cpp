// tests/device/matmul_test.cpp: gpukit::matmul against products made here on the host, in both
// kernel shapes (MatmulGpuShapes runs the GPU's shared-memory tiles on the simulator): sizes that
// are not multiples of a tile, a broadcast batch, transposed operands, integer wrap-around and
// bool. The NumPy comparison of every dtype and shape is tests/python/array/test_matmul.py.
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

}  // namespace
}  // namespace gpukit::testing
