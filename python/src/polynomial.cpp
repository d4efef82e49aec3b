// python/src/polynomial.cpp: gpukit.polyval and gpukit.polyfit (gpukit/polynomial.hpp) with NumPy's
// arguments: numbers stand for 0-d arrays, as numpy.asarray makes them; polyfit's result is NumPy's
// tuple for full= and cov=, and a rank below deg + 1 NumPy's RankWarning.
#include <nanobind/stl/optional.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/polynomial.hpp"
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
}

}  // namespace gpukit::python
