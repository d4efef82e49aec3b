// tests/device/ufunc_call_test.cpp: a ufunc call's operands and keywords on every backend:
// scalars (weak as Python's numbers under NEP 50, typed as NumPy's), where=, dtype=, casting= on
// inputs and outputs, an out larger than the inputs, inputs that overlap the output, mixed storage
// dtypes and strided views through one kernel, and NumPy's errors for each.
#include <complex>
#include <numeric>

#include "device_test_fixture.hpp"
#include "ops/ufunc.hpp"

namespace gpukit::testing {
namespace {

using detail::call_ufunc;
using detail::ElementwiseOperand;
using detail::ufunc;
using detail::UfuncId;
using detail::UfuncOptions;

class UfuncCall : public DeviceTest {};

std::vector<double> random_values(std::int64_t n, unsigned seed, int low = -50, int high = 50) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(low, high);
    std::vector<double> values(static_cast<std::size_t>(n));
    for (auto& v : values) v = pick(random) == 0 ? 7 : pick(random);
    return values;
}

Array array_of(const std::vector<double>& values, Shape shape, DType dtype) {
    return Array::from_host(std::span<const double>(values), std::move(shape)).astype(dtype);
}

std::vector<double> as_doubles(const Array& array) { return array.astype(DType::float64).to_vector<double>(); }

Array call(UfuncId id, std::initializer_list<ElementwiseOperand> inputs, const UfuncOptions& options = {}) {
    return call_ufunc(ufunc(id), std::span<const ElementwiseOperand>(inputs.begin(), inputs.size()), {}, options)[0];
}

TEST_F(UfuncCall, WeakScalarsTakeTheArraysDtype) {
    const std::vector<double> values = random_values(37, 1);
    const Array a = array_of(values, {37}, DType::int8);
    const Array sum = call(UfuncId::add, {a, Scalar(3)});
    EXPECT_EQ(sum.dtype(), DType::int8);
    std::vector<double> got = as_doubles(sum);
    for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(got[i], values[i] + 3) << i;

    // A Python float with integers gives float64; with float32, float32 (NEP 50).
    EXPECT_EQ(call(UfuncId::multiply, {a, Scalar(1.5)}).dtype(), DType::float64);
    const Array f = array_of(values, {37}, DType::float32);
    const Array scaled = call(UfuncId::multiply, {Scalar(0.5), f});
    EXPECT_EQ(scaled.dtype(), DType::float32);
    got = as_doubles(scaled);
    for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(got[i], values[i] * 0.5) << i;
    // A Python complex with float32 gives complex64.
    EXPECT_EQ(call(UfuncId::add, {f, Scalar(std::complex<double>(1, 2))}).dtype(), DType::complex64);
    // A Python bool stays out of the way.
    EXPECT_EQ(call(UfuncId::add, {a, Scalar(true)}).dtype(), DType::int8);
}

TEST_F(UfuncCall, TypedScalarsPromoteAsArrays) {
    const Array a = array_of(random_values(9, 2), {9}, DType::int8);
    EXPECT_EQ(call(UfuncId::add, {a, Scalar::of(std::int32_t{5})}).dtype(), DType::int32);
    EXPECT_EQ(call(UfuncId::add, {a, Scalar::of(2.0f)}).dtype(), DType::float32);
    const std::vector<double> got = as_doubles(call(UfuncId::subtract, {Scalar::of(100.0), a}));
    const std::vector<double> values = random_values(9, 2);
    for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(got[i], 100 - values[i]) << i;
}

TEST_F(UfuncCall, PythonIntsOutOfRangeRaiseOverflowErrorButCompareExactly) {
    const Array a = array_of({1, 2, 250}, {3}, DType::uint8);
    EXPECT_THROW(call(UfuncId::add, {a, Scalar(300)}), ScalarOverflowError);
    EXPECT_THROW(call(UfuncId::add, {a, Scalar(-1)}), ScalarOverflowError);
    try {
        call(UfuncId::add, {a, Scalar(300)});
    } catch (const ScalarOverflowError& error) {
        EXPECT_STREQ(error.what(), "Python integer 300 out of bounds for uint8");
    }
    EXPECT_EQ(as_doubles(call(UfuncId::less, {a, Scalar(1000)})), (std::vector<double>{1, 1, 1}));
    EXPECT_EQ(as_doubles(call(UfuncId::equal, {a, Scalar(-1)})), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(as_doubles(call(UfuncId::greater, {a, Scalar(-5)})), (std::vector<double>{1, 1, 1}));
    // Above INT64_MAX: uint64 takes it; int64 does not.
    const Array u = array_of({1, 2}, {2}, DType::uint64);
    const Array big = call(UfuncId::add, {u, Scalar::weak_unsigned(std::uint64_t{1} << 63)});
    EXPECT_EQ(big.to_vector<std::uint64_t>(), (std::vector<std::uint64_t>{(1ull << 63) + 1, (1ull << 63) + 2}));
    EXPECT_THROW(call(UfuncId::add, {u.astype(DType::int64), Scalar::weak_unsigned(std::uint64_t{1} << 63)}),
                 ScalarOverflowError);
}

TEST_F(UfuncCall, WhereKeepsTheOutputWhereFalse) {
    for (const Shape& shape : {Shape{0}, Shape{1}, Shape{31}, Shape{4097}, Shape{6, 7}}) {
        const std::int64_t n = element_count(shape);
        const std::vector<double> x = random_values(n, 3), y = random_values(n, 4), before = random_values(n, 5);
        std::vector<std::uint8_t> mask(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = (x[i] > 0) ? 1 : 0;
        const Array where =
            Array::from_host(ConstHostView(reinterpret_cast<const std::byte*>(mask.data()), DType::bool_, shape));
        for (DType dtype : {DType::int32, DType::float32}) {
            const Array out = array_of(before, shape, dtype);
            const Array* outputs[] = {&out};
            UfuncOptions options;
            options.where = &where;
            const Array a = array_of(x, shape, dtype), b = array_of(y, shape, dtype);
            const ElementwiseOperand inputs[] = {a, b};
            call_ufunc(ufunc(UfuncId::add), inputs, outputs, options);
            const std::vector<double> got = as_doubles(out);
            for (std::size_t i = 0; i < got.size(); ++i)
                EXPECT_EQ(got[i], mask[i] ? x[i] + y[i] : before[i]) << format_shape(shape) << " " << i;
        }
    }
    // A mask that broadcasts, and one that is not bool.
    const Array out = array_of({1, 2, 3, 4, 5, 6}, {2, 3}, DType::float64);
    const std::uint8_t row[] = {1, 0, 1};
    const Array where = Array::from_host(ConstHostView(reinterpret_cast<const std::byte*>(row), DType::bool_, {3}));
    const Array* outputs[] = {&out};
    UfuncOptions options;
    options.where = &where;
    const ElementwiseOperand inputs[] = {out, Scalar(10.0)};
    call_ufunc(ufunc(UfuncId::multiply), inputs, outputs, options);
    EXPECT_EQ(as_doubles(out), (std::vector<double>{10, 2, 30, 40, 5, 60}));
    const Array not_bool = array_of({1, 0, 1}, {3}, DType::int64);
    options.where = &not_bool;
    EXPECT_THROW(call_ufunc(ufunc(UfuncId::multiply), inputs, outputs, options), DTypeError);
}

TEST_F(UfuncCall, DtypeChoosesTheLoopByItsOutput) {
    const std::vector<double> values = random_values(11, 6, 100, 200);
    const Array a = array_of(values, {11}, DType::uint8);
    UfuncOptions options;
    options.dtype = DType::float32;
    const Array sum = call(UfuncId::add, {a, a}, options);
    EXPECT_EQ(sum.dtype(), DType::float32);
    std::vector<double> got = as_doubles(sum);
    for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(got[i], 2 * values[i]) << i;  // no uint8 wrap
    options.dtype = DType::int8;  // uint8 -> int8 is same_kind: allowed, as NumPy allows it
    EXPECT_EQ(call(UfuncId::add, {a, a}, options).dtype(), DType::int8);
    options.casting = Casting::safe;
    EXPECT_THROW(call(UfuncId::add, {a, a}, options), DTypeError);
}

TEST_F(UfuncCall, CastingAppliesToInputsAndOutputs) {
    const Array a = array_of({1, 2, 3}, {3}, DType::int8);
    const Array b = array_of({4, 5, 6}, {3}, DType::int16);
    UfuncOptions options;
    options.casting = Casting::no;
    EXPECT_THROW(call(UfuncId::add, {a, b}, options), DTypeError);  // int8 -> int16 is not "no"
    options.casting = Casting::safe;
    EXPECT_EQ(as_doubles(call(UfuncId::add, {a, b}, options)), (std::vector<double>{5, 7, 9}));
}

TEST_F(UfuncCall, AnOutLargerThanTheInputsBroadcastsThem) {
    const Array row = array_of({1, 2, 3}, {3}, DType::float64);
    const Array out = Array::empty({2, 3}, DType::float64);
    const Array* outputs[] = {&out};
    const ElementwiseOperand inputs[] = {row, Scalar(1.0)};
    call_ufunc(ufunc(UfuncId::add), inputs, outputs);
    EXPECT_EQ(as_doubles(out), (std::vector<double>{2, 3, 4, 2, 3, 4}));
    const Array small = Array::empty({3}, DType::float64);
    const Array* small_out[] = {&small};
    const ElementwiseOperand wide[] = {out, Scalar(1.0)};
    EXPECT_THROW(call_ufunc(ufunc(UfuncId::add), wide, small_out), InvalidArgumentError);
}

TEST_F(UfuncCall, InputsOverlappingTheOutputAreReadAsNumPyReadsThem) {
    std::vector<double> values(4099);
    std::iota(values.begin(), values.end(), 1.0);
    const Array x = array_of(values, {4099}, DType::float64);
    // x[1:] += x[:-1]: NumPy reads the inputs as they were.
    const Array head = x.index({Slice{std::nullopt, -1}});
    const Array tail = x.index({Slice{1, std::nullopt}});
    const Array* outputs[] = {&tail};
    const ElementwiseOperand inputs[] = {tail, head};
    call_ufunc(ufunc(UfuncId::add), inputs, outputs);
    const std::vector<double> got = as_doubles(x);
    EXPECT_EQ(got[0], 1);
    for (std::size_t i = 1; i < got.size(); ++i) EXPECT_EQ(got[i], values[i] + values[i - 1]) << i;
    // x[::-1] into x: a reversed copy, not a half-mirrored one.
    const Array y = array_of(values, {4099}, DType::float64);
    const Array reversed = y.index({Slice{std::nullopt, std::nullopt, -1}});
    const Array* y_out[] = {&y};
    const ElementwiseOperand r[] = {reversed};
    call_ufunc(ufunc(UfuncId::positive), r, y_out);
    const std::vector<double> mirrored = as_doubles(y);
    for (std::size_t i = 0; i < mirrored.size(); ++i) EXPECT_EQ(mirrored[i], values[values.size() - 1 - i]) << i;
}

TEST_F(UfuncCall, MixedStorageDtypesAndLayoutsInOneCall) {
    const std::vector<double> values = random_values(std::int64_t{6} * 7, 8);
    const Array a = array_of(values, {6, 7}, DType::int16);
    const Array b = array_of(values, {7, 6}, DType::float32).transpose();
    const Array zero_d = array_of({3}, {}, DType::uint8);
    const Array out = Array::empty({6, 7}, DType::float64);
    const Array* outputs[] = {&out};
    const ElementwiseOperand inputs[] = {a, b};
    call_ufunc(ufunc(UfuncId::add), inputs, outputs);
    std::vector<double> got = as_doubles(out);
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 7; ++j)
            EXPECT_EQ(got[i * 7 + j], values[i * 7 + j] + values[j * 6 + i]) << i << "," << j;
    const Array with_zero_d = call(UfuncId::multiply, {a.index({Slice{std::nullopt, std::nullopt, 2}}), zero_d});
    EXPECT_EQ(with_zero_d.dtype(), DType::int16);
    EXPECT_EQ(with_zero_d.shape(), (Shape{3, 7}));
    got = as_doubles(with_zero_d);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 7; ++j) EXPECT_EQ(got[i * 7 + j], 3 * values[2 * i * 7 + j]);
    // 0-d with 0-d, and a 0-d with a scalar.
    const Array scalar_result = call(UfuncId::add, {zero_d, Scalar(4)});
    EXPECT_EQ(scalar_result.shape(), Shape{});
    EXPECT_EQ(as_doubles(scalar_result), std::vector<double>{7});
}

TEST_F(UfuncCall, ErrorsAreNumPys) {
    const Array a = array_of({1, 2}, {2}, DType::float64);
    EXPECT_THROW(call(UfuncId::add, {Scalar(1), Scalar(2)}), InvalidArgumentError);  // no array
    const Array c = array_of({1, 2}, {2}, DType::complex64);
    EXPECT_THROW(call(UfuncId::floor_divide, {c, c}), DTypeError);  // NumPy has no complex //
    EXPECT_THROW(call(UfuncId::add, {a, array_of({1, 2, 3}, {3}, DType::float64)}), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
