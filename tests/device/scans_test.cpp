// tests/device/scans_test.cpp: the scans and differences (gpukit/scans.hpp) on every backend,
// against references computed here in double: every scan x dtype, axes None, first, last and
// middle, contiguous, transposed, strided, broadcast and reversed inputs, sizes 0, 1, 31, 1025 and
// several tiles with a tail, the simulator's chunked kernels and the GPU's kernel shapes (in check
// mode too, where the look-back between blocks must show no race), out= and dtype=, each error.
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
using ScanFunction = Array (*)(const Array&, const ScanOptions&);
using Axis = std::optional<std::int64_t>;

struct Reference {
    const char* name;
    ScanFunction function;
    double identity;
    std::function<double(double, double)> reduce;
    bool skips_nan;
    bool product;
};

const std::vector<Reference>& references() {
    static const std::vector<Reference> table = {
        {"cumsum", &cumsum, 0, std::plus<>(), false, false},
        {"cumprod", &cumprod, 1, std::multiplies<>(), false, true},
        {"nancumsum", &nancumsum, 0, std::plus<>(), true, false},
        {"nancumprod", &nancumprod, 1, std::multiplies<>(), true, true},
    };
    return table;
}

// Small integers (exact in every dtype), never all zero; not negative for unsigned dtypes. For
// products 1 and -1 with a 2 every 499 of the first 4000 elements (exact, within float16's range). With `nans`, a nan
// every 17 elements.
Values test_values(std::size_t n, unsigned seed, bool for_product, bool non_negative, bool nans) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(non_negative ? 0 : -3, 3);
    Values values(n);
    for (std::size_t k = 0; k < n; ++k) {
        const int drawn = pick(random);
        values[k] = !for_product ? drawn : k % 499 == 7 && k < 4000 ? 2 : (drawn < 0 && !non_negative ? -1 : 1);
        if (nans && k % 17 == 5) values[k] = NAN;
    }
    return values;
}

// The scan of `values` (C order in `shape`) along `axis` (none: flattened), in C order.
Values expected(const Reference& reference, const Values& values, const Shape& shape, Axis axis, bool logical) {
    const auto step = [&](double carry, double x) {
        if (logical) x = x != 0;
        if (reference.skips_nan && std::isnan(x)) return carry;
        return reference.reduce(carry, x);
    };
    Values result(values.size());
    if (!axis || shape.empty()) {
        double carry = reference.identity;
        for (std::size_t k = 0; k < values.size(); ++k) result[k] = carry = step(carry, values[k]);
        return result;
    }
    const auto along = static_cast<std::size_t>(*axis < 0 ? *axis + std::int64_t(shape.size()) : *axis);
    std::size_t inner = 1;
    for (std::size_t d = along + 1; d < shape.size(); ++d) inner *= static_cast<std::size_t>(shape[d]);
    const auto length = static_cast<std::size_t>(shape[along]);
    const std::size_t outer = length * inner == 0 ? 0 : values.size() / (length * inner);
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t i = 0; i < inner; ++i) {
            double carry = reference.identity;
            for (std::size_t j = 0; j < length; ++j) {
                const std::size_t k = (o * length + j) * inner + i;
                result[k] = carry = step(carry, values[k]);
            }
        }
    return result;
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

enum Layout { contiguous, transposed, strided, broadcast, reversed };

struct Case {
    Shape shape;
    Axis axis;
    Layout layout;
};

std::string describe(const Reference& reference, DType dtype, const Case& c) {
    return std::string(reference.name) + " " + std::string(to_string(dtype)) + " " + format_shape(c.shape) +
           " layout " + std::to_string(c.layout) + (c.axis ? " axis " + std::to_string(*c.axis) : " flat");
}

