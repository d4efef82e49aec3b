// python/src/random.cpp: gpukit._core.random, the Generator of gpukit/random.hpp with NumPy's
// arguments (size as an int, a tuple or None; dtype; out=; parameters as numbers or gpukit
// arrays). gpukit/random.py builds default_rng and the legacy functions on it. Arguments in, the
// core's arrays out.
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <limits>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/random.hpp"
#include "indexing.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

using random::Generator;
using random::IntegerBound;

// size=: None (nullopt), an int or a tuple of ints.
std::optional<Shape> to_size(nb::handle size) {
    if (size.is_none()) return std::nullopt;
    return to_axes(size, "size");
}

DType to_float_dtype(nb::handle dtype) { return to_optional_dtype(dtype).value_or(DType::float64); }

// A Python integer (or anything with __index__) as a bound; beyond 128 bits it saturates, which the
// range checks then refuse in NumPy's words.
IntegerBound to_bound(nb::handle value, const char* name) {
    if (PyFloat_Check(value.ptr()))
        raise_type_error(std::string(name) + " must be an integer, not " + describe_value(value));
    const nb::object integer = nb::steal(PyNumber_Index(value.ptr()));
    if (!integer.is_valid()) throw nb::python_error();
    const nb::int_ limit(std::int64_t{1} << 62);
    const nb::object high_word = integer >> nb::int_(64);
    if (high_word > limit) return IntegerBound(1) << 126;
    if (high_word < -limit) return -(IntegerBound(1) << 126);
    const auto high = nb::cast<std::int64_t>(high_word);
    const auto low = nb::cast<std::uint64_t>(integer & nb::int_(~std::uint64_t{0}));
    return (IntegerBound(high) << 64) | IntegerBound(low);
}

