// tests/device/random_test.cpp: gpukit::random (gpukit/random.hpp) on every backend. The raw
// Philox4x32-10 stream against the Random123 paper's known-answer vectors (checked first against a
// reference written here), the documented conversions against that reference, values that do not
// depend on the launch's grid, statistics of every distribution at fixed seeds, and NumPy's errors.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "device_test_fixture.hpp"
#include "ops/random/kernels.hpp"

namespace gpukit::testing {
namespace {

using Block = std::array<std::uint32_t, 4>;
using random::Counter;
using random::Generator;

// Philox4x32-10 as the paper defines it: ten rounds of two 32x32 -> 64-bit products, the key
// bumped by the Weyl constants between rounds.
Block reference_philox(Block c, std::array<std::uint32_t, 2> k) {
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k[0] += 0x9E3779B9u;
            k[1] += 0xBB67AE85u;
        }
        const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c[0], p1 = std::uint64_t{0xCD9E8D57u} * c[2];
        c = {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
             static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
    }
    return c;
}

// Block `j` of a generator at `offset`: counter offset + j.
Block reference_block(std::array<std::uint32_t, 2> key, Counter offset, std::uint64_t j) {
    const std::uint64_t low = offset.low + j, high = offset.high + (low < j ? 1 : 0);
    return reference_philox({static_cast<std::uint32_t>(low), static_cast<std::uint32_t>(low >> 32),
                             static_cast<std::uint32_t>(high), static_cast<std::uint32_t>(high >> 32)},
                            key);
}

struct KnownAnswer {
    Block counter;
    std::array<std::uint32_t, 2> key;
    Block expected;
};
// Random123's kat_vectors for philox4x32_10.
const KnownAnswer known_answers[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

Counter counter_of(const Block& c) { return {c[0] | (std::uint64_t{c[1]} << 32), c[2] | (std::uint64_t{c[3]} << 32)}; }

class Random : public DeviceTest {};

TEST_F(Random, PhiloxMatchesTheKnownAnswersAndTheReference) {
    for (const KnownAnswer& answer : known_answers) {
        EXPECT_EQ(reference_philox(answer.counter, answer.key), answer.expected);
        const std::vector<std::uint32_t> words =
            random::philox_blocks(answer.key, counter_of(answer.counter), 1).to_vector<std::uint32_t>();
        EXPECT_EQ(Block({words[0], words[1], words[2], words[3]}), answer.expected);
    }
    // Many blocks, across a carry out of the counter's low 64 bits.
    const Counter offset{0xfffffffffffffff0ull, 7};
    const std::array<std::uint32_t, 2> key{12345u, 678u};
    const std::vector<std::uint32_t> words = random::philox_blocks(key, offset, 1001).to_vector<std::uint32_t>();
    for (std::uint64_t j = 0; j < 1001; ++j) {
        const Block expected = reference_block(key, offset, j);
        ASSERT_EQ(Block({words[4 * j], words[4 * j + 1], words[4 * j + 2], words[4 * j + 3]}), expected) << j;
    }
}

TEST_F(Random, ConversionsAreTheDocumentedOnesAndCallsAdvanceTheCounter) {
    Generator rng(0x1234567890abcdefull);
    EXPECT_EQ(rng.key()[0], 0x90abcdefu);
    EXPECT_EQ(rng.key()[1], 0x12345678u);
    const std::int64_t n = 1003;  // odd, not a multiple of 4
    const std::vector<float> singles = rng.random({n}, DType::float32).to_vector<float>();
    EXPECT_EQ(rng.offset(), (Counter{251, 0}));
    const std::vector<double> doubles = rng.random({n}, DType::float64).to_vector<double>();
    EXPECT_EQ(rng.offset(), (Counter{251 + 502, 0}));
    const std::vector<std::uint32_t> raw =
        rng.integers(0, random::IntegerBound(1) << 32, {n}, DType::uint32).to_vector<std::uint32_t>();
    for (std::int64_t i = 0; i < n; ++i) {
        const Block b = reference_block(rng.key(), {0, 0}, static_cast<std::uint64_t>(i / 4));
        ASSERT_EQ(singles[i], static_cast<float>(b[i % 4] >> 8) * 0x1p-24f) << i;
        const Block d = reference_block(rng.key(), {251, 0}, static_cast<std::uint64_t>(i / 2));
        const std::uint64_t bits53 = (std::uint64_t{d[2 * (i % 2)] >> 5} << 26) | (d[2 * (i % 2) + 1] >> 6);
        ASSERT_EQ(doubles[i], static_cast<double>(bits53) * 0x1p-53) << i;
        ASSERT_EQ(raw[i], reference_block(rng.key(), {753, 0}, static_cast<std::uint64_t>(i / 4))[i % 4]) << i;
    }
}

// Every kernel, on grids from one thread to more threads than work: the same bits.
TEST_F(Random, ValuesDoNotDependOnTheGrid) {
    const Device device = Device::current();
    const struct {
        const char* kernel;
        DType dtype;
        std::int64_t per_thread;
    } kernels[] = {
        {"gk_random_uniform32", DType::float32, 4},     {"gk_random_uniform64", DType::float64, 2},
        {"gk_random_normal32", DType::float32, 4},      {"gk_random_normal64", DType::float64, 2},
        {"gk_random_exponential32", DType::float32, 4}, {"gk_random_exponential64", DType::float64, 2},
        {"gk_random_integers32", DType::int16, 4},      {"gk_random_integers64", DType::int64, 2},
        {"gk_random_poisson", DType::int64, 1},
    };
    const std::int64_t n = 517;
    for (const auto& row : kernels) {
        std::vector<std::vector<std::uint8_t>> results;
        for (const auto& [grid, block] : {std::pair{1u, 32u}, {3u, 64u}, {7u, 32u}, {64u, 128u}}) {
            Array out = Array::empty({n}, row.dtype);
            detail::RandomParams params;
            params.out = detail::launch_address(out);
            params.size = n;
            params.offset_low = 99;
            params.key0 = 5;
            params.key1 = 6;
            params.a = 30.5;  // poisson's lam: PTRS, with rejections
            params.b = 2;
            params.span = 1000;  // integers32: rejections (2^32 mod 1001 != 0)
            if (row.dtype == DType::int64 && row.per_thread == 2) params.span = 3ull << 40;
            params.itemsize = static_cast<std::int32_t>(itemsize(row.dtype));
            LaunchConfig config;
            config.grid = Dim3(grid);
            config.block = Dim3(block);
            detail::random_kernel(row.kernel, device)(config, params);
            results.push_back(out.view_as(DType::uint8, 0).reshape({-1}).to_vector<std::uint8_t>());
        }
        for (const auto& result : results) EXPECT_EQ(result, results[0]) << row.kernel;
    }
}

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }
double variance_of(const std::vector<double>& v) {
    const double m = mean_of(v);
    double sum = 0;
    for (const double x : v) sum += (x - m) * (x - m);
    return sum / double(v.size());
}

// Means and variances within 5 standard errors, at fixed seeds.
TEST_F(Random, MomentsOfEveryDistribution) {
    Generator rng(2024);
    const std::int64_t n = 100000;
    const double tolerance = 5.0 / std::sqrt(double(n));
    for (const DType dtype : {DType::float32, DType::float64}) {
        const auto uniform = rng.random({n}, dtype).astype(DType::float64).to_vector<double>();
        EXPECT_NEAR(mean_of(uniform), 0.5, tolerance * 0.29);
        EXPECT_NEAR(variance_of(uniform), 1.0 / 12, tolerance * 0.075);
        EXPECT_GE(*std::min_element(uniform.begin(), uniform.end()), 0.0);
        EXPECT_LT(*std::max_element(uniform.begin(), uniform.end()), 1.0);
        const auto normal = rng.normal(3.0, 2.0, {n}, dtype).astype(DType::float64).to_vector<double>();
        EXPECT_NEAR(mean_of(normal), 3.0, tolerance * 2);
        EXPECT_NEAR(variance_of(normal), 4.0, tolerance * 4 * std::sqrt(2.0));
        const auto exponential = rng.exponential(0.5, {n}, dtype).astype(DType::float64).to_vector<double>();
        EXPECT_NEAR(mean_of(exponential), 0.5, tolerance * 0.5);
        EXPECT_NEAR(variance_of(exponential), 0.25, tolerance * 0.25 * 3);
    }
    for (const double lam : {0.5, 4.0, 12.0, 1000.0}) {
        const auto counts = rng.poisson(lam, {n}).astype(DType::float64).to_vector<double>();
        EXPECT_NEAR(mean_of(counts), lam, tolerance * std::sqrt(lam)) << lam;
        EXPECT_NEAR(variance_of(counts), lam, tolerance * lam * std::sqrt(2.0 + 1.0 / lam)) << lam;
    }
    // Every value of a small range, about equally often; the extremes of int8.
    const auto dice = rng.integers(1, 6, {n}, DType::int8, true).astype(DType::float64).to_vector<double>();
    std::vector<int> seen(7);
    for (const double d : dice) ++seen.at(static_cast<std::size_t>(d));
    EXPECT_EQ(seen[0], 0);
    for (int face = 1; face <= 6; ++face) EXPECT_NEAR(seen[face], n / 6.0, 5 * std::sqrt(n / 6.0)) << face;
    const auto bytes = rng.integers(-128, 128, {n}, DType::int8).astype(DType::float64).to_vector<double>();
    EXPECT_EQ(*std::min_element(bytes.begin(), bytes.end()), -128);
    EXPECT_EQ(*std::max_element(bytes.begin(), bytes.end()), 127);
    const auto wide = rng.integers(-(random::IntegerBound(1) << 62), random::IntegerBound(1) << 62, {n}, DType::int64)
                          .astype(DType::float64)
                          .to_vector<double>();
    EXPECT_NEAR(mean_of(wide), 0.0, tolerance * 0x1p62 / std::sqrt(3.0));
}

TEST_F(Random, GammaKernelAndTheDistributionsBuiltOnIt) {
    Generator rng(99);
    const std::int64_t n = 100000;
    const double tolerance = 5.0 / std::sqrt(double(n));
    for (const double k : {0.25, 1.0, 3.5, 40.0}) {  // below 1: the boost by u^(1/k)
        const Array shape = full({}, Scalar(k));
        const auto draws = rng.standard_gamma(shape, Shape{n}).to_vector<double>();
        EXPECT_NEAR(mean_of(draws), k, tolerance * std::sqrt(k)) << k;
        EXPECT_NEAR(variance_of(draws), k, tolerance * k * 3) << k;
        EXPECT_GE(*std::min_element(draws.begin(), draws.end()), 0.0) << k;
    }
    const auto betas = rng.beta(full({}, Scalar(2.0)), full({}, Scalar(5.0)), Shape{n}).to_vector<double>();
    EXPECT_NEAR(mean_of(betas), 2.0 / 7, tolerance * 0.2);
    const auto trials = rng.geometric(full({}, Scalar(0.25)), Shape{n}).astype(DType::float64).to_vector<double>();
    EXPECT_NEAR(mean_of(trials), 4.0, tolerance * std::sqrt(12.0));
    for (const auto& [trials, chance] : {std::pair{20.0, 0.2}, std::pair{400.0, 0.7}}) {  // inversion, BTRD
        const auto successes = rng.binomial(full({}, Scalar(trials)), full({}, Scalar(chance)), Shape{n})
                                   .astype(DType::float64)
                                   .to_vector<double>();
        const double mean = trials * chance, variance = mean * (1 - chance);
        EXPECT_NEAR(mean_of(successes), mean, tolerance * std::sqrt(variance)) << trials;
        EXPECT_NEAR(variance_of(successes), variance, tolerance * variance * 2) << trials;
    }
    // Multinomial counts add up to n; a multivariate normal's components have their means.
    const std::vector<double> shares{0.2, 0.3, 0.5};
    const Array pvals = Array::from_host(std::span<const double>(shares), {3});
    const auto counts = rng.multinomial(full({}, Scalar(12.0)), pvals, Shape{1000}).to_vector<std::int64_t>();
    for (std::size_t row = 0; row < 1000; ++row)
        EXPECT_EQ(counts[3 * row] + counts[3 * row + 1] + counts[3 * row + 2], 12) << row;
    const std::vector<double> centre{1.0, -3.0}, spread{2.0, 0.5, 0.5, 1.0};
    const auto vectors = rng.multivariate_normal(Array::from_host(std::span<const double>(centre), {2}),
                                                 Array::from_host(std::span<const double>(spread), {2, 2}), Shape{n})
                             .to_vector<double>();
    double first_sum = 0, second_sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        first_sum += vectors[static_cast<std::size_t>(2 * i)];
        second_sum += vectors[static_cast<std::size_t>(2 * i + 1)];
    }
    EXPECT_NEAR(first_sum / double(n), 1.0, tolerance * std::sqrt(2.0));
    EXPECT_NEAR(second_sum / double(n), -3.0, tolerance);
    // The integer kernels with rejection or search: in range, with their means.
    const auto good =
        rng.hypergeometric(full({}, Scalar(10.0)), full({}, Scalar(20.0)), full({}, Scalar(12.0)), Shape{n})
            .astype(DType::float64)
            .to_vector<double>();
    EXPECT_NEAR(mean_of(good), 4.0, tolerance * 2);
    EXPECT_LE(*std::max_element(good.begin(), good.end()), 10.0);
    const auto series = rng.logseries(full({}, Scalar(0.6)), Shape{1000}).astype(DType::float64).to_vector<double>();
    EXPECT_GE(*std::min_element(series.begin(), series.end()), 1.0);
    const auto zeta = rng.zipf(full({}, Scalar(3.0)), Shape{1000}).astype(DType::float64).to_vector<double>();
    EXPECT_GE(*std::min_element(zeta.begin(), zeta.end()), 1.0);
    EXPECT_THROW(rng.standard_gamma(full({}, Scalar(-1.0)), Shape{1}), InvalidArgumentError);
    // Each element's own substream: a value depends on its index, not on the rest of the call.
    Generator first(7), second(7);
    const auto many = first.standard_gamma(full({}, Scalar(0.5)), Shape{1000}).to_vector<double>();
    const auto few = second.standard_gamma(full({}, Scalar(0.5)), Shape{10}).to_vector<double>();
    for (std::size_t i = 0; i < few.size(); ++i) EXPECT_EQ(many[i], few[i]) << i;
}

