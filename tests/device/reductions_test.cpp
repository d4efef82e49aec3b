// tests/device/reductions_test.cpp: the built-in reductions (gpukit/reductions.hpp) on every
// backend, against references computed here in double: every dtype, axes None, one, negative,
// several, keepdims, contiguous, transposed and strided inputs, sizes 0, 1, odd and past a block,
// out= and dtype=, the simulator's chunked kernels and the GPU's kernel shapes, and each error.
#include <cmath>
#include <complex>
#include <functional>
#include <numeric>
#include <random>

#include "device_test_fixture.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::testing {
namespace {

using Values = std::vector<double>;
using ReduceFunction = Array (*)(const Array&, const ReduceOptions&);

// Small integers (exact in every dtype), some zeros, never all zero; not negative for unsigned
// dtypes. For products, 1 and -1 with a 2 every 499 elements: products of thousands stay exact
// and within float16's range.
Values test_values(std::size_t n, unsigned seed, bool for_product, bool non_negative = false) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(non_negative ? 0 : -3, 3);
    Values values(n);
    for (std::size_t k = 0; k < n; ++k) {
        const int drawn = pick(random);
        values[k] = !for_product ? drawn : k % 499 == 7 ? 2 : (drawn < 0 ? -1 : 1);
    }
    return values;
}

Array array_of(const Values& values, const Shape& shape, DType dtype) {
    return Array::from_host(std::span<const double>(values), shape).astype(dtype);
}

// What a reduction does to doubles, with NumPy's nan and ordering rules for the values used here.
struct Reference {
    const char* name;
    ReduceFunction function;
    double identity;
    std::function<double(double, double)> reduce;
    bool mean = false;
    bool logical = false;
    bool has_identity = true;
};

const std::vector<Reference>& references() {
    static const std::vector<Reference> table = {
        {"sum", &sum, 0, std::plus<>()},
        {"prod", &prod, 1, std::multiplies<>()},
        {"max", &max, -INFINITY, [](double a, double b) { return std::max(a, b); }, false, false, false},
        {"min", &min, INFINITY, [](double a, double b) { return std::min(a, b); }, false, false, false},
        {"any", &any, 0, [](double a, double b) { return double(a != 0 || b != 0); }, false, true},
        {"all", &gpukit::all, 1, [](double a, double b) { return double(a != 0 && b != 0); }, false, true},
        {"mean", &mean, 0, std::plus<>(), true},
    };
    return table;
}

// The reduction of `values` (C order in `shape`) over `axes` (empty: all), in result order.
Values expected(const Reference& reference, const Values& values, const Shape& shape,
                const std::vector<bool>& reduced) {
    Shape kept;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (!reduced[d]) kept.push_back(shape[d]);
    const auto count =
        static_cast<std::size_t>(std::accumulate(kept.begin(), kept.end(), std::int64_t{1}, std::multiplies<>()));
    Values result(count, reference.identity);
    std::vector<std::int64_t> counted(count, 0);
    for (std::size_t flat = 0; flat < values.size(); ++flat) {
        std::size_t rest = flat, index = 0, stride = 1;
        for (std::size_t d = shape.size(); d-- > 0;) {
            const auto coordinate = static_cast<std::size_t>(rest % shape[d]);
            rest /= static_cast<std::size_t>(shape[d]);
            if (reduced[d]) continue;
            index += coordinate * stride;
            stride *= static_cast<std::size_t>(shape[d]);
        }
        const double value = reference.logical ? double(values[flat] != 0) : values[flat];
        result[index] = reference.reduce(result[index], value);
        ++counted[index];
    }
    if (reference.mean)
        for (std::size_t k = 0; k < count; ++k) result[k] /= static_cast<double>(counted[k]);
    return result;
}

std::vector<bool> reduced_of(const std::optional<std::vector<std::int64_t>>& axis, std::size_t ndim) {
    std::vector<bool> reduced(ndim, !axis);
    if (axis)
        for (std::int64_t a : *axis) reduced[static_cast<std::size_t>(a < 0 ? a + std::int64_t(ndim) : a)] = true;
    return reduced;
}

