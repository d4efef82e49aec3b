// include/gpukit/random.hpp: random numbers on the device, as NumPy's numpy.random.Generator.
//
//   gpukit::random::Generator rng(42);
//   gpukit::Array x = rng.standard_normal({1 << 20}, gpukit::DType::float32);
//   gpukit::Array k = rng.integers(0, 10, {100});
//   gpukit::Array order = rng.permutation(1000);
//
// Counter-based: Philox4x32-10 keyed by the seed (key words: the seed's low and high 32 bits),
// read at a 128-bit counter offset that each call advances by the Philox blocks it used, so that
// successive calls give fresh numbers. Every value is a function of (seed, offset, element index,
// draw number) alone: the same on a GPU and on the simulator, whatever the launch's grid. The
// conversions of words to numbers are written out at the top of kernels/gpukit_random.cuh.
// Results differ from NumPy's own generators (another bit generator, other transformations).
//
// Errors, as NumPy's: InvalidArgumentError (Python: ValueError) for a negative scale, lam < 0 or
// NaN, low >= high, a bound out of the dtype's range, a sample larger than the population without
// replacement, probabilities that are negative or do not sum to 1; DTypeError (TypeError) for a
// dtype the method has no numbers of.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "gpukit/array.hpp"

namespace gpukit::random {

// An integer bound of integers(): any int64 or uint64 value, and 2^64 (the exclusive high of
// uint64's whole range). A GNU extension, which GCC and Clang have on every 64-bit target.
__extension__ typedef __int128 IntegerBound;

// The generator's position: a 128-bit Philox counter, low and high 64 bits.
struct Counter {
    std::uint64_t low = 0, high = 0;
    bool operator==(const Counter&) const = default;
};

// numpy.random.Generator.choice's population: the integers [0, n), or an array's items along an axis.
using Population = std::variant<std::int64_t, Array>;

class Generator {
public:
    // Keyed by the seed, at counter 0.
    explicit Generator(std::uint64_t seed = 0);
    // Keyed by `key`, at `offset` (the known-answer tests start anywhere).
    Generator(std::array<std::uint32_t, 2> key, Counter offset);

    const std::array<std::uint32_t, 2>& key() const noexcept { return key_; }
    const Counter& offset() const noexcept { return offset_; }
    // Skips `blocks` Philox blocks (four words each), as numpy's Philox.advance.
    void advance(std::uint64_t blocks) noexcept;

    // [0, 1): float32 or float64 (DTypeError for any other dtype).
    Array random(const Shape& size, DType dtype = DType::float64);
    void random(const Array& out);  // into `out`: C-contiguous float32 or float64, its size numbers
    // Uniform integers in [low, high) ([low, high] with endpoint) of any integer dtype or bool,
    // unbiased. InvalidArgumentError for low >= high (low > high with endpoint) or a bound outside
    // the dtype's range.
    Array integers(IntegerBound low, IntegerBound high, const Shape& size, DType dtype = DType::int64,
                   bool endpoint = false);
    // Array bounds (any integer or bool dtypes), broadcast with each other and `size` (nullopt: their
    // broadcast shape): each element uniform in its own [low, high). The checks read the bounds'
    // extremes back (wait for the device), as NumPy's messages need.
    Array integers(const Array& low, const Array& high, const std::optional<Shape>& size, DType dtype = DType::int64,
                   bool endpoint = false);
    // Standard normal numbers: float32 or float64.
    Array standard_normal(const Shape& size, DType dtype = DType::float64);
    void standard_normal(const Array& out);
    // loc + scale * z. InvalidArgumentError for scale < 0.
    Array normal(double loc, double scale, const Shape& size, DType dtype = DType::float64);
    // Array loc and scale, broadcast with each other and `size` (nullopt: their broadcast shape);
    // float64, or float32 where asked. Checking scale >= 0 reads it back (waits for the device).
    Array normal(const Array& loc, const Array& scale, const std::optional<Shape>& size, DType dtype = DType::float64);
    // low + (high - low) * u, u in [0, 1).
    Array uniform(double low, double high, const Shape& size, DType dtype = DType::float64);
    Array uniform(const Array& low, const Array& high, const std::optional<Shape>& size, DType dtype = DType::float64);
    // scale * -log(u), u in (0, 1]. InvalidArgumentError for scale < 0.
    Array exponential(double scale, const Shape& size, DType dtype = DType::float64);
    Array exponential(const Array& scale, const std::optional<Shape>& size, DType dtype = DType::float64);
    // int64 Poisson counts of mean lam. InvalidArgumentError for lam < 0, NaN or above ~9.2e18.
    Array poisson(double lam, const Shape& size);
    // An array lam (any real dtype), broadcast with `size` (nullopt: lam's shape); checking it reads
    // it back.
    Array poisson(const Array& lam, const std::optional<Shape>& size);

