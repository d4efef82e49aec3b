// tests/device/reduction_functions_test.cpp: the reductions built of several inputs or accumulators
// of their own (src/ops/reduction/functions.cpp, src/ops/linalg/, ReductionKernel) in each kernel
// shape, the simulator's and the GPU's, against references computed here in double: argmax with
// ties and nans (value-index pairs through shuffles and partials), nanargmax, var (the mean as a
// second, broadcast input), nanmean (sum-count pairs), ptp (ranges), count_nonzero, dot, and
// ReductionKernels with and without identity. Sizes take several blocks, so that under check mode
// every last-block finish is judged.
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "device_test_fixture.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/reduction_kernel.hpp"
#include "gpukit/warnings.hpp"
#include "util/text.hpp"

namespace gpukit::testing {
namespace {

using Values = std::vector<double>;
using Axes = std::vector<std::int64_t>;

// A (rows, columns) matrix reduced over axis 0 or 1, or every element (no axis): each case one shape.
struct Case {
    std::int64_t rows, columns;
    std::optional<std::int64_t> axis;
};
const Case cases[] = {
    {1, 5000, std::nullopt},  // full: several blocks
    {6, 100, 1},              // rows: 8 lanes each
    {3, 2000, 1},             // rows: a block each (split over blockIdx.y where there are few processors)
    {1024, 3, 0},             // columns, one result a lane: split over blockIdx.y
    {512, 8, 0},              // columns, 16-byte groups (one input): split over blockIdx.y
    {40, 50, 0},              // columns
};
// The cases whose kernels finish in a last block, for check mode (which leaves the sweeps out).
const Case finishing_cases[] = {cases[0], cases[2], cases[3]};

// Values with ties (small integers) and, where asked, a nan every 97 elements (never the first).
Values values_for(std::size_t n, unsigned seed, bool nans) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(-20, 20);
    Values values(n);
    for (std::size_t k = 0; k < n; ++k) values[k] = nans && k % 97 == 5 ? NAN : pick(random) / 4.0;
    return values;
}

// The reduced groups of a case: for each result, the flat indices of its elements in order.
std::vector<std::vector<std::size_t>> groups_of(const Case& c) {
    std::vector<std::vector<std::size_t>> groups;
    const auto at = [&](std::int64_t r, std::int64_t col) { return static_cast<std::size_t>(r * c.columns + col); };
    if (!c.axis) {
        groups.emplace_back();
        for (std::int64_t r = 0; r < c.rows; ++r)
            for (std::int64_t col = 0; col < c.columns; ++col) groups.back().push_back(at(r, col));
    } else if (*c.axis == 1) {
        for (std::int64_t r = 0; r < c.rows; ++r) {
            groups.emplace_back();
            for (std::int64_t col = 0; col < c.columns; ++col) groups.back().push_back(at(r, col));
        }
    } else {
        for (std::int64_t col = 0; col < c.columns; ++col) {
            groups.emplace_back();
            for (std::int64_t r = 0; r < c.rows; ++r) groups.back().push_back(at(r, col));
        }
    }
    return groups;
}

Values host_of(const Array& a) { return a.astype(DType::float64).to_vector<double>(); }

void expect_near(const Values& got, const Values& want, double tolerance, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t k = 0; k < got.size(); ++k) {
        if (std::isnan(want[k])) {
            EXPECT_TRUE(std::isnan(got[k])) << what << " at " << k;
            continue;
        }
        ASSERT_NEAR(got[k], want[k], tolerance * std::max(1.0, std::abs(want[k]))) << what << " at " << k;
    }
}

// The first index of the largest (a nan's first wins unless skipped).
double argmax_of(const Values& values, const std::vector<std::size_t>& group, bool skip_nans) {
    std::size_t best = group.size();
    for (std::size_t j = 0; j < group.size(); ++j) {
        const double v = values[group[j]];
        if (std::isnan(v)) {
            if (skip_nans) continue;
            return static_cast<double>(j);
        }
        if (best == group.size() || v > values[group[best]]) best = j;
    }
    return static_cast<double>(best);
}