double tolerance(DType dtype) {
    switch (dtype) {
        case DType::float16: return 2e-3;
        case DType::bfloat16: return 1e-2;
        case DType::float32:
        case DType::complex64: return 1e-6;
        default: return 1e-12;
    }
}

struct Case {
    Shape shape;
    std::optional<std::vector<std::int64_t>> axis;
    int layout;  // 0 contiguous, 1 transposed, 2 every other element of the last axis
};

void check_case(const Reference& reference, DType dtype, const Case& c, bool keepdims, unsigned seed) {
    // The input: made C-contiguous in `storage`, then viewed as the case asks.
    Shape storage = c.shape;
    if (c.layout == 1) std::reverse(storage.begin(), storage.end());
    if (c.layout == 2 && !storage.empty()) storage.back() *= 2;
    const std::int64_t n = std::accumulate(storage.begin(), storage.end(), std::int64_t{1}, std::multiplies<>());
    const Values stored = test_values(static_cast<std::size_t>(n), seed, reference.function == &prod,
                                      kind(dtype) == DTypeKind::unsigned_integer);
    Array input = array_of(stored, storage, dtype);
    if (c.layout == 1) input = input.transpose();
    if (c.layout == 2 && !storage.empty()) {
        std::vector<Index> every_other(storage.size(), Slice{});
        every_other.back() = Slice{std::nullopt, std::nullopt, 2};
        input = input.index(every_other);
    }
    const Values values = input.astype(DType::float64).to_vector<double>();  // logical C order
    ASSERT_EQ(input.shape(), c.shape);
    const std::vector<bool> reduced = reduced_of(c.axis, c.shape.size());
    const std::string what = std::string(reference.name) + " " + std::string(to_string(dtype)) + " " +
                             format_shape(c.shape) + " layout " + std::to_string(c.layout) +
                             (c.axis ? " axis " + std::to_string(c.axis->size()) + " axes" : " all") +
                             (keepdims ? " keepdims" : "");
    std::int64_t reduced_count = 1;
    for (std::size_t d = 0; d < c.shape.size(); ++d)
        if (reduced[d]) reduced_count *= c.shape[d];
    const ReduceOptions options{.axis = c.axis, .keepdims = keepdims};
    if (!reference.has_identity && reduced_count == 0 && values.empty() == false) {
        EXPECT_THROW(reference.function(input, options), InvalidArgumentError) << what;
        return;
    }
    if (!reference.has_identity && reduced_count == 0) {
        bool any_result = true;
        for (std::size_t d = 0; d < c.shape.size(); ++d)
            if (!reduced[d] && c.shape[d] == 0) any_result = false;
        if (any_result) {
            EXPECT_THROW(reference.function(input, options), InvalidArgumentError) << what;
            return;
        }
    }
    const Array result = reference.function(input, options);
    Shape result_shape;
    for (std::size_t d = 0; d < c.shape.size(); ++d)
        if (!reduced[d])
            result_shape.push_back(c.shape[d]);
        else if (keepdims)
            result_shape.push_back(1);
    ASSERT_EQ(result.shape(), result_shape) << what;
    const Values want = expected(reference, values, c.shape, reduced);
    const Values got = result.astype(DType::float64).to_vector<double>();
    ASSERT_EQ(got.size(), want.size()) << what;
    const DType result_dtype = result.dtype();
    for (std::size_t k = 0; k < got.size(); ++k) {
        if (std::isnan(want[k])) {
            ASSERT_TRUE(std::isnan(got[k])) << what << " at " << k;
            continue;
        }
        ASSERT_NEAR(got[k], want[k], tolerance(result_dtype) * std::max(1.0, std::abs(want[k]))) << what << " at " << k;
    }
}

const std::vector<Case>& cases() {
    using Axes = std::vector<std::int64_t>;
    static const std::vector<Case> table = {
        {{0}, std::nullopt, 0},    {{1}, std::nullopt, 0},     {{31}, std::nullopt, 0}, {{4099}, std::nullopt, 0},
        {{4099}, std::nullopt, 2}, {{7, 33}, Axes{1}, 0},      {{7, 33}, Axes{0}, 0},   {{7, 33}, Axes{-1}, 1},
        {{33, 7}, Axes{0}, 1},     {{4, 5, 6}, Axes{0, 2}, 0}, {{4, 5, 6}, Axes{1}, 0}, {{4, 5, 6}, Axes{-2, -1}, 2},
        {{3, 0}, Axes{1}, 0},      {{0, 3}, Axes{1}, 0},       {{2, 1500}, Axes{1}, 0}, {{1500, 3}, Axes{0}, 0},
        {{4, 5, 6}, Axes{}, 0},    {{}, std::nullopt, 0},      {{1024, 8}, Axes{0}, 0}, {{64, 256}, Axes{0}, 0},
    };
    return table;
}