// The case's input: random values made C-contiguous in a storage array, then viewed as the case asks.
Array input_of(const Case& c, DType dtype, const Reference& reference, unsigned seed) {
    Shape storage = c.shape;
    if (c.layout == transposed) std::reverse(storage.begin(), storage.end());
    if (c.layout == strided && !storage.empty()) storage.back() *= 2;
    if (c.layout == broadcast && !storage.empty()) storage.front() = 1;
    const std::int64_t n = std::accumulate(storage.begin(), storage.end(), std::int64_t{1}, std::multiplies<>());
    const DTypeKind k = kind(dtype);
    const bool floating = k == DTypeKind::floating || k == DTypeKind::complex;
    const Values stored = test_values(static_cast<std::size_t>(n), seed, reference.product,
                                      k == DTypeKind::unsigned_integer, reference.skips_nan && floating);
    Array input = Array::from_host(std::span<const double>(stored), storage).astype(dtype);
    switch (c.layout) {
        case contiguous: break;
        case transposed: input = input.transpose(); break;
        case strided:
            if (!storage.empty()) {
                std::vector<Index> every_other(storage.size(), Slice{});
                every_other.back() = Slice{std::nullopt, std::nullopt, 2};
                input = input.index(every_other);
            }
            break;
        case broadcast: input = broadcast_to(input, c.shape); break;
        case reversed: input = flip(input); break;
    }
    return input;
}

void check_case(const Reference& reference, DType dtype, const Case& c, unsigned seed) {
    const Array input = input_of(c, dtype, reference, seed);
    ASSERT_EQ(input.shape(), c.shape);
    const Values values = input.astype(DType::float64).to_vector<double>();  // logical C order
    const std::string what = describe(reference, dtype, c);
    const Array result = reference.function(input, {.axis = c.axis});
    const Shape want_shape = c.axis && !c.shape.empty() ? c.shape : Shape{static_cast<std::int64_t>(values.size())};
    ASSERT_EQ(result.shape(), want_shape) << what;
    const Values want = expected(reference, values, c.shape, c.axis, dtype == DType::bool_);
    const Values got = result.astype(DType::float64).to_vector<double>();
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t k = 0; k < got.size(); ++k) {
        if (std::isnan(want[k])) {
            ASSERT_TRUE(std::isnan(got[k])) << what << " at " << k;
            continue;
        }
        ASSERT_NEAR(got[k], want[k], tolerance(result.dtype()) * std::max(1.0, std::abs(want[k])))
            << what << " at " << k;
    }
}

// Several tiles and a tail in every GPU tile size (1024 to 4096 elements) and past the simulator's
// tile threshold.
constexpr std::int64_t long_line = 3 * 4096 + 77;

const std::vector<Case>& cases() {
    static const std::vector<Case> table = {
        {{0}, std::nullopt, contiguous},
        {{1}, std::nullopt, contiguous},
        {{31}, std::nullopt, strided},
        {{1025}, std::nullopt, contiguous},
        {{long_line}, std::nullopt, contiguous},
        {{long_line}, std::nullopt, strided},
        {{long_line}, 0, reversed},
        {{long_line}, -1, broadcast},
        {{}, std::nullopt, contiguous},
        {{}, 0, contiguous},
        {{7, 33}, 0, contiguous},
        {{7, 33}, -1, contiguous},
        {{33, 7}, 0, transposed},
        {{33, 7}, 1, transposed},
        {{7, 33}, std::nullopt, transposed},
        {{9, 31}, 0, broadcast},
        {{9, 31}, -1, reversed},
        {{5, 1000}, -1, contiguous},
        {{6, 64}, 1, contiguous},
        {{3, 5000}, -1, contiguous},
        {{3, 5000}, 1, strided},
        {{5000, 3}, 0, contiguous},
        {{300, 40}, 0, strided},
        {{4, 5, 6}, 1, contiguous},
        {{4, 5, 6}, 1, transposed},
        {{3, 700, 5}, 1, strided},
        {{4, 5, 6}, -1, reversed},
        {{4, 5, 6}, 0, broadcast},
        {{3, 0}, 0, contiguous},
        {{0, 3}, 1, contiguous},
    };
    return table;
}