// A real number: a Python or NumPy number (TypeError for anything else, complex included).
double to_double(nb::handle value, const char* name) {
    if (PyComplex_Check(value.ptr()) || !PyNumber_Check(value.ptr()) || PyUnicode_Check(value.ptr()))
        raise_type_error(std::string(name) + " must be a real number or a gpukit array, not " + describe_value(value));
    const double number = PyFloat_AsDouble(value.ptr());
    if (number == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return number;
}

bool any_array(std::initializer_list<nb::handle> values) {
    for (const nb::handle value : values)
        if (nb::isinstance<Array>(value)) return true;
    return false;
}

// A parameter of a draw with array parameters: a gpukit array, or a number as a 0-d float64 array.
Array parameter_array(nb::handle value, const char* name) {
    if (nb::isinstance<Array>(value)) return to_array(value, name);
    return full({}, Scalar(to_double(value, name)));
}

// A bound of integers with array bounds: a gpukit array, or a Python integer as a 0-d int64 array
// (uint64 past int64's range).
Array bound_array(nb::handle value, const char* name) {
    if (nb::isinstance<Array>(value)) return to_array(value, name);
    const IntegerBound bound = to_bound(value, name);
    if (bound >= std::numeric_limits<std::int64_t>::min() && bound <= std::numeric_limits<std::int64_t>::max())
        return full({}, Scalar(static_cast<std::int64_t>(bound)));
    if (bound >= 0 && bound <= std::numeric_limits<std::uint64_t>::max())
        return full({}, Scalar::weak_unsigned(static_cast<std::uint64_t>(bound)), DType::uint64);
    throw InvalidArgumentError(std::string(name) + " is out of bounds for uint64 (with an array bound)");
}

// The shape of a draw with number parameters: size, or () for None.
Shape shape_of(const std::optional<Shape>& size) { return size.value_or(Shape{}); }

// out= of random and standard_normal: size and dtype, where given, must agree with it.
const Array& checked_out(nb::handle out, const std::optional<Shape>& size, nb::handle dtype) {
    const Array& array = to_array(out, "out");
    if (size && *size != array.shape()) raise_value_error("size must match out.shape when used together");
    if (const auto wanted = to_optional_dtype(dtype); wanted && *wanted != array.dtype())
        raise_type_error("dtype must match out.dtype when used together");
    return array;
}

// A parameter that may be a sequence (multinomial's pvals, multivariate_normal's mean and cov): a
// gpukit array, a number, or host data (a list, a NumPy array) copied to the current device.
Array sequence_parameter(nb::handle value, const char* name) {
    return to_device_array(value, Device::current(), name, false);
}

// The distributions whose parameters are arrays (numbers as 0-d arrays), by the Generator method.
using OneParameter = Array (Generator::*)(const Array&, const std::optional<Shape>&);
using TwoParameters = Array (Generator::*)(const Array&, const Array&, const std::optional<Shape>&);
using ThreeParameters = Array (Generator::*)(const Array&, const Array&, const Array&, const std::optional<Shape>&);

Array draw(Generator& self, OneParameter method, nb::handle a, const char* a_name, nb::handle size) {
    const Array first = parameter_array(a, a_name);
    const std::optional<Shape> shape = to_size(size);
    GilRelease unlocked;
    return (self.*method)(first, shape);
}

Array draw(Generator& self, TwoParameters method, nb::handle a, const char* a_name, nb::handle b, const char* b_name,
           nb::handle size) {
    const Array first = parameter_array(a, a_name), second = parameter_array(b, b_name);
    const std::optional<Shape> shape = to_size(size);
    GilRelease unlocked;
    return (self.*method)(first, second, shape);
}

// Binds Generator.<name>(a=..., size=None) and Generator.<name>(a=..., b=..., size=None).
void bind_distribution(nb::class_<Generator>& generator, const char* name, OneParameter method, const char* a_name,
                       nb::handle a_default, const char* doc) {
    generator.def(
        name,
        [method, a_name](Generator& self, nb::handle a, nb::handle size) {
            return draw(self, method, a, a_name, size);
        },
        nb::arg(a_name).none() = a_default, "size"_a.none() = nb::none(), doc);
}

void bind_distribution(nb::class_<Generator>& generator, const char* name, TwoParameters method, const char* a_name,
                       nb::handle a_default, const char* b_name, nb::handle b_default, const char* doc) {
    generator.def(
        name,
        [method, a_name, b_name](Generator& self, nb::handle a, nb::handle b, nb::handle size) {
            return draw(self, method, a, a_name, b, b_name, size);
        },
        nb::arg(a_name).none() = a_default, nb::arg(b_name).none() = b_default, "size"_a.none() = nb::none(), doc);
}

void bind_distribution(nb::class_<Generator>& generator, const char* name, ThreeParameters method,
                       std::array<const char*, 3> names, const char* doc) {
    generator.def(
        name,
        [method, names](Generator& self, nb::handle a, nb::handle b, nb::handle c, nb::handle size) {
            const Array first = parameter_array(a, names[0]), second = parameter_array(b, names[1]);
            const Array third = parameter_array(c, names[2]);
            const std::optional<Shape> shape = to_size(size);
            GilRelease unlocked;
            return (self.*method)(first, second, third, shape);
        },
        nb::arg(names[0]).none(), nb::arg(names[1]).none(), nb::arg(names[2]).none(), "size"_a.none() = nb::none(),
        doc);
}

// The distributions of gpukit/random.hpp built on the standard gamma, the normal and the uniform.
void bind_distributions(nb::class_<Generator>& generator) {
    const nb::object required = nb::none(), zero = nb::float_(0.0), one = nb::float_(1.0);
    generator.def(
        "standard_gamma",
        [](Generator& self, nb::handle shape, nb::handle size, nb::handle dtype) {
            const Array k = parameter_array(shape, "shape");
            const std::optional<Shape> drawn = to_size(size);
            const DType type = to_float_dtype(dtype);
            GilRelease unlocked;
            return self.standard_gamma(k, drawn, type);
        },
        "shape"_a.none(), "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
        "Standard gamma numbers of shape k (Marsaglia and Tsang), as numpy.random.Generator.standard_gamma.");
    generator.def(
        "gamma",
        [](Generator& self, nb::handle shape, nb::handle scale, nb::handle size) {
            const Array k = parameter_array(shape, "shape"), theta = parameter_array(scale, "scale");
            const std::optional<Shape> drawn = to_size(size);
            GilRelease unlocked;
            return self.gamma(k, theta, drawn);
        },
        "shape"_a.none(), "scale"_a.none() = 1.0, "size"_a.none() = nb::none(),
        "scale * standard_gamma(shape), as numpy.random.Generator.gamma.");
    bind_distribution(generator, "beta", &Generator::beta, "a", required, "b", required,
                      "X / (X + Y) of standard gammas of shapes a and b, as numpy.random.Generator.beta.");
    bind_distribution(generator, "chisquare", &Generator::chisquare, "df", required,
                      "Chi-square numbers of df degrees of freedom, as numpy.random.Generator.chisquare.");
    bind_distribution(generator, "f", &Generator::f, "dfnum", required, "dfden", required,
                      "F numbers (ratios of scaled chi-squares), as numpy.random.Generator.f.");
    bind_distribution(generator, "standard_t", &Generator::standard_t, "df", required,
                      "Student's t numbers of df degrees of freedom, as numpy.random.Generator.standard_t.");
    bind_distribution(generator, "lognormal", &Generator::lognormal, "mean", zero, "sigma", one,
                      "exp of normal(mean, sigma) numbers, as numpy.random.Generator.lognormal.");
    bind_distribution(generator, "laplace", &Generator::laplace, "loc", zero, "scale", one,
                      "Laplace (double exponential) numbers, as numpy.random.Generator.laplace.");
    bind_distribution(generator, "logistic", &Generator::logistic, "loc", zero, "scale", one,
                      "Logistic numbers, as numpy.random.Generator.logistic.");
    bind_distribution(generator, "gumbel", &Generator::gumbel, "loc", zero, "scale", one,
                      "Gumbel numbers, as numpy.random.Generator.gumbel.");
    bind_distribution(generator, "weibull", &Generator::weibull, "a", required,
                      "Weibull numbers of shape a, as numpy.random.Generator.weibull.");
    bind_distribution(generator, "pareto", &Generator::pareto, "a", required,
                      "Pareto II (Lomax) numbers of shape a, as numpy.random.Generator.pareto.");
    bind_distribution(generator, "power", &Generator::power, "a", required,
                      "Numbers in [0, 1] of density a x^(a - 1), as numpy.random.Generator.power.");
    bind_distribution(generator, "rayleigh", &Generator::rayleigh, "scale", one,
                      "Rayleigh numbers, as numpy.random.Generator.rayleigh.");
    bind_distribution(generator, "geometric", &Generator::geometric, "p", required,
                      "int64 trials to the first success of chance p, as numpy.random.Generator.geometric.");
    bind_distribution(generator, "negative_binomial", &Generator::negative_binomial, "n", required, "p", required,
                      "int64 failures before the n-th success of chance p, as "
                      "numpy.random.Generator.negative_binomial.");
    bind_distribution(generator, "wald", &Generator::wald, "mean", required, "scale", required,
                      "Inverse Gaussian numbers, as numpy.random.Generator.wald.");
    bind_distribution(generator, "noncentral_chisquare", &Generator::noncentral_chisquare, "df", required, "nonc",
                      required, "Noncentral chi-square numbers, as numpy.random.Generator.noncentral_chisquare.");
    bind_distribution(generator, "triangular", &Generator::triangular, {"left", "mode", "right"},
                      "Triangular numbers on [left, right] peaking at mode, as numpy.random.Generator.triangular.");
    bind_distribution(generator, "noncentral_f", &Generator::noncentral_f, {"dfnum", "dfden", "nonc"},
                      "Noncentral F numbers, as numpy.random.Generator.noncentral_f.");
    generator.def(
        "multinomial",
        [](Generator& self, nb::handle n, nb::handle pvals, nb::handle size) {
            const Array trials = parameter_array(n, "n"), chances = sequence_parameter(pvals, "pvals");
            const std::optional<Shape> drawn = to_size(size);
            GilRelease unlocked;
            return self.multinomial(trials, chances, drawn);
        },
        "n"_a.none(), "pvals"_a.none(), "size"_a.none() = nb::none(),
        "int64 counts of n trials over the categories of pvals (the last takes the rest), as "
        "numpy.random.Generator.multinomial.");
    generator.def(
        "multivariate_normal",
        [](Generator& self, nb::handle mean, nb::handle cov, nb::handle size, nb::handle check_valid, nb::handle tol,
           nb::handle method) {
            const Array mu = sequence_parameter(mean, "mean"), covariance = sequence_parameter(cov, "cov");
            const std::optional<Shape> drawn = to_size(size);
            const std::string check = to_str(check_valid, "check_valid"), factor = to_str(method, "method");
            Generator::CovarianceCheck checking = Generator::CovarianceCheck::warn;
            if (check == "raise")
                checking = Generator::CovarianceCheck::raise;
            else if (check == "ignore")
                checking = Generator::CovarianceCheck::ignore;
            else if (check != "warn")
                raise_value_error("check_valid must equal 'warn', 'raise', or 'ignore'");
            Generator::Factorization factorization = Generator::Factorization::svd;
            if (factor == "eigh")
                factorization = Generator::Factorization::eigh;
            else if (factor == "cholesky")
                factorization = Generator::Factorization::cholesky;
            else if (factor != "svd")
                raise_value_error("method must be one of {'eigh', 'svd', 'cholesky'}");
            const double tolerance = to_double(tol, "tol");
            GilRelease unlocked;
            return self.multivariate_normal(mu, covariance, drawn, factorization, checking, tolerance);
        },
        "mean"_a.none(), "cov"_a.none(), "size"_a.none() = nb::none(), "check_valid"_a.none() = "warn",
        "tol"_a.none() = 1e-8, nb::kw_only(), "method"_a.none() = "svd",
        "Normal vectors of mean and covariance cov (factored by svd, eigh or cholesky), as "
        "numpy.random.Generator.multivariate_normal.");
    bind_distribution(generator, "logseries", &Generator::logseries, "p", required,
                      "int64 draws of the logarithmic series of p, as numpy.random.Generator.logseries.");
    bind_distribution(generator, "zipf", &Generator::zipf, "a", required,
                      "int64 Zipf draws of exponent a, as numpy.random.Generator.zipf.");
    bind_distribution(generator, "hypergeometric", &Generator::hypergeometric, {"ngood", "nbad", "nsample"},
                      "int64 good items among nsample drawn without replacement, as "
                      "numpy.random.Generator.hypergeometric.");
    bind_distribution(generator, "binomial", &Generator::binomial, "n", required, "p", required,
                      "int64 successes in n trials of chance p, as numpy.random.Generator.binomial.");
    bind_distribution(generator, "vonmises", &Generator::vonmises, "mu", required, "kappa", required,
                      "Angles of the von Mises distribution of mode mu and concentration kappa, as "
                      "numpy.random.Generator.vonmises.");
    bind_distribution(generator, "dirichlet", &Generator::dirichlet, "alpha", required,
                      "size + (k,) points of the simplex drawn with the k weights alpha, as "
                      "numpy.random.Generator.dirichlet.");
    generator.def(
        "standard_cauchy",
        [](Generator& self, nb::handle size) {
            const Shape shape = shape_of(to_size(size));
            GilRelease unlocked;
            return self.standard_cauchy(shape);
        },
        "size"_a.none() = nb::none(), "Standard Cauchy numbers, as numpy.random.Generator.standard_cauchy.");
    generator.def(
        "standard_exponential",
        [](Generator& self, nb::handle size, nb::handle dtype) {
            const Shape shape = shape_of(to_size(size));
            const DType type = to_float_dtype(dtype);
            GilRelease unlocked;
            return self.exponential(1.0, shape, type);
        },
        "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
        "Unit exponential numbers, as numpy.random.Generator.standard_exponential.");
}

}  // namespace

