// tests/device/array_operators_test.cpp: C++ operators on arrays (gpukit/array_operators.hpp), as
// NumPy 2's operators: the ufunc each one calls, C++ numbers as weak scalars (NEP 50), in-place
// operators with casting same_kind, and NumPy's refusals (bool negation and subtraction, integers
// out of an integer dtype's range).
#include <complex>
#include <limits>

#include "device_test_fixture.hpp"
#include "gpukit/array_operators.hpp"

namespace gpukit::testing {
namespace {

class ArrayOperators : public DeviceTest {};

template <class T>
Array array_of(std::vector<T> values) {
    const auto n = static_cast<std::int64_t>(values.size());
    return Array::from_host(std::span<const T>(values), {n});
}

template <class T>
std::vector<T> values_of(const Array& array) {
    return array.to_vector<T>();
}
// Booleans as 0 and 1 (std::vector<bool> holds no bool elements to copy into).
Array bools_of(std::vector<std::uint8_t> values) { return array_of(std::move(values)).astype(DType::bool_); }
std::vector<int> truth_of(const Array& array) {
    const std::vector<std::uint8_t> bytes = array.astype(DType::uint8).to_vector<std::uint8_t>();
    return {bytes.begin(), bytes.end()};
}

std::vector<std::int32_t> random_ints(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::int32_t> pick(-1000, 1000);
    std::vector<std::int32_t> values(n);
    for (auto& v : values) v = pick(random) | 1;  // odd: never zero
    return values;
}

TEST_F(ArrayOperators, EachOperatorIsItsUfunc) {
    const Array a = array_of(random_ints(37, 1));
    const Array b = array_of(random_ints(37, 2));
    const Array small = array_of(std::vector<std::int32_t>(37, 3));
    using Binary = Array (*)(const Array&, const Array&);
    const std::pair<Array, Binary> cases[] = {
        {a + b, add},       {a - b, subtract},       {a * b, multiply},     {a / b, true_divide},
        {a % b, remainder}, {(a & b), bitwise_and},  {(a | b), bitwise_or}, {(a ^ b), bitwise_xor},
        {a == b, equal},    {a != b, not_equal},     {a < b, less},         {a <= b, less_equal},
        {a > b, greater},   {a >= b, greater_equal},
    };
    for (const auto& [got, ufunc] : cases) {
        const Array expected = ufunc(a, b);
        ASSERT_EQ(got.dtype(), expected.dtype());
        EXPECT_EQ(got.astype(DType::float64).to_vector<double>(), expected.astype(DType::float64).to_vector<double>());
    }
    EXPECT_EQ(values_of<std::int32_t>(a << small), values_of<std::int32_t>(left_shift(a, small)));
    EXPECT_EQ(values_of<std::int32_t>(a >> small), values_of<std::int32_t>(right_shift(a, small)));
    EXPECT_EQ(values_of<std::int32_t>(-a), values_of<std::int32_t>(negative(a)));
    EXPECT_EQ(values_of<std::int32_t>(+a), values_of<std::int32_t>(a));
    EXPECT_EQ(values_of<std::int32_t>(~a), values_of<std::int32_t>(bitwise_not(a)));
    const std::vector<std::int32_t> x = values_of<std::int32_t>(a), y = values_of<std::int32_t>(b);
    const std::vector<std::int32_t> sum = values_of<std::int32_t>(a + b);
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(sum[i], x[i] + y[i]);
}

TEST_F(ArrayOperators, NumbersAreWeakScalars) {
    const Array int8s = array_of<std::int8_t>({1, -2, 100});
    const Array plus_one = int8s + 1;
    EXPECT_EQ(plus_one.dtype(), DType::int8);
    EXPECT_EQ(values_of<std::int8_t>(plus_one), (std::vector<std::int8_t>{2, -1, 101}));
    EXPECT_EQ(values_of<std::int8_t>(int8s * 2), (std::vector<std::int8_t>{2, -4, -56}));  // wraps, as NumPy's

    const Array halves = array_of<float>({1.5f, -2.0f}).astype(DType::float16);
    EXPECT_EQ((halves * 2.0f).dtype(), DType::float16);  // a C++ float is weak too
    EXPECT_EQ((halves * 2.0).dtype(), DType::float16);
    EXPECT_EQ((halves * 2.0).astype(DType::float32).to_vector<float>(), (std::vector<float>{3.0f, -4.0f}));

    const Array int32s = array_of<std::int32_t>({3, -4});
    const Array scaled = int32s * 2.5;
    EXPECT_EQ(scaled.dtype(), DType::float64);
    EXPECT_EQ(values_of<double>(scaled), (std::vector<double>{7.5, -10.0}));
    EXPECT_EQ((array_of<std::uint8_t>({3}) * 2.5).dtype(), DType::float64);
    EXPECT_EQ((array_of<float>({1.0f}) + 1).dtype(), DType::float32);
    EXPECT_EQ((array_of<float>({1.0f}) + std::complex<double>(0, 1)).dtype(), DType::complex64);

    const Array bools = bools_of({1, 0});
    const Array bool_plus_five = bools + 5;
    EXPECT_EQ(bool_plus_five.dtype(), DType::int64);  // NumPy's default integer
    EXPECT_EQ(values_of<std::int64_t>(bool_plus_five), (std::vector<std::int64_t>{6, 5}));
    EXPECT_EQ((bools + true).dtype(), DType::bool_);

    // The number on the left.
    EXPECT_EQ(values_of<std::int32_t>(10 - int32s), (std::vector<std::int32_t>{7, 14}));
    EXPECT_EQ(values_of<double>(1.0 / int32s), (std::vector<double>{1.0 / 3, -0.25}));
    EXPECT_EQ(values_of<std::uint16_t>(std::uint16_t{1} << array_of<std::uint16_t>({3, 15})),
              (std::vector<std::uint16_t>{8, 32768}));
}

TEST_F(ArrayOperators, IntegersOutOfRangeAreRefusedInArithmeticAndComparedExactly) {
    const Array int8s = array_of<std::int8_t>({1, 2});
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, int8s + 1000),
                    "Python integer 1000 out of bounds for int8");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, array_of<std::uint8_t>({1}) + (-1)),
                    "Python integer -1 out of bounds for uint8");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, array_of<std::int64_t>({1}) + (1ull << 63)),
                    "Python integer 9223372036854775808 out of bounds for int64");

    const Array uint8s = array_of<std::uint8_t>({1, 255});
    EXPECT_EQ(truth_of(uint8s < -1), (std::vector<int>{0, 0}));
    EXPECT_EQ(truth_of(uint8s > -1), (std::vector<int>{1, 1}));
    EXPECT_EQ(truth_of(uint8s == 300), (std::vector<int>{0, 0}));
    EXPECT_EQ(truth_of(uint8s != 300), (std::vector<int>{1, 1}));
    const Array int64s = array_of<std::int64_t>({-1, std::numeric_limits<std::int64_t>::max()});
    EXPECT_EQ(truth_of(int64s < (1ull << 63)), (std::vector<int>{1, 1}));
    EXPECT_EQ(truth_of(int64s == std::numeric_limits<std::uint64_t>::max()), (std::vector<int>{0, 0}));
}