void check_every_scan(const std::vector<const Reference*>& scans, const std::vector<DType>& dtypes) {
    unsigned seed = 1;
    for (const Reference* reference : scans)
        for (const DType dtype : dtypes)
            for (const Case& c : cases()) check_case(*reference, dtype, c, ++seed);
}

std::vector<const Reference*> every_scan() {
    std::vector<const Reference*> all;
    for (const Reference& reference : references()) all.push_back(&reference);
    return all;
}

class Scans : public DeviceTest {};

TEST_F(Scans, EveryScanDtypeAxisAndLayoutMatchesAReference) {
    check_every_scan(every_scan(), {DType::bool_, DType::int8, DType::uint16, DType::int32, DType::int64, DType::uint64,
                                    DType::float16, DType::bfloat16, DType::float32, DType::float64, DType::complex64,
                                    DType::complex128});
}

// The GPU's kernel shapes (16-byte tiles linked by look-back, a warp per line, columns split over
// blocks) run on the simulator too, so that CI checks the code a GPU runs: every vector width of a
// tile (int8 16 to a load, float32 4, complex128 1) and accumulators of 8 and 16 bytes.
class ScansGpuShapes : public GpuShapesTest {};

TEST_F(ScansGpuShapes, EveryShapeMatchesAReference) {
    const std::vector<const Reference*> sums = {&references()[0]};
    check_every_scan(sums, {DType::int8, DType::int32, DType::float32, DType::complex128});
    const std::vector<const Reference*> products = {&references()[1]};
    check_every_scan(products, {DType::int32});
    const std::vector<const Reference*> nan_sums = {&references()[2]};
    check_every_scan(nan_sums, {DType::float32});
    const std::vector<const Reference*> nan_products = {&references()[3]};
    check_every_scan(nan_products, {DType::float64, DType::float16});
}

// Each GPU kernel shape once, with several blocks, so that check mode (which leaves the sweeps out)
// sees the look-back between blocks (and, on the simulator, tiles combined by a warp waiting for
// them): float32 tiles of 16-byte loads (look-back words holding their values), complex128 tiles
// one element at a time past one window of 32 tiles (values beside the words), columns split into
// segments, a warp per line.
TEST_F(ScansGpuShapes, EachShapeLooksBackAcrossBlocks) {
    const Reference& sums = references().front();
    const std::vector<std::pair<Case, DType>> shapes = {
        {{{4 * 12288 + 3}, std::nullopt, contiguous}, DType::float32},
        {{{36 * 1024 + 5}, std::nullopt, contiguous}, DType::complex128},
        {{{2000, 3}, 0, contiguous}, DType::float32},
        {{{6, 100}, 1, contiguous}, DType::int32},
    };
    unsigned seed = 100;
    for (const auto& [c, dtype] : shapes) check_case(sums, dtype, c, ++seed);
}

// Scans on a stream of their own, one after another on the same scratch (each launch's status words
// carry a new epoch; the ticket count is back at zero after each), then on the default stream.
TEST_F(Scans, RepeatedScansOnAStreamReuseTheirScratch) {
    const Reference& sums = references().front();
    const Case c{{long_line}, std::nullopt, contiguous};
    const Array input = input_of(c, DType::float32, sums, 7);
    const Values want = expected(sums, input.astype(DType::float64).to_vector<double>(), c.shape, c.axis, false);
    Stream stream;
    {
        StreamScope scope(stream);
        std::vector<Array> results;
        results.reserve(5);
        for (int k = 0; k < 5; ++k) results.push_back(cumsum(input));
        stream.synchronize();
        for (const Array& result : results) {
            const Values got = result.astype(DType::float64).to_vector<double>();
            for (std::size_t k = 0; k < got.size(); ++k) ASSERT_NEAR(got[k], want[k], 1e-4) << k;
        }
    }
    EXPECT_NEAR(cumsum(input).astype(DType::float64).to_vector<double>().back(), want.back(), 1e-4);
}

