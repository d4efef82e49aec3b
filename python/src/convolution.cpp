// python/src/convolution.cpp: numpy.convolve/correlate, scipy.signal's convolve, correlate,
// convolve2d and correlate2d (gpukit/convolution.hpp) and scipy.ndimage's filters
// (gpukit/filters.hpp) with NumPy's and SciPy's arguments: modes by name, one value or a sequence
// per axis, `output` a dtype or an array written into. gpukit.signal and gpukit.ndimage
// (python/gpukit/) take SciPy's argument order over these.
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/convolution.hpp"
#include "gpukit/filters.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

bool is_sequence(nb::handle value) { return nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value); }

ConvolveMode mode_of(nb::handle value) { return convolve_mode_from_name(to_str(value, "mode")); }

// SciPy's method flags.
signal::ConvolveMethod method_of(nb::handle value) {
    const std::string name = to_str(value, "method");
    if (name == "fft") return signal::ConvolveMethod::fft;
    if (name == "direct") return signal::ConvolveMethod::direct;
    if (name == "auto") return signal::ConvolveMethod::automatic;
    raise_value_error("Acceptable method flags are 'auto', 'direct', or 'fft'. (got '" + name + "')");
}

// One value for all axes or one per axis.
std::vector<std::int64_t> int64s_of(nb::handle value, std::string_view name) {
    std::vector<std::int64_t> values;
    if (value.is_none()) return values;
    if (!is_sequence(value)) return {to_int64(value, name)};
    for (nb::handle item : value) values.push_back(to_int64(item, name));
    return values;
}
std::vector<double> doubles_of(nb::handle value) {
    std::vector<double> values;
    if (!is_sequence(value)) return {nb::cast<double>(nb::float_(value))};
    for (nb::handle item : value) values.push_back(nb::cast<double>(nb::float_(item)));
    return values;
}
std::vector<ndimage::BoundaryMode> modes_of(nb::handle value) {
    if (!is_sequence(value)) return {ndimage::boundary_mode_from_name(to_str(value, "mode"))};
    std::vector<ndimage::BoundaryMode> modes;
    for (nb::handle item : value) modes.push_back(ndimage::boundary_mode_from_name(to_str(item, "mode")));
    return modes;
}
std::complex<double> complex_of(nb::handle value) {
    return nb::cast<std::complex<double>>(nb::module_::import_("builtins").attr("complex")(value));
}

// SciPy's `output`: None, a dtype, or an array the result is written into (and returned).
struct Output {
    std::optional<DType> dtype;
    std::optional<Array> array;
};
Output output_of(nb::handle value) {
    if (nb::isinstance<Array>(value)) {
        const Array& array = to_array(value, "output");
        return {array.dtype(), array};
    }
    return {to_optional_dtype(value), std::nullopt};
}
Array written(Array result, const Output& output) {
    if (!output.array) return result;
    Array into = *output.array;  // a view of the same memory
    if (into.shape() != result.shape()) throw InvalidArgumentError("output shape not correct");
    into.assign(result);
    return into;
}

ndimage::FilterOptions filter_options(nb::handle mode, nb::handle cval, nb::handle origin, const Output& output) {
    ndimage::FilterOptions options;
    options.mode = modes_of(mode);
    options.cval = complex_of(cval);
    options.origin = int64s_of(origin, "origin");
    options.output = output.dtype;
    return options;
}