TEST_F(Random, VonMisesKernelOnEveryBranch) {
    Generator rng(31);
    const std::int64_t n = 50000;
    const double tolerance = 5.0 / std::sqrt(double(n));
    const double pi = 3.141592653589793;
    // Uniform below kappa = 1e-8, the Taylor envelope below 1e-5, Best and Fisher's to 1e6, the
    // wrapped normal beyond: E cos(x - mu) = I1(kappa) / I0(kappa) (1 - 1 / (2 kappa) for huge kappa),
    // E sin(x - mu) = 0, every value in [-pi, pi] however far mu lies outside.
    for (const auto& [mu, kappa] : {std::pair{1.0, 0.0}, std::pair{-2.0, 3e-6}, std::pair{0.5, 0.7},
                                    std::pair{40.0, 4.0}, std::pair{3.0, 5e5}, std::pair{-3.1, 2e6}}) {
        const auto draws = rng.vonmises(full({}, Scalar(mu)), full({}, Scalar(kappa)), Shape{n}).to_vector<double>();
        double cosines = 0, sines = 0;
        for (const double x : draws) {
            ASSERT_LE(std::fabs(x), pi) << kappa;
            cosines += std::cos(x - mu);
            sines += std::sin(x - mu);
        }
        const double resultant =
            kappa > 700 ? 1 - 1 / (2 * kappa) : std::cyl_bessel_i(1.0, kappa) / std::cyl_bessel_i(0.0, kappa);
        EXPECT_NEAR(cosines / double(n), resultant, tolerance) << kappa;
        EXPECT_NEAR(sines / double(n), 0.0, tolerance) << kappa;
    }
    // NaN kappa gives NaN, infinite kappa mu itself; broadcasting gives the parameters' shape.
    const std::vector<double> kappas{NAN, INFINITY, 2.0};
    const auto edges =
        rng.vonmises(full({}, Scalar(1.5)), Array::from_host(std::span<const double>(kappas), {3}), std::nullopt)
            .to_vector<double>();
    EXPECT_TRUE(std::isnan(edges[0]));
    EXPECT_EQ(edges[1], 1.5);
    EXPECT_LE(std::fabs(edges[2]), pi);
    // Each element's own substream: a value depends on its index, not on the rest of the call.
    Generator first(7), second(7);
    const auto many = first.vonmises(full({}, Scalar(0.0)), full({}, Scalar(1.0)), Shape{1000}).to_vector<double>();
    const auto few = second.vonmises(full({}, Scalar(0.0)), full({}, Scalar(1.0)), Shape{10}).to_vector<double>();
    for (std::size_t i = 0; i < few.size(); ++i) EXPECT_EQ(many[i], few[i]) << i;
    // NumPy's refusal of kappa < 0 (-0 included), before drawing anything.
    Generator refused(3);
    EXPECT_THROW(refused.vonmises(full({}, Scalar(0.0)), full({}, Scalar(-1.0)), Shape{3}), InvalidArgumentError);
    EXPECT_THROW(refused.vonmises(full({}, Scalar(0.0)), full({}, Scalar(-0.0)), Shape{3}), InvalidArgumentError);
    EXPECT_EQ(refused.offset(), (Counter{0, 0}));
}