    // The distributions below take their parameters as arrays (a number: a 0-d array), any real
    // dtype, broadcast with each other and `size` (nullopt: their broadcast shape); checking them
    // reads them back (waits for the device). Float64 results unless a dtype is asked.
    // Standard gamma numbers of shape k (a kernel: Marsaglia and Tsang, kernels/gpukit_random.cuh).
    // InvalidArgumentError for k < 0.
    Array standard_gamma(const Array& shape, const std::optional<Shape>& size, DType dtype = DType::float64);
    // scale * standard_gamma(shape). InvalidArgumentError for shape < 0 or scale < 0.
    Array gamma(const Array& shape, const Array& scale, const std::optional<Shape>& size, DType dtype = DType::float64);
    // X / (X + Y), X and Y standard gammas of shapes a and b (a, b > 0).
    Array beta(const Array& a, const Array& b, const std::optional<Shape>& size);
    // 2 standard_gamma(df / 2) (df > 0).
    Array chisquare(const Array& df, const std::optional<Shape>& size);
    // (chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden).
    Array f(const Array& dfnum, const Array& dfden, const std::optional<Shape>& size);
    // z / sqrt(chisquare(df) / df), z standard normal.
    Array standard_t(const Array& df, const std::optional<Shape>& size);
    // exp(normal(mean, sigma)) (sigma >= 0).
    Array lognormal(const Array& mean, const Array& sigma, const std::optional<Shape>& size);
    // loc +- scale e, e a unit exponential, the sign fair (scale >= 0).
    Array laplace(const Array& loc, const Array& scale, const std::optional<Shape>& size);
    // loc + scale log(e1 / e2), e1 and e2 unit exponentials (scale >= 0).
    Array logistic(const Array& loc, const Array& scale, const std::optional<Shape>& size);
    // loc - scale log(e), e a unit exponential (scale >= 0).
    Array gumbel(const Array& loc, const Array& scale, const std::optional<Shape>& size);
    // e^(1/a) (a >= 0; 0 for a = 0).
    Array weibull(const Array& a, const std::optional<Shape>& size);
    // Pareto II (Lomax), NumPy's: exp(e / a) - 1 (a > 0).
    Array pareto(const Array& a, const std::optional<Shape>& size);
    // u^(1/a), u uniform in (0, 1] (a > 0).
    Array power(const Array& a, const std::optional<Shape>& size);
    // scale sqrt(2 e) (scale >= 0).
    Array rayleigh(const Array& scale, const std::optional<Shape>& size);
    // The ratio of two standard normals.
    Array standard_cauchy(const Shape& size);
    // int64 trials to the first success of chance p (0 < p <= 1).
    Array geometric(const Array& p, const std::optional<Shape>& size);
    // int64 failures before the n-th success of chance p: Poisson counts of gamma(n, (1 - p) / p)
    // means (n > 0, 0 < p <= 1).
    Array negative_binomial(const Array& n, const Array& p, const std::optional<Shape>& size);
    // int64 successes in n trials of chance p (n >= 0, taken as int64; 0 <= p <= 1): a kernel,
    // inversion for n min(p, 1 - p) < 10, else Hoermann's BTRD (kernels/gpukit_random.cuh).
    Array binomial(const Array& n, const Array& p, const std::optional<Shape>& size);
    // The inverse Gaussian of mean and scale (both > 0): Michael, Schucany and Haas's transformation
    // of a normal, with a uniform choosing between its two roots.
    Array wald(const Array& mean, const Array& scale, const std::optional<Shape>& size);
    // The triangular distribution on [left, right] peaking at mode (left <= mode <= right, left <
    // right), by its inverse distribution function.
    Array triangular(const Array& left, const Array& mode, const Array& right, const std::optional<Shape>& size);
    // Noncentral chi-square (df > 0, nonc >= 0), NumPy's construction: chisquare(df - 1) plus a
    // squared normal of mean sqrt(nonc) for df > 1, chisquare(df + 2 poisson(nonc / 2)) otherwise.
    Array noncentral_chisquare(const Array& df, const Array& nonc, const std::optional<Shape>& size);
    // (noncentral_chisquare(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden).
    Array noncentral_f(const Array& dfnum, const Array& dfden, const Array& nonc, const std::optional<Shape>& size);
    // int64 counts of n trials over the categories of pvals (its last axis; the last category takes
    // what the others leave), as conditional binomials in order; shape size (or n's and pvals'
    // other axes broadcast) + (k,). InvalidArgumentError for n < 0, a p outside [0, 1] or NaN, or
    // the first k - 1 summing past 1.
    Array multinomial(const Array& n, const Array& pvals, const std::optional<Shape>& size);
    // How multivariate_normal factors the covariance, and what it does when the covariance is not
    // positive semidefinite (NumPy's check_valid: warn, raise or ignore).
    enum class Factorization : std::uint8_t { svd, eigh, cholesky };
    enum class CovarianceCheck : std::uint8_t { warn, raise, ignore };
    // mean + z factor^T, z standard normal of shape size + (k,), factor u sqrt(s) (svd, eigh) or the
    // Cholesky factor. A covariance not positive semidefinite within tol: a RuntimeWarning, or
    // InvalidArgumentError under raise.
    Array multivariate_normal(const Array& mean, const Array& cov, const std::optional<Shape>& size,
                              Factorization method = Factorization::svd,
                              CovarianceCheck check_valid = CovarianceCheck::warn, double tol = 1e-8);
    // int64 draws of the logarithmic series of p (0 <= p < 1): Kemp's method, a kernel.
    Array logseries(const Array& p, const std::optional<Shape>& size);
    // int64 Zipf (zeta) draws of exponent a > 1, by NumPy's rejection: a kernel.
    Array zipf(const Array& a, const std::optional<Shape>& size);
    // int64 good items among nsample drawn without replacement from ngood good and nbad bad ones
    // (counts taken as int64, each below 10^9, nsample <= ngood + nbad): a kernel's chop-down search
    // from the mode.
    Array hypergeometric(const Array& ngood, const Array& nbad, const Array& nsample, const std::optional<Shape>& size);
    // float64 angles of the von Mises distribution of mode mu and concentration kappa >= 0, in
    // [-pi, pi] (NumPy's wrapped normal above kappa = 1e6 wraps once, so a mu far outside stays
    // outside): a kernel, NumPy's branches around Best and Fisher's rejection.
    Array vonmises(const Array& mu, const Array& kappa, const std::optional<Shape>& size);
    // size + (k,) points of the simplex: standard gammas of the 1-D alpha's k shapes (alpha > 0),
    // each divided by their sum.
    Array dirichlet(const Array& alpha, const std::optional<Shape>& size);