void check_functions(DType dtype, std::span<const Case> which = cases) {
    unsigned seed = 10;
    for (const Case& c : which) {
        const std::string what =
            detail::concat("(", c.rows, ", ", c.columns, ") axis ", c.axis ? std::to_string(*c.axis) : "None");
        const auto n = static_cast<std::size_t>(c.rows * c.columns);
        const auto groups = groups_of(c);
        const Values plain = values_for(n, ++seed, false);
        const Values with_nans = values_for(n, ++seed, true);
        const Array x = Array::from_host(std::span<const double>(plain), {c.rows, c.columns}).astype(dtype);
        const Array y = Array::from_host(std::span<const double>(with_nans), {c.rows, c.columns}).astype(dtype);
        ReduceOptions options;
        if (c.axis) options.axis = Axes{*c.axis};
        ArgOptions arg_options;
        arg_options.axis = c.axis;

        Values argmax_want, nanargmax_want, nan_argmax_want, var_want, nanmean_want, ptp_want, count_want, abs_want;
        for (const auto& group : groups) {
            argmax_want.push_back(argmax_of(plain, group, false));
            nan_argmax_want.push_back(argmax_of(with_nans, group, false));
            nanargmax_want.push_back(argmax_of(with_nans, group, true));
            double total = 0, nan_total = 0, counted = 0, low = INFINITY, high = -INFINITY, absolute = 0;
            for (const std::size_t k : group) {
                total += plain[k];
                absolute += std::abs(plain[k]);
                low = std::min(low, plain[k]);
                high = std::max(high, plain[k]);
                if (!std::isnan(with_nans[k])) {
                    nan_total += with_nans[k];
                    ++counted;
                }
            }
            const double mean = total / static_cast<double>(group.size());
            double squares = 0;
            double nonzero = 0;
            for (const std::size_t k : group) {
                squares += (plain[k] - mean) * (plain[k] - mean);
                nonzero += plain[k] != 0 ? 1 : 0;
            }
            var_want.push_back(squares / static_cast<double>(group.size() - 1));
            nanmean_want.push_back(nan_total / counted);
            ptp_want.push_back(high - low);
            count_want.push_back(nonzero);
            abs_want.push_back(absolute);
        }
        const double tolerance = dtype == DType::float32 ? 1e-5 : 1e-12;
        expect_near(host_of(argmax(x, arg_options)), argmax_want, 0, what + " argmax");
        expect_near(host_of(argmax(y, arg_options)), nan_argmax_want, 0, what + " argmax with nans");
        expect_near(host_of(nanargmax(y, arg_options)), nanargmax_want, 0, what + " nanargmax");
        expect_near(host_of(var(x, options, 1.0)), var_want, tolerance, what + " var");
        expect_near(host_of(nanmean(y, options)), nanmean_want, tolerance, what + " nanmean");
        expect_near(host_of(ptp(x, options)), ptp_want, 0, what + " ptp");
        expect_near(host_of(count_nonzero(x, options)), count_want, 0, what + " count_nonzero");

        const ReductionKernel absolute_sum("T x", "T y", "abs(x)", "a + b", "y = a", "0", "absolute_sum");
        const ReductionKernel largest_magnitude("T x", "T y", "abs(x)", "max(a, b)", "y = a", std::nullopt,
                                                "largest_magnitude");
        ReductionCall call;
        call.axis = options.axis;
        expect_near(host_of(absolute_sum({x}, call)), abs_want, tolerance, what + " ReductionKernel");
        Values largest_want;
        for (const auto& group : groups) {
            double largest = 0;
            for (const std::size_t k : group) largest = std::max(largest, std::abs(plain[k]));
            largest_want.push_back(largest);
        }
        expect_near(host_of(largest_magnitude({x}, call)), largest_want, 0, what + " ReductionKernel without identity");
    }
}

class ReductionFunctions : public DeviceTest {};
class ReductionFunctionsGpuShapes : public GpuShapesTest {};

TEST_F(ReductionFunctions, EveryShapeMatchesAReference) {
    check_functions(DType::float32);
    check_functions(DType::float64);
}

TEST_F(ReductionFunctionsGpuShapes, EveryShapeMatchesAReference) { check_functions(DType::float32); }

// Two inputs (var's mean), value-index pairs (argmax), sum-count pairs (nanmean) and ranges (ptp)
// through every last-block finish, for check mode.
TEST_F(ReductionFunctionsGpuShapes, EachAccumulatorFinishesInItsLastBlock) {
    check_functions(DType::float32, finishing_cases);
}

TEST_F(ReductionFunctions, DotOfLongVectorsAndNorms) {
    const std::vector<float> a = random_floats(5000, 3), b = random_floats(5000, 4);
    double want = 0, squares = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        want += static_cast<double>(a[k]) * b[k];
        squares += static_cast<double>(a[k]) * a[k];
    }
    const Array x = Array::from_host(std::span<const float>(a), {5000});
    const Array y = Array::from_host(std::span<const float>(b), {5000});
    EXPECT_NEAR(host_of(dot(x, y))[0], want, 1e-4 * std::max(1.0, std::abs(want)));
    EXPECT_NEAR(host_of(linalg::norm(x))[0], std::sqrt(squares), 1e-5 * std::sqrt(squares));
    EXPECT_THROW(dot(x, y.index({Slice(0, 10)})), InvalidArgumentError);
}