TEST_F(ArrayOperators, InPlaceWritesTheLeftArrayWithCastingSameKind) {
    Array a = array_of<float>({1.0f, 2.0f, 3.0f});
    const Array original = a;  // a view of the same memory
    a += array_of<float>({0.5f, 0.5f, 0.5f});
    a *= 2;
    a -= 1.0;
    EXPECT_EQ(values_of<float>(original), (std::vector<float>{2.0f, 4.0f, 6.0f}));

    Array ints = array_of<std::int32_t>({1, 2});
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, ints += 2.5),
                    "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with casting rule "
                    "'same_kind'");
    ints <<= 3;
    ints |= 1;
    EXPECT_EQ(values_of<std::int32_t>(ints), (std::vector<std::int32_t>{9, 17}));

    Array row = Array::empty({3}, DType::float32);
    row.fill(1.0f);
    Array matrix = Array::empty({2, 3}, DType::float32);
    matrix.fill(2.0f);
    matrix += row;  // broadcasts into the left array's shape
    EXPECT_EQ(values_of<float>(matrix), std::vector<float>(6, 3.0f));
    EXPECT_THROW(row += matrix, InvalidArgumentError);  // the result would not fit the left array
}

TEST_F(ArrayOperators, BooleansAsNumPy) {
    const Array p = bools_of({1, 1, 0, 0});
    const Array q = bools_of({1, 0, 1, 0});
    EXPECT_EQ(truth_of(p + q), (std::vector<int>{1, 1, 1, 0}));
    EXPECT_EQ(truth_of(p * q), (std::vector<int>{1, 0, 0, 0}));
    EXPECT_EQ(truth_of(~p), (std::vector<int>{0, 0, 1, 1}));
    EXPECT_EQ(truth_of(p ^ q), (std::vector<int>{0, 1, 1, 0}));
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, -p),
                    "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
                    "logical_not function instead.");
    const std::string subtract_message =
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the "
        "logical_xor function instead.";
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, p - q), subtract_message);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, p - true), subtract_message);
    Array r = p;
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, r -= q), subtract_message);
    // With an integer on the other side, bool is an integer.
    EXPECT_EQ(values_of<std::int64_t>(p - 1), (std::vector<std::int64_t>{0, 0, -1, -1}));
}

}  // namespace
}  // namespace gpukit::testing