    // A random sample of the population (items of `a` along `axis`: a.shape[:axis] + size +
    // a.shape[axis + 1:]; an int or 0-d array n: the integers [0, n)). With p
    // (float64-convertible, 1-D, the population's length: reads it back to check it), items are
    // drawn with those probabilities. Without replacement: no item twice (InvalidArgumentError for
    // a sample larger than the population, or than p's nonzero entries). `shuffle` is accepted for
    // NumPy's sake: samples without replacement always come in random order.
    Array choice(const Population& a, const Shape& size, bool replace = true, const std::optional<Array>& p = {},
                 std::int64_t axis = 0, bool shuffle = true);
    // A random permutation of [0, n) (int64), or a shuffled copy of `x` along `axis`.
    Array permutation(std::int64_t n);
    Array permutation(const Array& x, std::int64_t axis = 0);
    // Shuffles `x` along `axis` in place.
    void shuffle(const Array& x, std::int64_t axis = 0);

private:
    // The offset for a call that uses `blocks` blocks; advances past them.
    Counter claim(std::uint64_t blocks) noexcept;
    // Fills the contiguous float32 or float64 `out` with the kernel gk_random_<distribution>32 or 64
    // (four or two values a block), its parameters a and b, affine: a + b * value.
    void draw_floats(const Array& out, std::string_view distribution, double a = 0, double b = 0, bool affine = false);

    std::array<std::uint32_t, 2> key_{};
    Counter offset_{};
};

// The bits of `blocks` Philox4x32-10 blocks at counters offset, offset + 1, ... (uint32, four words
// a block): the raw stream, for known-answer tests.
Array philox_blocks(std::array<std::uint32_t, 2> key, Counter offset, std::int64_t blocks);

}  // namespace gpukit::random
