// python/src/polynomial.cpp: gpukit.polyval, gpukit.polyfit and the polynomial arithmetic (poly,
// polyadd, polysub, polymul, polydiv, polyder, polyint, roots; gpukit/polynomial.hpp) with NumPy's
// arguments: numbers stand for 0-d arrays, as numpy.asarray makes them; polyfit's result is NumPy's
// tuple for full= and cov=, and a rank below deg + 1 NumPy's RankWarning.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/polynomial.hpp"
#include "indexing.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// A gpukit array, or a number as the 0-d array numpy.asarray makes of it.
Array to_array_or_number(nb::handle value, std::string_view name) {
    if (is_scalar(value) && !nb::isinstance<Array>(value)) return full({}, to_scalar(value, name));
    return to_array(value, name);
}

// Coefficients: a gpukit array, a number, or a list or tuple of numbers (numpy.asarray's).
Array coefficients_of(nb::handle value, std::string_view name) {
    if (nb::isinstance<Array>(value) || is_scalar(value)) return to_array_or_number(value, name);
    return to_device_array(value, Device::current(), name, false);
}

template <class Binary>
void bind_binary(nb::module_& m, const char* name, const char* first, const char* second, Binary binary,
                 const char* doc) {
    m.def(
        name,
        [binary, first, second](nb::handle a, nb::handle b) {
            const Array left = coefficients_of(a, first), right = coefficients_of(b, second);
            GilRelease unlocked;
            return binary(left, right);
        },
        nb::arg(first), nb::arg(second), doc);
}

// cov=: False, True (scaled) or 'unscaled', as NumPy reads it (any other true value scales).
PolyfitCovariance to_covariance(nb::handle cov) {
    if (PyUnicode_Check(cov.ptr()) && to_str(cov, "cov") == "unscaled") return PolyfitCovariance::unscaled;
    const int truth = PyObject_IsTrue(cov.ptr());
    if (truth < 0) throw nb::python_error();
    return truth ? PolyfitCovariance::scaled : PolyfitCovariance::none;
}

}  // namespace

void bind_polynomial(nb::module_& m) {
    m.def(
        "polyval",
        [](nb::handle p, nb::handle x) {
            const Array coefficients = to_array_or_number(p, "p"), points = to_array_or_number(x, "x");
            GilRelease unlocked;
            return polyval(coefficients, points);
        },
        "p"_a.none(), "x"_a.none(),
        "The polynomial with coefficients p (highest power first) at x, by Horner's rule, as numpy.polyval.");
    m.def(
        "polyfit",
        [](nb::handle x, nb::handle y, nb::handle deg, nb::handle rcond, nb::handle full, nb::handle w,
           nb::handle cov) -> nb::object {
            const Array points = to_array_or_number(x, "x"), values = to_array_or_number(y, "y");
            const std::int64_t degree = to_int64(deg, "deg");
            PolyfitOptions options;
            if (!rcond.is_none()) options.rcond = nb::cast<double>(rcond);
            if (!w.is_none()) options.w = to_array_or_number(w, "w");
            const bool full_output = to_bool(full, "full");
            options.cov = full_output ? PolyfitCovariance::none : to_covariance(cov);
            std::optional<PolyfitResult> fit;
            {
                GilRelease unlocked;
                fit = polyfit(points, values, degree, options);
            }
            if (full_output)
                return nb::make_tuple(fit->coefficients, fit->residuals, fit->rank, fit->singular_values, fit->rcond);
            if (fit->rank != degree + 1) {
                const nb::object rank_warning = nb::module_::import_("numpy.exceptions").attr("RankWarning");
                if (PyErr_WarnEx(rank_warning.ptr(), "Polyfit may be poorly conditioned", 1) != 0)
                    throw nb::python_error();
            }
            if (fit->covariance) return nb::make_tuple(fit->coefficients, *fit->covariance);
            return nb::cast(fit->coefficients);
        },
        "x"_a.none(), "y"_a.none(), "deg"_a, "rcond"_a.none() = nb::none(), "full"_a = false, "w"_a.none() = nb::none(),
        "cov"_a = false,
        "The least-squares polynomial fit of degree deg (coefficients highest power first), as numpy.polyfit: "
        "with full=True also (residuals, rank, singular values, rcond); with cov, the covariance matrix.");
    m.def(
        "poly",
        [](nb::handle seq_of_zeros) -> nb::object {
            const Array zeros_of = coefficients_of(seq_of_zeros, "seq_of_zeros");
            Array coefficients = zeros_of;
            {
                GilRelease unlocked;
                coefficients = poly(zeros_of);
            }
            if (coefficients.ndim() == 0) return nb::float_(1.0);  // no roots: NumPy's Python float 1.0
            return nb::cast(std::move(coefficients));
        },
        "seq_of_zeros"_a,
        "The coefficients of the monic polynomial with these roots (or a square matrix's eigenvalues), as "
        "numpy.poly.");
    bind_binary(
        m, "polyadd", "a1", "a2", [](const Array& a, const Array& b) { return polyadd(a, b); },
        "The sum of two polynomials, as numpy.polyadd.");
    bind_binary(
        m, "polysub", "a1", "a2", [](const Array& a, const Array& b) { return polysub(a, b); },
        "The difference of two polynomials, as numpy.polysub.");
    bind_binary(
        m, "polymul", "a1", "a2", [](const Array& a, const Array& b) { return polymul(a, b); },
        "The product of two polynomials, as numpy.polymul.");
    m.def(
        "polydiv",
        [](nb::handle u, nb::handle v) {
            const Array dividend = coefficients_of(u, "u"), divisor = coefficients_of(v, "v");
            GilRelease unlocked;
            auto [quotient, remainder] = polydiv(dividend, divisor);
            return std::make_pair(std::move(quotient), std::move(remainder));
        },
        "u"_a, "v"_a, "(quotient, remainder) of the polynomial division u / v, as numpy.polydiv.");
    m.def(
        "polyder",
        [](nb::handle p, nb::handle order) {
            const Array coefficients = coefficients_of(p, "p");
            const std::int64_t times = to_int64(order, "m");
            GilRelease unlocked;
            return polyder(coefficients, times);
        },
        "p"_a, "m"_a = 1, "The m-th derivative of a polynomial, as numpy.polyder.");
    m.def(
        "polyint",
        [](nb::handle p, nb::handle order, nb::handle k) {
            const Array coefficients = coefficients_of(p, "p");
            const std::int64_t times = to_int64(order, "m");
            std::optional<Array> constants;
            if (!k.is_none()) constants = coefficients_of(k, "k");
            GilRelease unlocked;
            return polyint(coefficients, times, constants);
        },
        "p"_a, "m"_a = 1, "k"_a.none() = nb::none(),
        "The m-th antiderivative of a polynomial with integration constants k, as numpy.polyint.");
    m.def(
        "roots",
        [](nb::handle p) {
            const Array coefficients = coefficients_of(p, "p");
            GilRelease unlocked;
            return roots(coefficients);
        },
        "p"_a, "The roots of a polynomial (its companion matrix's eigenvalues), as numpy.roots.");
}

}  // namespace gpukit::python
