// python/src/fft.cpp: gpukit._core.fft, numpy.fft's functions (gpukit/fft.hpp) with NumPy 2's
// arguments: n / s (None keeps the input's length), axis / axes, norm by name or None, out=.
// python/gpukit/fft.py re-exports them as gpukit.fft.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/fft.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

std::optional<std::int64_t> length_of(nb::handle n) {
    if (n.is_none()) return std::nullopt;
    return to_int64(n, "n");
}
fft::Norm norm_of(nb::handle norm) {
    if (norm.is_none()) return fft::Norm::backward;
    if (!PyUnicode_Check(norm.ptr()))
        raise_value_error("Invalid norm value " + str_of(norm) + "; should be \"backward\",\"ortho\" or \"forward\".");
    return fft::norm_from_name(nb::cast<std::string>(norm));
}
std::optional<Array> out_of(nb::handle out) {
    if (out.is_none()) return std::nullopt;
    return to_array(out, "out");
}
// s: None or a sequence of ints and Nones.
std::optional<fft::Sizes> sizes_of(nb::handle s) {
    if (s.is_none()) return std::nullopt;
    if (PyIndex_Check(s.ptr())) return fft::Sizes{to_int64(s, "s")};
    fft::Sizes sizes;
    for (nb::handle item : s) sizes.push_back(item.is_none() ? std::nullopt : std::optional(to_int64(item, "s")));
    return sizes;
}
std::optional<fft::Axes> axes_of(nb::handle axes) {
    if (axes.is_none()) return std::nullopt;
    return to_axes(axes, "axes");
}

using OneAxis = Array (*)(const Array&, std::optional<std::int64_t>, std::int64_t, fft::Norm,
                          const std::optional<Array>&);
using ManyAxes = Array (*)(const Array&, const std::optional<fft::Sizes>&, const std::optional<fft::Axes>&, fft::Norm,
                           const std::optional<Array>&);

}  // namespace

void bind_fft(nb::module_& m) {
    nb::module_ module = m.def_submodule("fft", "Discrete Fourier transforms, as numpy.fft (gpukit/fft.hpp).");
    const struct {
        const char* name;
        OneAxis function;
        const char* doc;
    } one_axis[] = {
        {"fft", &fft::fft, "The discrete Fourier transform along one axis, as numpy.fft.fft."},
        {"ifft", &fft::ifft, "The inverse of fft, as numpy.fft.ifft."},
        {"rfft", &fft::rfft, "The transform of real input, its n // 2 + 1 non-negative frequencies (numpy.fft.rfft)."},
        {"irfft", &fft::irfft, "The inverse of rfft: n real values (default 2 (m - 1)), as numpy.fft.irfft."},
        {"hfft", &fft::hfft, "The real transform of a Hermitian-symmetric signal's first half (numpy.fft.hfft)."},
        {"ihfft", &fft::ihfft, "The inverse of hfft, as numpy.fft.ihfft."},
    };
    for (const auto& row : one_axis) {
        const OneAxis function = row.function;
        module.def(
            row.name,
            [function](nb::handle a, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out) {
                const Array& x = to_array(a, "a");
                const auto length = length_of(n);
                const std::int64_t along = to_int64(axis, "axis");
                const fft::Norm scaling = norm_of(norm);
                const auto into = out_of(out);
                GilRelease unlocked;
                return function(x, length, along, scaling, into);
            },
            "a"_a.none(), "n"_a.none() = nb::none(), "axis"_a = -1, "norm"_a.none() = nb::none(),
            "out"_a.none() = nb::none(), row.doc);
    }
    const struct {
        const char* name;
        ManyAxes function;
        bool two;
        const char* doc;
    } many_axes[] = {
        {"fftn", &fft::fftn, false, "The transform over several axes (all by default), as numpy.fft.fftn."},
        {"ifftn", &fft::ifftn, false, "The inverse of fftn, as numpy.fft.ifftn."},
        {"rfftn", &fft::rfftn, false, "The transform of real input over several axes, as numpy.fft.rfftn."},
        {"irfftn", &fft::irfftn, false, "The inverse of rfftn, as numpy.fft.irfftn."},
        {"fft2", &fft::fft2, true, "The transform over two axes (the last two by default), as numpy.fft.fft2."},
        {"ifft2", &fft::ifft2, true, "The inverse of fft2, as numpy.fft.ifft2."},
        {"rfft2", &fft::rfft2, true, "The transform of real input over two axes, as numpy.fft.rfft2."},
        {"irfft2", &fft::irfft2, true, "The inverse of rfft2, as numpy.fft.irfft2."},
    };
    for (const auto& row : many_axes) {
        const ManyAxes function = row.function;
        const auto call = [function](nb::handle a, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out) {
            const Array& x = to_array(a, "a");
            const auto sizes = sizes_of(s);
            const auto chosen = axes_of(axes);
            const fft::Norm scaling = norm_of(norm);
            const auto into = out_of(out);
            GilRelease unlocked;
            return function(x, sizes, chosen, scaling, into);
        };
        if (row.two)
            module.def(row.name, call, "a"_a.none(), "s"_a.none() = nb::none(),
                       "axes"_a.none() = nb::make_tuple(-2, -1), "norm"_a.none() = nb::none(),
                       "out"_a.none() = nb::none(), row.doc);
        else
            module.def(row.name, call, "a"_a.none(), "s"_a.none() = nb::none(), "axes"_a.none() = nb::none(),
                       "norm"_a.none() = nb::none(), "out"_a.none() = nb::none(), row.doc);
    }
    const struct {
        const char* name;
        Array (*function)(std::int64_t, double, Device);
        const char* doc;
    } frequencies[] = {
        {"fftfreq", &fft::fftfreq, "The sample frequencies of fft's outputs, as numpy.fft.fftfreq."},
        {"rfftfreq", &fft::rfftfreq, "The sample frequencies of rfft's outputs, as numpy.fft.rfftfreq."},
    };
    for (const auto& row : frequencies) {
        const auto function = row.function;
        module.def(
            row.name,
            [function](nb::handle n, nb::handle d, nb::handle device, nb::handle dtype) {
                const std::int64_t count = to_int64(n, "n");
                const double spacing = nb::cast<double>(nb::float_(d));
                const std::optional<DType> chosen = to_optional_dtype(dtype);
                if (chosen && kind(*chosen) != DTypeKind::floating)
                    raise_type_error("dtype must be a real floating dtype, not " + std::string(to_string(*chosen)));
                Array frequencies = function(count, spacing, to_device(device, "device"));
                return chosen ? frequencies.astype(*chosen) : frequencies;
            },
            "n"_a.none(), "d"_a = 1.0, "device"_a.none() = nb::none(), nb::kw_only(), "dtype"_a.none() = nb::none(),
            row.doc);
    }
    module.def(
        "fftshift",
        [](nb::handle x, nb::handle axes) {
            const Array& a = to_array(x, "x");
            const auto chosen = axes_of(axes);
            GilRelease unlocked;
            return fft::fftshift(a, chosen);
        },
        "x"_a.none(), "axes"_a.none() = nb::none(), "The zero frequency moved to the centre, as numpy.fft.fftshift.");
    module.def(
        "ifftshift",
        [](nb::handle x, nb::handle axes) {
            const Array& a = to_array(x, "x");
            const auto chosen = axes_of(axes);
            GilRelease unlocked;
            return fft::ifftshift(a, chosen);
        },
        "x"_a.none(), "axes"_a.none() = nb::none(), "The inverse of fftshift, as numpy.fft.ifftshift.");
}

}  // namespace gpukit::python