void check_every_reduction(const std::vector<DType>& dtypes) {
    unsigned seed = 1;
    for (const Reference& reference : references())
        for (const DType dtype : dtypes)
            for (const Case& c : cases())
                for (const bool keepdims : {false, true}) check_case(reference, dtype, c, keepdims, ++seed);
}

class Reductions : public DeviceTest {};

TEST_F(Reductions, EveryReductionDtypeAxisAndLayoutMatchesAReference) {
    check_every_reduction({DType::bool_, DType::int8, DType::uint16, DType::int32, DType::int64, DType::uint64,
                           DType::float16, DType::bfloat16, DType::float32, DType::float64});
}

// The GPU's kernel shapes (vector loads, a warp or a block per row, split columns) run on the
// simulator too, so that CI checks the code a GPU runs.
class ReductionsGpuShapes : public GpuShapesTest {};

TEST_F(ReductionsGpuShapes, EveryShapeMatchesAReference) { check_every_reduction({DType::int32, DType::float32}); }

// Each GPU kernel shape once, at sizes that take several blocks, so that check mode (which leaves
// the sweeps out) sees every last-block finish: a full sum of 16 blocks, rows a warp, four warps
// (many long rows) and a block each, few long rows split over blockIdx.y, columns split over
// blockIdx.y.
TEST_F(ReductionsGpuShapes, EachShapeFinishesInItsLastBlock) {
    const Reference& total = references().front();
    const std::vector<Case> shapes = {
        {{16384}, std::nullopt, 0},
        {{16384}, std::nullopt, 2},
        {{6, 100}, std::vector<std::int64_t>{1}, 0},
        {{5, 300}, std::vector<std::int64_t>{1}, 0},
        {{3, 2000}, std::vector<std::int64_t>{1}, 0},
        {{40, 4100}, std::vector<std::int64_t>{1}, 0},
        {{2, 40000}, std::vector<std::int64_t>{1}, 0},
        {{3, 20001}, std::vector<std::int64_t>{-1}, 0},
        {{1024, 3}, std::vector<std::int64_t>{0}, 0},
        {{1024, 8}, std::vector<std::int64_t>{0}, 0},
    };
    unsigned seed = 100;
    for (const Case& c : shapes) check_case(total, DType::float32, c, false, ++seed);
}

TEST_F(Reductions, ResultDtypesAreNumPys) {
    const Array i8 = array_of(test_values(10, 3, false), {10}, DType::int8);
    EXPECT_EQ(sum(i8).dtype(), DType::int64);
    EXPECT_EQ(sum(i8.astype(DType::uint8)).dtype(), DType::uint64);
    EXPECT_EQ(sum(i8.astype(DType::bool_)).dtype(), DType::int64);
    EXPECT_EQ(sum(i8.astype(DType::float16)).dtype(), DType::float16);
    EXPECT_EQ(mean(i8).dtype(), DType::float64);
    EXPECT_EQ(mean(i8.astype(DType::float32)).dtype(), DType::float32);
    EXPECT_EQ(max(i8).dtype(), DType::int8);
    EXPECT_EQ(any(i8).dtype(), DType::bool_);
    EXPECT_EQ(sum(i8, {.dtype = DType::float32}).dtype(), DType::float32);
    EXPECT_THROW(max(i8, {.dtype = DType::float32}), DTypeError);
}

TEST_F(Reductions, IntegerSumsWrapAsNumPys) {
    const Values big(3, 9.0e18);
    const Array a = Array::from_host(std::span<const double>(big), {3}).astype(DType::int64);
    const std::int64_t got = sum(a).to_vector<std::int64_t>()[0];
    EXPECT_EQ(static_cast<std::uint64_t>(got), static_cast<std::uint64_t>(9000000000000000000) * 3);
}