TEST_F(Scans, ResultDtypesAreNumPys) {
    const Array i8 = Array::from_host(std::span<const double>(Values{1, 2, 3}), {3}).astype(DType::int8);
    EXPECT_EQ(cumsum(i8).dtype(), DType::int64);
    EXPECT_EQ(cumprod(i8.astype(DType::uint8)).dtype(), DType::uint64);
    EXPECT_EQ(cumsum(i8.astype(DType::bool_)).dtype(), DType::int64);
    EXPECT_EQ(nancumsum(i8.astype(DType::float16)).dtype(), DType::float16);
    EXPECT_EQ(cumsum(i8.astype(DType::complex64)).dtype(), DType::complex64);
    EXPECT_EQ(cumsum(i8, {.dtype = DType::float32}).dtype(), DType::float32);
    EXPECT_EQ(cumsum(i8, {.dtype = DType::float16}).dtype(), DType::float16);
}

TEST_F(Scans, IntegerSumsWrapAndHalfFloatsAccumulateInFloat) {
    const Array big = Array::from_host(std::span<const double>(Values{9.0e18, 9.0e18}), {2}).astype(DType::int64);
    EXPECT_EQ(static_cast<std::uint64_t>(cumsum(big).to_vector<std::int64_t>()[1]),
              static_cast<std::uint64_t>(9000000000000000000) * 2);
    // 4096 + 1 + 1 + ... in float16 alone would stay 4096 (its spacing there is 4).
    Values ones(1001, 1.0);
    ones[0] = 4096;
    const Values got = cumsum(Array::from_host(std::span<const double>(ones), {1001}).astype(DType::float16))
                           .astype(DType::float64)
                           .to_vector<double>();
    EXPECT_EQ(got.back(), 5096);
}

TEST_F(Scans, NansPropagateExceptThroughTheNanScans) {
    const std::vector<std::complex<double>> values = {{1, 1}, {NAN, 1}, {2, 0}};
    const Array z = Array::from_host(std::span<const std::complex<double>>(values), {3});
    const auto products = nancumprod(z).to_vector<std::complex<double>>();
    EXPECT_EQ(products[1], std::complex<double>(1, 1));
    EXPECT_EQ(products[2], std::complex<double>(2, 2));
    const Array x = Array::from_host(std::span<const double>(Values{1, NAN, 3}), {3}).astype(DType::float32);
    EXPECT_TRUE(std::isnan(cumsum(x).astype(DType::float64).to_vector<double>()[2]));
    EXPECT_EQ(nancumsum(x).astype(DType::float64).to_vector<double>(), (Values{1, 1, 4}));
    EXPECT_EQ(nancumprod(x).astype(DType::float64).to_vector<double>(), (Values{1, 1, 3}));
}

TEST_F(Scans, OutTakesTheResultAndCastsSameKind) {
    const Array a = Array::from_host(std::span<const double>(Values{1, 2, 3, 4, 5, 6}), {2, 3}).astype(DType::int32);
    const Array out = Array::empty({2, 3}, DType::float64);
    const Array returned = cumsum(a, {.axis = 0, .out = out});
    EXPECT_EQ(returned.address(), out.address());
    EXPECT_EQ(out.to_vector<double>(), (Values{1, 2, 3, 5, 7, 9}));
    const Array same = Array::empty({6}, DType::int64);
    EXPECT_EQ(cumsum(a, {.out = same}).address(), same.address());
    EXPECT_EQ(same.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 6, 10, 15, 21}));
    // In place: the input is its own out=.
    const Array in_place = a.astype(DType::int64);
    cumsum(in_place, {.axis = 1, .out = in_place});
    EXPECT_EQ(in_place.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 6, 4, 9, 15}));
    EXPECT_THROW(cumsum(a, {.axis = 0, .out = Array::empty({3, 2}, DType::int64)}), InvalidArgumentError);
    EXPECT_THROW(cumsum(a.astype(DType::float32), {.out = Array::empty({6}, DType::int64)}), DTypeError);
}