TEST_F(ReductionFunctions, VecdotCrossAndTheStandardsNorms) {
    const Array a = Array::from_host(std::span<const double>(Values{1, 2, 3, 4, 5, 6}), {2, 3});
    const Array b = Array::from_host(std::span<const double>(Values{1, 0, -1}), {3});
    EXPECT_EQ(host_of(vecdot(a, b)), (Values{-2, -2}));
    EXPECT_EQ(host_of(vecdot(a, a, 0)), (Values{17, 29, 45}));
    EXPECT_THROW(vecdot(a, b.index({Slice(0, 2)})), InvalidArgumentError);
    // (1, 2, 3) x (1, 0, -1) = (-2, 4, -2); (4, 5, 6) x (1, 0, -1) = (-5, 10, -5)
    EXPECT_EQ(host_of(cross(a, b)), (Values{-2, 4, -2, -5, 10, -5}));
    EXPECT_EQ(host_of(linalg::cross(a, b)), (Values{-2, 4, -2, -5, 10, -5}));
    const Array flat = a.index({Ellipsis{}, Slice(0, 2)});  // (1, 2), (4, 5): z components only
    EXPECT_EQ(host_of(cross(flat, b.index({Slice(0, 2)}))), (Values{-2, -5}));
    EXPECT_THROW(linalg::cross(flat, flat), InvalidArgumentError);
    EXPECT_NEAR(host_of(linalg::vector_norm(a))[0], std::sqrt(91.0), 1e-12);
    EXPECT_EQ(host_of(linalg::vector_norm(a, std::vector<std::int64_t>{1}, false, 1)), (Values{6, 15}));
    EXPECT_EQ(linalg::vector_norm(a, std::nullopt, true).shape(), (Shape{1, 1}));
    EXPECT_EQ(host_of(linalg::matrix_norm(a, false, linalg::NormOrder(1.0))), (Values{9}));
    EXPECT_NEAR(host_of(linalg::matrix_norm(a))[0], std::sqrt(91.0), 1e-12);
    EXPECT_THROW(linalg::matrix_norm(b), InvalidArgumentError);
}

TEST_F(ReductionFunctions, ErrorsAreNumPys) {
    const Array a = Array::empty({3, 4}, DType::float32);
    EXPECT_THROW(argmax(Array::empty({0}, DType::float32)), InvalidArgumentError);
    EXPECT_THROW(argmax(a, {.axis = 2}), AxisError);
    EXPECT_THROW(argmax(a, {.out = Array::empty({}, DType::int32)}), DTypeError);
    EXPECT_THROW(max(a, {.where = Array::empty({3, 4}, DType::bool_)}), InvalidArgumentError);
    EXPECT_THROW(sum(a, {.where = Array::empty({3, 4}, DType::float32)}), DTypeError);
    EXPECT_THROW(ptp(Array::empty({3, 4}, DType::bool_)), DTypeError);
    EXPECT_THROW(ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0"), InvalidArgumentError);
    EXPECT_THROW(ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0"), InvalidArgumentError);
}

// NumPy's RuntimeWarnings that shapes decide: the mean of nothing, ddof >= n; none where= masks.
TEST_F(ReductionFunctions, WarningsThatShapesDecideAreNumPys) {
    std::vector<std::string> said;
    WarningHandler before = set_warning_handler([&](const Warning& w) { said.emplace_back(w.message); });
    const Array empty = Array::empty({0, 3}, DType::float32);
    const Array a = full({2, 3}, Scalar::of(1.0), DType::float32);
    EXPECT_TRUE(std::isnan(mean(empty).to_vector<float>()[0]));
    (void)mean(empty, {.axis = std::vector<std::int64_t>{1}});  // 3 elements a result: no warning
    (void)nanmean(empty, {.axis = std::vector<std::int64_t>{0}});
    (void)var(a, {.axis = std::vector<std::int64_t>{0}}, 2);
    (void)var(a, {.axis = std::vector<std::int64_t>{0}}, 1);  // one degree of freedom: no warning
    (void)nanstd(a, {}, 6);
    (void)mean(a, {.where = full({2, 3}, Scalar::of(false), DType::bool_)});  // decided by values: none
    set_warning_handler(std::move(before));
    EXPECT_EQ(said,
              (std::vector<std::string>{"Mean of empty slice", "Mean of empty slice",
                                        "Degrees of freedom <= 0 for slice", "Degrees of freedom <= 0 for slice."}));
}

}  // namespace
}  // namespace gpukit::testing