TEST_F(Random, PermutationsAndChoices) {
    Generator rng(7);
    const std::vector<std::int64_t> order = rng.permutation(1000).to_vector<std::int64_t>();
    std::vector<std::int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int64_t> identity(1000);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(sorted, identity);
    EXPECT_NE(order, identity);
    const std::vector<std::int64_t> sample = rng.choice(std::int64_t{50}, {50}, false).to_vector<std::int64_t>();
    EXPECT_EQ(std::set<std::int64_t>(sample.begin(), sample.end()).size(), 50u);
    const std::vector<double> weights{0.0, 0.25, 0.0, 0.75};
    const Array p = Array::from_host(std::span<const double>(weights), {4});
    const std::vector<std::int64_t> weighted = rng.choice(std::int64_t{4}, {4000}, true, p).to_vector<std::int64_t>();
    const auto threes = std::count(weighted.begin(), weighted.end(), 3);
    EXPECT_EQ(std::count(weighted.begin(), weighted.end(), 0) + std::count(weighted.begin(), weighted.end(), 2), 0);
    EXPECT_NEAR(double(threes), 3000.0, 5 * std::sqrt(4000 * 0.75 * 0.25));
    const std::vector<std::int64_t> pair = rng.choice(std::int64_t{4}, {2}, false, p).to_vector<std::int64_t>();
    EXPECT_EQ(std::set<std::int64_t>(pair.begin(), pair.end()), (std::set<std::int64_t>{1, 3}));
}