TEST_F(Scans, BadAxesAreRefused) {
    const Array a = ones({3, 4}, DType::float32);
    EXPECT_THROW(cumsum(a, {.axis = 2}), AxisError);
    EXPECT_THROW(cumprod(a, {.axis = -3}), AxisError);
    EXPECT_THROW(cumsum(Array::empty({}, DType::float32), {.axis = 1}), AxisError);
    EXPECT_EQ(cumsum(a, {.axis = -2}).shape(), (Shape{3, 4}));
}

// Float32 cumsum of random values against float64: within NumPy's own bound for its one-by-one
// loop ((k + 1) eps sum |x| at element k), and no further from float64 than that loop is.
TEST_F(Scans, Float32SumsAreAsAccurateAsNumPysLoop) {
    const std::size_t n = std::size_t{1} << 20;
    const std::vector<float> values = random_floats(n, 7);
    const Array a = Array::from_host(std::span<const float>(values), {static_cast<std::int64_t>(n)});
    const Values got = cumsum(a).astype(DType::float64).to_vector<double>();
    double exact = 0, magnitude = 0, worst = 0, worst_loop = 0;
    float loop = 0;
    const double eps = std::ldexp(1.0, -24);
    for (std::size_t k = 0; k < n; ++k) {
        exact += values[k];
        magnitude += std::abs(values[k]);
        loop += values[k];
        const double error = std::abs(got[k] - exact);
        ASSERT_LE(error, double(k + 1) * eps * magnitude) << "at " << k;
        worst = std::max(worst, error);
        worst_loop = std::max(worst_loop, std::abs(double(loop) - exact));
    }
    EXPECT_LE(worst, worst_loop) << "one-by-one float32: " << worst_loop;
}

// On the simulator a float scan is the same on every run: each tile combines the totals of the
// tiles before it in order (a GPU's look-back takes whichever prefix is ready, so its last bits vary).
TEST_F(Scans, SimulatedFloatScansAreTheSameOnEveryRun) {
    if (!on_simulator()) GTEST_SKIP() << "a GPU's look-back combines tiles in an order timing decides";
    const std::vector<float> values = random_floats(std::size_t{1} << 20, 11);
    const Array a = Array::from_host(std::span<const float>(values), {static_cast<std::int64_t>(values.size())});
    const std::vector<float> first = cumsum(a).to_vector<float>();
    for (int run = 0; run < 3; ++run) ASSERT_EQ(cumsum(a).to_vector<float>(), first);
}

TEST_F(Scans, CumulativeFunctionsNeedAnAxisAndPutTheIdentityFirst) {
    // [[1, 2, 3], [4, 5, 6]] as int16: sums and products along each axis, with the identity first.
    const Array m = Array::from_host(std::span<const double>(Values{1, 2, 3, 4, 5, 6}), {2, 3}).astype(DType::int16);
    const Array rows = cumulative_sum(m, {.axis = 1, .include_initial = true});
    EXPECT_EQ(rows.shape(), (Shape{2, 4}));
    EXPECT_EQ(rows.dtype(), DType::int64);
    EXPECT_EQ(rows.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 3, 6, 0, 4, 9, 15}));
    const Array columns = cumulative_prod(m, {.axis = 0, .dtype = DType::float64, .include_initial = true});
    EXPECT_EQ(columns.to_vector<double>(), (Values{1, 1, 1, 1, 2, 3, 4, 10, 18}));
    EXPECT_EQ(cumulative_sum(m, {.axis = -1}).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{1, 3, 6, 4, 9, 15}));
    // Into out= (a transposed view), and a 0-d input as one element.
    const Array out = Array::empty({4, 2}, DType::float32).transpose();
    cumulative_sum(m, {.axis = 1, .out = out, .include_initial = true});
    EXPECT_EQ(out.astype(DType::float64).to_vector<double>(), (Values{0, 1, 3, 6, 0, 4, 9, 15}));
    const Array scalar = Array::from_host(std::span<const double>(Values{7}), {});
    EXPECT_EQ(cumulative_prod(scalar, {.include_initial = true}).to_vector<double>(), (Values{1, 7}));
    EXPECT_THROW(cumulative_sum(m), InvalidArgumentError);  // two dimensions name their axis
    EXPECT_THROW(cumulative_sum(m, {.axis = 2}), AxisError);
    EXPECT_THROW(cumulative_sum(m, {.axis = 0, .out = Array::empty({2, 3}, DType::int64), .include_initial = true}),
                 InvalidArgumentError);
}

