// tests/device/ufuncs_test.cpp: every ufunc of src/ops/ufuncs.def on every backend, against a host
// reference computed in double and converted as NumPy converts (integers wrap): every dtype each
// accepts at sizes 0, 1, 31 and 4097, broadcast and transposed layouts, and NumPy's edge cases
// (integer overflow, division by zero, the signs of // and %, nan in maximum and minimum).
#include <cmath>
#include <limits>

#include "device_test_fixture.hpp"
#include "gpukit/elementwise.hpp"
#include "ops/ufunc.hpp"

namespace gpukit::testing {
namespace {

using detail::Ufunc;
using detail::UfuncId;

class Ufuncs : public DeviceTest {};

// Small integers (products stay exact in every float dtype), never all zero, zeros included.
std::vector<double> small_values(std::int64_t n, DType dtype, unsigned seed) {
    std::mt19937 random(seed);
    const bool is_bool = dtype == DType::bool_;
    const bool is_unsigned = kind(dtype) == DTypeKind::unsigned_integer;
    std::uniform_int_distribution<int> pick(is_bool || is_unsigned ? 0 : -20, is_bool ? 1 : 40);
    std::vector<double> values(static_cast<std::size_t>(n));
    for (auto& v : values) v = pick(random);
    return values;
}

Array array_of(const std::vector<double>& values, Shape shape, DType dtype) {
    return Array::from_host(std::span<const double>(values), std::move(shape)).astype(dtype);
}

std::vector<double> as_doubles(const Array& array) { return array.astype(DType::float64).to_vector<double>(); }

bool is_integer(DType dtype) {
    return kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer;
}

// x, an exact integer, stored in `dtype` as NumPy stores it: modulo 2^bits.
double wrapped(double x, DType dtype) {
    const auto bits = 8 * itemsize(dtype);
    std::uint64_t v = static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
    if (bits < 64) v &= (std::uint64_t{1} << bits) - 1;
    if (kind(dtype) == DTypeKind::unsigned_integer) return static_cast<double>(v);
    if (bits < 64 && (v >> (bits - 1)) != 0) v |= ~((std::uint64_t{1} << bits) - 1);
    return static_cast<double>(static_cast<std::int64_t>(v));
}

double reference(UfuncId id, double a, double b, bool integer_loop) {
    switch (id) {
        case UfuncId::add: return a + b;
        case UfuncId::subtract: return a - b;
        case UfuncId::multiply: return a * b;
        case UfuncId::true_divide: return a / b;
        case UfuncId::floor_divide: return b == 0 ? (integer_loop ? 0 : a / b) : std::floor(a / b);
        case UfuncId::remainder:
            return b == 0 ? (integer_loop ? 0 : std::numeric_limits<double>::quiet_NaN()) : a - b * std::floor(a / b);
        case UfuncId::negative: return -a;
        case UfuncId::positive: return a;
        case UfuncId::absolute: return std::fabs(a);
        case UfuncId::maximum: return std::max(a, b);
        case UfuncId::minimum: return std::min(a, b);
        case UfuncId::equal: return a == b;
        case UfuncId::not_equal: return a != b;
        case UfuncId::less: return a < b;
        case UfuncId::less_equal: return a <= b;
        case UfuncId::greater: return a > b;
        case UfuncId::greater_equal: return a >= b;
    }
    return 0;
}

Array call(const Ufunc& ufunc, const Array& a, const Array& b) {
    const Array* inputs[] = {&a, &b};
    return detail::run_ufunc(ufunc, std::span<const Array* const>(inputs, ufunc.nin))[0];
}

// Runs `ufunc` on (a, b) (b unused for unary ones) and compares with the host reference.
void expect_matches(const Ufunc& ufunc, const Array& a, const Array& b, const std::string& what) {
    const Array result = call(ufunc, a, b);
    const DType inputs[] = {a.dtype(), b.dtype()};
    const detail::UfuncLoop* loop = detail::select_loop(ufunc, std::span<const DType>(inputs, ufunc.nin));
    ASSERT_NE(loop, nullptr) << what;
    ASSERT_EQ(result.dtype(), loop->dtypes[ufunc.nin]) << what;
    const Shape& shape = result.shape();
    Array wide_a = Array::empty(shape, DType::float64, a.device());
    Array wide_b = Array::empty(shape, DType::float64, a.device());
    wide_a.assign(a);
    wide_b.assign(ufunc.nin == 2 ? b : a);
    const std::vector<double> x = as_doubles(wide_a);
    const std::vector<double> y = as_doubles(wide_b);
    const bool integer_loop = is_integer(loop->dtypes[0]) || loop->dtypes[0] == DType::bool_;
    std::vector<double> expected(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double r = reference(ufunc.id, x[i], y[i], integer_loop);
        const DType out = result.dtype();
        expected[i] = is_integer(out) ? wrapped(r, out) : out == DType::bool_ ? double(r != 0) : r;
    }
    if (!is_integer(result.dtype())) expected = as_doubles(array_of(expected, shape, result.dtype()));
    const std::vector<double> got = as_doubles(result);
    ASSERT_EQ(got.size(), expected.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(expected[i]) && std::isnan(got[i])) continue;
        ASSERT_EQ(got[i], expected[i]) << what << " at " << i << ": " << x[i] << ", " << y[i];
    }
}

TEST_F(Ufuncs, EveryUfuncEveryDtypeItAcceptsAtEdgeSizes) {
    for (const Ufunc& ufunc : detail::ufunc_table()) {
        for (const DTypeInfo& info : dtype_table) {
            const DType dtypes[] = {info.dtype, info.dtype};
            const std::string what = std::string(ufunc.name) + " " + std::string(info.name);
            if (!detail::select_loop(ufunc, std::span<const DType>(dtypes, ufunc.nin))) {
                const Array a = array_of({1}, {1}, info.dtype);
                EXPECT_THROW(call(ufunc, a, a), DTypeError) << what;
                continue;
            }
            for (std::int64_t n : {0, 1, 31, 4097}) {
                const Array a = array_of(small_values(n, info.dtype, 1), {n}, info.dtype);
                const Array b = array_of(small_values(n, info.dtype, 2), {n}, info.dtype);
                expect_matches(ufunc, a, b, what + " n=" + std::to_string(n));
            }
        }
    }
}

TEST_F(Ufuncs, BroadcastAndTransposedLayouts) {
    for (const Ufunc& ufunc : detail::ufunc_table()) {
        for (DType dtype : {DType::int32, DType::float32}) {
            const std::string what = std::string(ufunc.name) + " " + std::string(to_string(dtype));
            const Array column = array_of(small_values(3, dtype, 3), {3, 1}, dtype);
            const Array row = array_of(small_values(5, dtype, 4), {5}, dtype);
            expect_matches(ufunc, column, row, what + " (3,1) with (5,)");
            const Array matrix = array_of(small_values(std::int64_t{6} * 7, dtype, 5), {6, 7}, dtype);
            const Array other = array_of(small_values(std::int64_t{7} * 6, dtype, 6), {7, 6}, dtype);
            expect_matches(ufunc, matrix.transpose(), other, what + " a.T with b");
        }
    }
}

template <class T>
std::vector<T> run_binary(Array (*f)(const Array&, const Array&), std::vector<T> a, std::vector<T> b) {
    const auto n = static_cast<std::int64_t>(a.size());
    const Array x = Array::from_host(std::span<const T>(a), {n});
    const Array y = Array::from_host(std::span<const T>(b), {n});
    return f(x, y).template to_vector<T>();
}

TEST_F(Ufuncs, IntegersWrapAsNumPy) {
    using I32 = std::numeric_limits<std::int32_t>;
    using I64 = std::numeric_limits<std::int64_t>;
    EXPECT_EQ(run_binary<std::int32_t>(add, {I32::max(), I32::min()}, {1, -1}),
              (std::vector<std::int32_t>{I32::min(), I32::max()}));
    EXPECT_EQ(run_binary<std::int32_t>(subtract, {I32::min()}, {1}), (std::vector<std::int32_t>{I32::max()}));
    EXPECT_EQ(run_binary<std::int32_t>(multiply, {I32::min(), 65536}, {-1, 65536}),
              (std::vector<std::int32_t>{I32::min(), 0}));
    EXPECT_EQ(run_binary<std::int64_t>(add, {I64::max()}, {1}), (std::vector<std::int64_t>{I64::min()}));
    EXPECT_EQ(run_binary<std::int64_t>(multiply, {I64::min()}, {-1}), (std::vector<std::int64_t>{I64::min()}));
    EXPECT_EQ(run_binary<std::uint16_t>(multiply, {65535}, {65535}), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(run_binary<std::int32_t>(floor_divide, {I32::min()}, {-1}), (std::vector<std::int32_t>{I32::min()}));
    const std::vector<std::int32_t> x{I32::min()};
    EXPECT_EQ(negative(Array::from_host(std::span<const std::int32_t>(x), {1})).to_vector<std::int32_t>(), x);
    EXPECT_EQ(absolute(Array::from_host(std::span<const std::int32_t>(x), {1})).to_vector<std::int32_t>(), x);
}

TEST_F(Ufuncs, DivisionSignsAndZeroAsNumPy) {
    EXPECT_EQ(run_binary<std::int32_t>(floor_divide, {-7, 7, -7, 7, 5, 0}, {2, -2, -2, 2, 0, 0}),
              (std::vector<std::int32_t>{-4, -4, 3, 3, 0, 0}));
    EXPECT_EQ(run_binary<std::int32_t>(remainder, {-7, 7, -7, 7, 5, std::numeric_limits<std::int32_t>::min()},
                                       {2, -2, -2, 2, 0, -1}),
              (std::vector<std::int32_t>{1, -1, -1, 1, 0, 0}));
    EXPECT_EQ(run_binary<std::uint8_t>(floor_divide, {7, 7}, {2, 0}), (std::vector<std::uint8_t>{3, 0}));
    EXPECT_EQ(run_binary<std::uint8_t>(remainder, {7, 7}, {2, 0}), (std::vector<std::uint8_t>{1, 0}));
    EXPECT_EQ(run_binary<double>(floor_divide, {-7.5, 7.5, 1.0}, {2.0, -2.0, 0.0}),
              (std::vector<double>{-4.0, -4.0, std::numeric_limits<double>::infinity()}));
    const std::vector<double> mod = run_binary<double>(remainder, {-7.5, 7.5, 1.0}, {2.0, -2.0, 0.0});
    EXPECT_EQ(mod[0], 0.5);
    EXPECT_EQ(mod[1], -0.5);
    EXPECT_TRUE(std::isnan(mod[2]));
    const std::vector<std::int32_t> ints{1, 2};
    const Array i = Array::from_host(std::span<const std::int32_t>(ints), {2});
    const Array q = true_divide(i, i);
    EXPECT_EQ(q.dtype(), DType::float64);
}

TEST_F(Ufuncs, MaximumAndMinimumPropagateNan) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    using Binary = Array (*)(const Array&, const Array&);
    for (Binary f : {Binary(maximum), Binary(minimum)}) {
        const std::vector<float> r = run_binary<float>(f, {float(nan), 1.0f, 1.0f}, {1.0f, float(nan), 2.0f});
        EXPECT_TRUE(std::isnan(r[0]));
        EXPECT_TRUE(std::isnan(r[1]));
    }
    EXPECT_EQ(run_binary<float>(maximum, {1.0f}, {2.0f})[0], 2.0f);
    EXPECT_EQ(run_binary<float>(minimum, {1.0f}, {2.0f})[0], 1.0f);
}

TEST_F(Ufuncs, LoopSelectionFollowsNumPy) {
    const auto out = [](UfuncId id, std::vector<DType> inputs) {
        const detail::UfuncLoop* loop = detail::select_loop(detail::ufunc(id), inputs);
        return loop ? loop->dtypes[inputs.size()] : DType::bool_;
    };
    EXPECT_EQ(out(UfuncId::add, {DType::uint8, DType::uint8}), DType::uint8);
    EXPECT_EQ(out(UfuncId::add, {DType::int8, DType::uint8}), DType::int16);
    EXPECT_EQ(out(UfuncId::add, {DType::uint64, DType::int64}), DType::float64);
    EXPECT_EQ(out(UfuncId::add, {DType::float16, DType::bfloat16}), DType::float32);
    EXPECT_EQ(out(UfuncId::true_divide, {DType::int8, DType::int8}), DType::float64);
    EXPECT_EQ(out(UfuncId::true_divide, {DType::bool_, DType::bool_}), DType::float64);
    EXPECT_EQ(out(UfuncId::absolute, {DType::complex64}), DType::float32);
    EXPECT_EQ(out(UfuncId::less, {DType::float16, DType::int8}), DType::bool_);
    EXPECT_EQ(
        detail::select_loop(detail::ufunc(UfuncId::floor_divide), std::vector{DType::complex64, DType::complex64}),
        nullptr);
    const DType int8_array[] = {DType::int8};
    EXPECT_EQ(detail::weak_scalar_dtype(int8_array, PythonScalar::integer), DType::int8);
    EXPECT_EQ(detail::weak_scalar_dtype(int8_array, PythonScalar::floating), DType::float64);
}

}  // namespace
}  // namespace gpukit::testing