void bind_signal(nb::module_& m) {
    nb::module_ signal = m.def_submodule("signal", "Convolution and correlation, as scipy.signal.");
    for (const bool convolution : {true, false}) {
        signal.def(
            convolution ? "convolve" : "correlate",
            [convolution](nb::handle in1, nb::handle in2, nb::handle mode, nb::handle method) {
                const Array& a = to_array(in1, "in1");
                const Array& b = to_array(in2, "in2");
                const ConvolveMode m = mode_of(mode);
                const signal::ConvolveMethod how = method_of(method);
                GilRelease unlocked;
                return convolution ? signal::convolve(a, b, m, how) : signal::correlate(a, b, m, how);
            },
            "in1"_a, "in2"_a, "mode"_a = "full", "method"_a = "direct",
            convolution ? "scipy.signal.convolve: direct sums or (method='fft') fftconvolve."
                        : "scipy.signal.correlate: direct sums or (method='fft') fftconvolve.");
        signal.def(
            convolution ? "convolve2d" : "correlate2d",
            [convolution](nb::handle in1, nb::handle in2, nb::handle mode, nb::handle boundary, nb::handle fillvalue) {
                const Array& a = to_array(in1, "in1");
                const Array& b = to_array(in2, "in2");
                const signal::Convolve2dOptions options{
                    mode_of(mode), signal::boundary_from_name(to_str(boundary, "boundary")), complex_of(fillvalue)};
                GilRelease unlocked;
                return convolution ? signal::convolve2d(a, b, options) : signal::correlate2d(a, b, options);
            },
            "in1"_a, "in2"_a, "mode"_a = "full", "boundary"_a = "fill", "fillvalue"_a = 0,
            convolution ? "scipy.signal.convolve2d." : "scipy.signal.correlate2d.");
    }
    signal.def(
        "fftconvolve",
        [](nb::handle in1, nb::handle in2, nb::handle mode, nb::handle axes) {
            const Array& a = to_array(in1, "in1");
            const Array& b = to_array(in2, "in2");
            const ConvolveMode m = mode_of(mode);
            std::optional<std::vector<std::int64_t>> along;
            if (!axes.is_none()) along = to_axes(axes, "axes");
            GilRelease unlocked;
            return signal::fftconvolve(a, b, m, along);
        },
        "in1"_a, "in2"_a, "mode"_a = "full", "axes"_a.none() = nb::none(),
        "scipy.signal.fftconvolve: the product of the operands' spectra along `axes` (all by default).");
    signal.def(
        "choose_conv_method",
        [](nb::handle in1, nb::handle in2, nb::handle mode) {
            const Array& a = to_array(in1, "in1");
            const Array& b = to_array(in2, "in2");
            return signal::choose_conv_method(a, b, mode_of(mode)) == signal::ConvolveMethod::fft ? "fft" : "direct";
        },
        "in1"_a, "in2"_a, "mode"_a = "full",
        "scipy.signal.choose_conv_method: 'direct' or 'fft', by a model of both methods' times measured on a GPU "
        "('direct' for integer and bool operands, whose sums it keeps exact).");
}

