// python/src/elementwise_functions.cpp: NumPy's elementwise functions that are not ufuncs
// (where(condition, x, y), nan_to_num, angle), over gpukit/elementwise.hpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "errors.hpp"
#include "gpukit/elementwise.hpp"
#include "operands.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

Array where(nb::handle condition, nb::handle x, nb::handle y) {
    const Array& mask = to_array(condition, "condition");
    HeldArrays held;
    ElementwiseOperand operands[2] = {Scalar(false), Scalar(false)};
    const nb::handle values[2] = {x, y};
    for (std::size_t k = 0; k < 2; ++k)
        if (to_operand(values[k].ptr(), operands[k], held) == Operand::foreign)
            refuse_operand(values[k].ptr(), "where", k + 1);
    GilRelease unlocked;
    const auto* xs = operands[0].array();
    const auto* ys = operands[1].array();
    if (xs && ys) return gpukit::where(mask, *xs, *ys);
    if (xs) return gpukit::where(mask, *xs, *operands[1].scalar());
    if (ys) return gpukit::where(mask, *operands[0].scalar(), *ys);
    return gpukit::where(mask, *operands[0].scalar(), *operands[1].scalar());
}

nb::object nan_to_num(nb::handle x, bool copy, double nan, std::optional<double> posinf, std::optional<double> neginf) {
    const Array& array = to_array(x, "x");
    std::optional<Array> result;
    {
        GilRelease unlocked;
        result = gpukit::nan_to_num(array, nan, posinf, neginf);
        if (!copy) Array(array).assign(*result);  // a handle of x's memory: assign writes through it
    }
    if (!copy) return nb::borrow(x);
    return nb::cast(std::move(*result));
}

}  // namespace

void bind_elementwise_functions(nb::module_& m) {
    m.def("_where", &where, "condition"_a, "x"_a, "y"_a,
          nb::sig("def _where(condition: ndarray, x: object, y: object) -> ndarray"),
          "Elements of ``x`` where ``condition`` is true, else of ``y`` (gpukit.where's three-argument form).");
    m.def("nan_to_num", &nan_to_num, "x"_a, "copy"_a = true, "nan"_a = 0.0, "posinf"_a.none() = nb::none(),
          "neginf"_a.none() = nb::none(),
          nb::sig("def nan_to_num(x: ndarray, copy: bool = True, nan: float = 0.0, posinf: float | None = None, "
                  "neginf: float | None = None) -> ndarray"),
          "NaN replaced by ``nan``, infinities by ``posinf`` and ``neginf`` (default: the largest finite numbers of "
          "the dtype), in each part of complex numbers, as numpy.nan_to_num; ``copy=False`` writes into ``x``.");
    m.def(
        "angle",
        [](const Array& z, bool deg) {
            GilRelease unlocked;
            return gpukit::angle(z, deg);
        },
        "z"_a, "deg"_a = false, nb::sig("def angle(z: ndarray, deg: bool = False) -> ndarray"),
        "The argument of each complex element (radians, or degrees with ``deg``), as numpy.angle.");
}

}  // namespace gpukit::python