TEST_F(Scans, DiffTakesNeighboursDifferencesNTimes) {
    const Array a = Array::from_host(std::span<const double>(Values{1, 4, 9, 16, 25, 36}), {2, 3}).astype(DType::int32);
    EXPECT_EQ(diff(a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 5, 9, 11}));
    EXPECT_EQ(diff(a).shape(), (Shape{2, 2}));
    EXPECT_EQ(diff(a, {.axis = 0}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{15, 21, 27}));
    EXPECT_EQ(diff(a, {.n = 2}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 2}));
    EXPECT_EQ(diff(a, {.n = 5}).shape(), (Shape{2, 0}));
    EXPECT_EQ(diff(a, {.n = 0}).address(), a.address());
    const Array seven = Array::from_host(std::span<const double>(Values{7}), {}).astype(DType::int64);
    const Array with = diff(a, {.prepend = seven, .append = a.index({Slice{}, Slice{0, 1, std::nullopt}})});
    EXPECT_EQ(with.dtype(), DType::int64);
    EXPECT_EQ(with.to_vector<std::int64_t>(), (std::vector<std::int64_t>{-6, 3, 5, -8, 9, 9, 11, -20}));
    const Array flags = Array::from_host(std::span<const double>(Values{1, 0, 0, 1}), {4}).astype(DType::bool_);
    EXPECT_EQ(diff(flags).dtype(), DType::bool_);
    EXPECT_EQ(diff(flags).astype(DType::int32).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 1}));
    EXPECT_THROW(diff(a, {.n = -1}), InvalidArgumentError);
    EXPECT_THROW(diff(seven), InvalidArgumentError);
    EXPECT_THROW(diff(a, {.axis = 2}), AxisError);
}

TEST_F(Scans, Ediff1dFlattensAndJoinsTheEnds) {
    const Array a = Array::from_host(std::span<const double>(Values{1, 2, 4, 8}), {2, 2}).astype(DType::int8);
    EXPECT_EQ(ediff1d(a).to_vector<std::int8_t>(), (std::vector<std::int8_t>{1, 2, 4}));
    const Array begin = Array::from_host(std::span<const double>(Values{-1}), {}).astype(DType::int64);
    const Array end = Array::from_host(std::span<const double>(Values{9, 9}), {2}).astype(DType::int64);
    const Array joined = ediff1d(a, end, begin);
    EXPECT_EQ(joined.dtype(), DType::int8);
    EXPECT_EQ(joined.to_vector<std::int8_t>(), (std::vector<std::int8_t>{-1, 1, 2, 4, 9, 9}));
    EXPECT_THROW(ediff1d(a, std::nullopt, begin.astype(DType::float64)), DTypeError);
    EXPECT_THROW(ediff1d(a.astype(DType::bool_)), DTypeError);
    EXPECT_EQ(ediff1d(Array::empty({0}, DType::float32)).shape(), (Shape{0}));
}

}  // namespace
}  // namespace gpukit::testing