TEST_F(Reductions, NansPropagateThroughMaxMinAndSum) {
    const Values with_nan = {1, NAN, 3};
    const Array a = Array::from_host(std::span<const double>(with_nan), {3}).astype(DType::float32);
    EXPECT_TRUE(std::isnan(max(a).astype(DType::float64).to_vector<double>()[0]));
    EXPECT_TRUE(std::isnan(min(a).astype(DType::float64).to_vector<double>()[0]));
    EXPECT_TRUE(std::isnan(sum(a).astype(DType::float64).to_vector<double>()[0]));
    EXPECT_TRUE(std::isnan(mean(Array::empty({0}, DType::float32)).astype(DType::float64).to_vector<double>()[0]));
}

TEST_F(Reductions, ComplexSumsAndMaxima) {
    const std::vector<std::complex<double>> values = {{1, 2}, {3, -1}, {3, 4}, {-2, 0}};
    const Array a = Array::from_host(std::span<const std::complex<double>>(values), {4});
    const auto total = sum(a).to_vector<std::complex<double>>()[0];
    EXPECT_EQ(total, std::complex<double>(5, 5));
    EXPECT_EQ(max(a).to_vector<std::complex<double>>()[0], std::complex<double>(3, 4));
    EXPECT_EQ(min(a).to_vector<std::complex<double>>()[0], std::complex<double>(-2, 0));
    EXPECT_EQ(mean(a).to_vector<std::complex<double>>()[0], std::complex<double>(1.25, 1.25));
}

TEST_F(Reductions, OutTakesTheResultAndCastsSameKind) {
    const Array a = array_of(test_values(30, 4, false), {6, 5}, DType::int32);
    const Array out = Array::empty({5}, DType::float64);
    const Array returned = sum(a, {.axis = std::vector<std::int64_t>{0}, .out = out});
    EXPECT_EQ(returned.address(), out.address());
    const Values values = a.astype(DType::float64).to_vector<double>();
    const Values got = out.to_vector<double>();
    for (std::size_t column = 0; column < 5; ++column) {
        double total = 0;
        for (std::size_t row = 0; row < 6; ++row) total += values[row * 5 + column];
        EXPECT_EQ(got[column], total);
    }
    EXPECT_THROW(sum(a, {.axis = std::vector<std::int64_t>{0}, .out = Array::empty({6}, DType::int64)}),
                 InvalidArgumentError);
    EXPECT_THROW(sum(a.astype(DType::float32), {.out = Array::empty({}, DType::int64)}), DTypeError);
}

TEST_F(Reductions, BadAxesAndEmptyMaximaAreRefused) {
    const Array a = Array::empty({3, 4}, DType::float32);
    EXPECT_THROW(sum(a, {.axis = std::vector<std::int64_t>{2}}), AxisError);
    EXPECT_THROW(sum(a, {.axis = std::vector<std::int64_t>{1, -1}}), InvalidArgumentError);
    EXPECT_THROW(max(Array::empty({0}, DType::float32)), InvalidArgumentError);
    EXPECT_EQ(max(Array::empty({0, 3}, DType::float32), {.axis = std::vector<std::int64_t>{1}}).shape(), (Shape{0}));
    EXPECT_EQ(sum(Array::empty({0}, DType::int32)).to_vector<std::int64_t>()[0], 0);
}

// A float32 sum of 2^24 random values against float64: within (c + log2 n) eps sum|x|.
TEST_F(Reductions, Float32SumsStayWithinTheTreeBound) {
    const std::size_t n = std::size_t{1} << 22;
    const std::vector<float> values = random_floats(n, 5);
    const Array a = Array::from_host(std::span<const float>(values), {static_cast<std::int64_t>(n)});
    double exact = 0, magnitude = 0;
    for (float v : values) {
        exact += v;
        magnitude += std::abs(v);
    }
    const double got = sum(a).astype(DType::float64).to_vector<double>()[0];
    const double bound = (128 + 32) * std::ldexp(1.0, -24) * magnitude;
    EXPECT_LE(std::abs(got - exact), bound) << "got " << got << ", float64 " << exact;
}

}  // namespace
}  // namespace gpukit::testing