void bind_ndimage(nb::module_& m) {
    nb::module_ ndimage = m.def_submodule("ndimage", "Correlation filters, as scipy.ndimage.");
    for (const bool convolution : {true, false}) {
        ndimage.def(
            convolution ? "convolve" : "correlate",
            [convolution](nb::handle input, nb::handle weights, nb::handle output, nb::handle mode, nb::handle cval,
                          nb::handle origin) {
                const Array& x = to_array(input, "input");
                const Array& w = to_array(weights, "weights");
                const Output out = output_of(output);
                const ndimage::FilterOptions options = filter_options(mode, cval, origin, out);
                GilRelease unlocked;
                return written(convolution ? ndimage::convolve(x, w, options) : ndimage::correlate(x, w, options), out);
            },
            "input"_a, "weights"_a, "output"_a.none() = nb::none(), "mode"_a = "reflect", "cval"_a = 0.0,
            "origin"_a = 0, convolution ? "scipy.ndimage.convolve." : "scipy.ndimage.correlate.");
        ndimage.def(
            convolution ? "convolve1d" : "correlate1d",
            [convolution](nb::handle input, nb::handle weights, nb::handle axis, nb::handle output, nb::handle mode,
                          nb::handle cval, nb::handle origin) {
                const Array& x = to_array(input, "input");
                const Array& w = to_array(weights, "weights");
                const std::int64_t a = to_int64(axis, "axis");
                const Output out = output_of(output);
                const ndimage::FilterOptions options = filter_options(mode, cval, origin, out);
                GilRelease unlocked;
                return written(
                    convolution ? ndimage::convolve1d(x, w, a, options) : ndimage::correlate1d(x, w, a, options), out);
            },
            "input"_a, "weights"_a, "axis"_a = -1, "output"_a.none() = nb::none(), "mode"_a = "reflect", "cval"_a = 0.0,
            "origin"_a = 0, convolution ? "scipy.ndimage.convolve1d." : "scipy.ndimage.correlate1d.");
    }
    ndimage.def(
        "uniform_filter",
        [](nb::handle input, nb::handle size, nb::handle output, nb::handle mode, nb::handle cval, nb::handle origin) {
            const Array& x = to_array(input, "input");
            const std::vector<std::int64_t> sizes = int64s_of(size, "size");
            const Output out = output_of(output);
            const ndimage::FilterOptions options = filter_options(mode, cval, origin, out);
            GilRelease unlocked;
            return written(ndimage::uniform_filter(x, sizes, options), out);
        },
        "input"_a, "size"_a = 3, "output"_a.none() = nb::none(), "mode"_a = "reflect", "cval"_a = 0.0, "origin"_a = 0,
        "scipy.ndimage.uniform_filter.");
    ndimage.def(
        "gaussian_filter",
        [](nb::handle input, nb::handle sigma, nb::handle order, nb::handle output, nb::handle mode, nb::handle cval,
           nb::handle truncate, nb::handle radius) {
            const Array& x = to_array(input, "input");
            const std::vector<double> sigmas = doubles_of(sigma);
            ndimage::GaussianOptions gaussian;
            gaussian.order = int64s_of(order, "order");
            gaussian.truncate = nb::cast<double>(nb::float_(truncate));
            if (!radius.is_none()) {
                for (const std::int64_t r : int64s_of(radius, "radius")) gaussian.radius.emplace_back(r);
            }
            const Output out = output_of(output);
            const ndimage::FilterOptions options = filter_options(mode, cval, nb::int_(0), out);
            GilRelease unlocked;
            return written(ndimage::gaussian_filter(x, sigmas, gaussian, options), out);
        },
        "input"_a, "sigma"_a, "order"_a = 0, "output"_a.none() = nb::none(), "mode"_a = "reflect", "cval"_a = 0.0,
        "truncate"_a = 4.0, "radius"_a.none() = nb::none(), "scipy.ndimage.gaussian_filter.");
    ndimage.def(
        "gaussian_filter1d",
        [](nb::handle input, nb::handle sigma, nb::handle axis, nb::handle order, nb::handle output, nb::handle mode,
           nb::handle cval, nb::handle truncate, nb::handle radius) {
            const Array& x = to_array(input, "input");
            const double s = nb::cast<double>(nb::float_(sigma));
            const std::int64_t a = to_int64(axis, "axis");
            ndimage::GaussianOptions gaussian;
            gaussian.order = {to_int64(order, "order")};
            gaussian.truncate = nb::cast<double>(nb::float_(truncate));
            if (!radius.is_none()) gaussian.radius = {to_int64(radius, "radius")};
            const Output out = output_of(output);
            const ndimage::FilterOptions options = filter_options(mode, cval, nb::int_(0), out);
            GilRelease unlocked;
            return written(ndimage::gaussian_filter1d(x, s, a, gaussian, options), out);
        },
        "input"_a, "sigma"_a, "axis"_a = -1, "order"_a = 0, "output"_a.none() = nb::none(), "mode"_a = "reflect",
        "cval"_a = 0.0, "truncate"_a = 4.0, "radius"_a.none() = nb::none(), "scipy.ndimage.gaussian_filter1d.");
}

}  // namespace

void bind_convolution(nb::module_& m) {
    for (const bool convolution : {true, false}) {
        m.def(
            convolution ? "convolve" : "correlate",
            [convolution](nb::handle a, nb::handle v, nb::handle mode) {
                const Array& x = to_array(a, "a");
                const Array& w = to_array(v, "v");
                const ConvolveMode m = mode_of(mode);
                GilRelease unlocked;
                return convolution ? gpukit::convolve(x, w, m) : gpukit::correlate(x, w, m);
            },
            "a"_a, "v"_a, "mode"_a = convolution ? "full" : "valid",
            convolution ? "The discrete linear convolution of two 1-D arrays, as numpy.convolve."
                        : "The cross-correlation of two 1-D arrays, as numpy.correlate (v conjugated).");
    }
    bind_signal(m);
    bind_ndimage(m);
}

}  // namespace gpukit::python