void bind_random(nb::module_& m) {
    nb::module_ random = m.def_submodule("random", "Random numbers on the device (gpukit/random.hpp).");
    nb::class_<random::Counter>(random, "Counter", "A 128-bit Philox counter: low and high 64 bits.")
        .def_ro("low", &random::Counter::low)
        .def_ro("high", &random::Counter::high);
    nb::class_<Generator> generator(random, "Generator",
                                    "Random numbers as numpy.random.Generator's, from Philox4x32-10 keyed by the seed: "
                                    "the same bits on a GPU and on the simulator.");
    generator.def(nb::init<std::uint64_t>(), "seed"_a, "A generator keyed by seed (0 <= seed < 2**64), at counter 0.")
        .def(nb::init<std::array<std::uint32_t, 2>, random::Counter>(), "key"_a, "offset"_a)
        .def_prop_ro("key", &Generator::key, "The Philox key: the seed's low and high 32 bits.")
        .def_prop_ro("offset", &Generator::offset, "The counter of the next call's first block.")
        .def("advance", &Generator::advance, "blocks"_a, "Skips blocks Philox blocks (four words each).")
        .def(
            "random",
            [](Generator& self, nb::handle size, nb::handle dtype, nb::handle out) -> Array {
                const std::optional<Shape> shape = to_size(size);
                if (!out.is_none()) {
                    const Array& into = checked_out(out, shape, dtype);
                    GilRelease unlocked;
                    self.random(into);
                    return into;
                }
                const DType type = to_float_dtype(dtype);
                GilRelease unlocked;
                return self.random(shape_of(shape), type);
            },
            "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
            "Floats in [0, 1), as numpy.random.Generator.random (float32 or float64).")
        .def(
            "standard_normal",
            [](Generator& self, nb::handle size, nb::handle dtype, nb::handle out) -> Array {
                const std::optional<Shape> shape = to_size(size);
                if (!out.is_none()) {
                    const Array& into = checked_out(out, shape, dtype);
                    GilRelease unlocked;
                    self.standard_normal(into);
                    return into;
                }
                const DType type = to_float_dtype(dtype);
                GilRelease unlocked;
                return self.standard_normal(shape_of(shape), type);
            },
            "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
            "Standard normal numbers, as numpy.random.Generator.standard_normal.")
        .def(
            "integers",
            [](Generator& self, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype,
               nb::handle endpoint) {
                const DType type = to_optional_dtype(dtype).value_or(DType::int64);
                const bool inclusive = to_bool(endpoint, "endpoint");
                if (any_array({low, high})) {
                    const Array from = high.is_none() ? full({}, Scalar(std::int64_t{0})) : bound_array(low, "low");
                    const Array to = bound_array(high.is_none() ? low : high, "high");
                    const std::optional<Shape> shape = to_size(size);
                    GilRelease unlocked;
                    return self.integers(from, to, shape, type, inclusive);
                }
                IntegerBound from = 0, to = 0;
                if (high.is_none()) {
                    to = to_bound(low, "low");
                } else {
                    from = to_bound(low, "low");
                    to = to_bound(high, "high");
                }
                const Shape shape = shape_of(to_size(size));
                GilRelease unlocked;
                return self.integers(from, to, shape, type, inclusive);
            },
            "low"_a, "high"_a.none() = nb::none(), "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
            "endpoint"_a = false,
            "Integers in [low, high) ([0, low) without high; [low, high] with endpoint), as "
            "numpy.random.Generator.integers: any integer dtype or bool; low and high may be gpukit arrays.")
        .def(
            "normal",
            [](Generator& self, nb::handle loc, nb::handle scale, nb::handle size, nb::handle dtype) {
                const std::optional<Shape> shape = to_size(size);
                const DType type = to_float_dtype(dtype);
                if (any_array({loc, scale})) {
                    const Array mean = parameter_array(loc, "loc"), deviation = parameter_array(scale, "scale");
                    GilRelease unlocked;
                    return self.normal(mean, deviation, shape, type);
                }
                const double mean = to_double(loc, "loc"), deviation = to_double(scale, "scale");
                GilRelease unlocked;
                return self.normal(mean, deviation, shape_of(shape), type);
            },
            "loc"_a.none() = 0.0, "scale"_a.none() = 1.0, "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
            "loc + scale * z, as numpy.random.Generator.normal (loc and scale may be gpukit arrays).")
        .def(
            "uniform",
            [](Generator& self, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype) {
                const std::optional<Shape> shape = to_size(size);
                const DType type = to_float_dtype(dtype);
                if (any_array({low, high})) {
                    const Array from = parameter_array(low, "low"), to = parameter_array(high, "high");
                    GilRelease unlocked;
                    return self.uniform(from, to, shape, type);
                }
                const double from = to_double(low, "low"), to = to_double(high, "high");
                GilRelease unlocked;
                return self.uniform(from, to, shape_of(shape), type);
            },
            "low"_a.none() = 0.0, "high"_a.none() = 1.0, "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
            "low + (high - low) * u, u in [0, 1), as numpy.random.Generator.uniform.")
        .def(
            "exponential",
            [](Generator& self, nb::handle scale, nb::handle size, nb::handle dtype) {
                const std::optional<Shape> shape = to_size(size);
                const DType type = to_float_dtype(dtype);
                if (any_array({scale})) {
                    const Array beta = parameter_array(scale, "scale");
                    GilRelease unlocked;
                    return self.exponential(beta, shape, type);
                }
                const double beta = to_double(scale, "scale");
                GilRelease unlocked;
                return self.exponential(beta, shape_of(shape), type);
            },
            "scale"_a.none() = 1.0, "size"_a.none() = nb::none(), "dtype"_a.none() = nb::none(),
            "Exponential numbers of mean scale, as numpy.random.Generator.exponential.")
        .def(
            "poisson",
            [](Generator& self, nb::handle lam, nb::handle size) -> Array {
                if (any_array({lam})) {
                    const Array means = to_array(lam, "lam");
                    const std::optional<Shape> shape = to_size(size);
                    GilRelease unlocked;
                    return self.poisson(means, shape);
                }
                const double mean = to_double(lam, "lam");
                const Shape shape = shape_of(to_size(size));
                GilRelease unlocked;
                return self.poisson(mean, shape);
            },
            "lam"_a.none() = 1.0, "size"_a.none() = nb::none(),
            "int64 Poisson counts of mean lam (a number or a gpukit array), as numpy.random.Generator.poisson.")
        .def(
            "choice",
            [](Generator& self, nb::handle a, nb::handle size, nb::handle replace, nb::handle p, nb::handle axis,
               nb::handle shuffle) {
                random::Population population = std::int64_t{0};
                if (nb::isinstance<Array>(a))
                    population = to_array(a, "a");
                else
                    population = to_int64(a, "a");
                const Shape shape = shape_of(to_size(size));
                const bool with_replacement = to_bool(replace, "replace"), shuffled = to_bool(shuffle, "shuffle");
                std::optional<Array> probabilities;
                if (!p.is_none()) probabilities = to_array(p, "p");
                const std::int64_t along = to_int64(axis, "axis");
                GilRelease unlocked;
                return self.choice(population, shape, with_replacement, probabilities, along, shuffled);
            },
            "a"_a, "size"_a.none() = nb::none(), "replace"_a = true, "p"_a.none() = nb::none(), "axis"_a = 0,
            "shuffle"_a = true, "A random sample of a (an int n: of range(n)), as numpy.random.Generator.choice.")
        .def(
            "permutation",
            [](Generator& self, nb::handle x, nb::handle axis) {
                if (!nb::isinstance<Array>(x)) {
                    const std::int64_t n = to_int64(x, "x");
                    GilRelease unlocked;
                    return self.permutation(n);
                }
                const Array& array = to_array(x, "x");
                const std::int64_t along = to_int64(axis, "axis");
                GilRelease unlocked;
                return self.permutation(array, along);
            },
            "x"_a, "axis"_a = 0,
            "A permutation of range(x), or a shuffled copy of x along axis, as numpy.random.Generator.permutation.")
        .def(
            "shuffle",
            [](Generator& self, nb::handle x, nb::handle axis) {
                const Array& array = to_array(x, "x");
                const std::int64_t along = to_int64(axis, "axis");
                GilRelease unlocked;
                self.shuffle(array, along);
            },
            "x"_a, "axis"_a = 0, "Shuffles x along axis in place, as numpy.random.Generator.shuffle.");
    bind_distributions(generator);
}

}  // namespace gpukit::python