TEST_F(Random, BadArgumentsRaiseNumPysErrors) {
    Generator rng(1);
    EXPECT_THROW(rng.random({3}, DType::int32), DTypeError);
    EXPECT_THROW(rng.integers(0, 3, {3}, DType::float64), DTypeError);
    EXPECT_THROW(rng.integers(5, 5, {3}), InvalidArgumentError);
    EXPECT_THROW(rng.integers(0, 257, {3}, DType::uint8), InvalidArgumentError);
    EXPECT_THROW(rng.integers(-1, 3, {3}, DType::uint8), InvalidArgumentError);
    EXPECT_THROW(rng.normal(0.0, -1.0, {3}), InvalidArgumentError);
    EXPECT_THROW(rng.exponential(-0.0, {3}), InvalidArgumentError);
    EXPECT_THROW(rng.poisson(-1.0, {3}), InvalidArgumentError);
    EXPECT_THROW(rng.poisson(NAN, {3}), InvalidArgumentError);
    EXPECT_THROW(rng.poisson(1e19, {3}), InvalidArgumentError);
    EXPECT_THROW(rng.choice(std::int64_t{3}, {4}, false), InvalidArgumentError);
    EXPECT_THROW(rng.permutation(Array::empty({2, 3}, DType::float32), 2), AxisError);
    // Nothing was drawn by the refused calls.
    EXPECT_EQ(rng.offset(), (Counter{0, 0}));
}

}  // namespace
}  // namespace gpukit::testing
