// src/ops/numeric.cpp: see gpukit/numeric.hpp. Compositions of the ufuncs, reductions, searches and
// gathers, following NumPy's own definitions of each function step by step.
#include "gpukit/numeric.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <numeric>
#include <utility>

#include "array/along_axis.hpp"
#include "gpukit/array_operators.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::concat;

bool integer_dtype(DType dtype) {
    return kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer;
}

Array scalar_array(const Scalar& value, DType dtype, const Device& device) {
    return full({}, value, dtype, Order::C, device);
}

// Whether any element of the bool array is true (count_nonzero's one wait for the device).
bool any_true(const Array& condition) { return count_nonzero(condition) > 0; }

Array interp_on_grid(const Array& x, const Array& xp, const Array& fp, const Array& left, const Array& right) {
    const std::int64_t n = xp.size();
    const Array first_x = xp.index({Index(std::int64_t{0})}), last_x = xp.index({Index(n - 1)});
    const Array first_f = fp.index({Index(std::int64_t{0})}), last_f = fp.index({Index(n - 1)});
    Array inside = last_f;  // one point: fp[0] at it
    if (n > 1) {
        // The interval [xp[j], xp[j + 1]] holding x, its slope and the line through its left end; where
        // that is nan (an infinite slope), the line through its right end, as NumPy's loop does.
        const Array j = clip(searchsorted(xp, x, Side::right) - std::int64_t{1},
                             scalar_array(Scalar::of(0), DType::int64, x.device()),
                             scalar_array(Scalar::of(n - 2), DType::int64, x.device()));
        const Array x0 = take(xp, j), x1 = take(xp, j + std::int64_t{1});
        const Array f0 = take(fp, j), f1 = take(fp, j + std::int64_t{1});
        const Array slope = (f1 - f0) / (x1 - x0);
        const Array from_left = slope * (x - x0) + f0;
        const Array from_right = slope * (x - x1) + f1;
        Array line =
            where(isnan(from_left), where(logical_and(isnan(from_right), equal(f0, f1)), f0, from_right), from_left);
        inside = where(equal(x, x0), f0, line);
    }
    Array result = where(equal(x, last_x), last_f, inside);
    result = where(greater(x, last_x), right, result);
    return where(less(x, first_x), left, result);
}

}  // namespace

namespace {

Array select_of(std::span<const Array> conditions, std::span<const Array> choices, const Array& otherwise,
                DType dtype) {
    if (conditions.size() != choices.size())
        throw InvalidArgumentError("list of cases must be same length as list of conditions");
    if (conditions.empty()) throw InvalidArgumentError("select with an empty condition list is not possible");
    for (std::size_t k = 0; k < conditions.size(); ++k)
        if (conditions[k].dtype() != DType::bool_)
            throw DTypeError(concat("invalid entry ", k, " in condlist: should be boolean ndarray"));
    // From the last condition to the first, so that the first true one decides.
    Array result = otherwise.astype(dtype);
    for (std::size_t k = conditions.size(); k-- > 0;) result = where(conditions[k], choices[k].astype(dtype), result);
    std::vector<Array> operands(conditions.begin(), conditions.end());
    operands.insert(operands.end(), choices.begin(), choices.end());
    operands.push_back(result);
    return broadcast_arrays(operands).back().copy();
}

PythonScalar weak_kind(const Scalar& value) {
    switch (kind(value.dtype())) {
        case DTypeKind::boolean: return PythonScalar::boolean;
        case DTypeKind::signed_integer:
        case DTypeKind::unsigned_integer: return PythonScalar::integer;
        case DTypeKind::floating: return PythonScalar::floating;
        case DTypeKind::complex: return PythonScalar::complex;
    }
    return PythonScalar::floating;
}

}  // namespace

Array select(std::span<const Array> conditions, std::span<const Array> choices, const Array& default_value) {
    std::vector<DType> dtypes{default_value.dtype()};
    for (const Array& choice : choices) dtypes.push_back(choice.dtype());
    return select_of(conditions, choices, default_value, result_type(dtypes));
}

Array select(std::span<const Array> conditions, std::span<const Array> choices, const Scalar& default_value) {
    std::vector<DType> dtypes;
    for (const Array& choice : choices) dtypes.push_back(choice.dtype());
    const PythonScalar weak[] = {weak_kind(default_value)};
    const DType dtype = dtypes.empty() ? default_value.dtype() : result_type(dtypes, weak);
    const Device& device = choices.empty() ? Device::current() : choices[0].device();
    return select_of(conditions, choices, full({}, default_value, dtype, Order::C, device), dtype);
}

Array interp(const Array& x, const Array& xp, const Array& fp, const InterpOptions& options) {
    if (xp.ndim() != 1 || fp.ndim() != 1) throw InvalidArgumentError("Data points must be 1-D sequences");
    if (xp.size() != fp.size()) throw InvalidArgumentError("fp and xp are not of the same length.");
    if (xp.size() == 0) throw InvalidArgumentError("array of sample points is empty");
    const bool complex_values = kind(fp.dtype()) == DTypeKind::complex;
    const DType values = complex_values ? DType::complex128 : DType::float64;
    Array positions = x.astype(DType::float64), grid = xp.astype(DType::float64), samples = fp.astype(values);
    const Device& device = x.device();
    if (options.period) {
        const double period = std::abs(*options.period);
        if (period == 0) throw InvalidArgumentError("period must be a non-zero value");
        const Array modulus = scalar_array(Scalar::of(period), DType::float64, device);
        positions = remainder(positions, modulus);
        grid = remainder(grid, modulus);
        const Array order = argsort(grid);
        grid = take(grid, order);
        samples = take(samples, order);
        // One point past each end, a period away, so that every x lies between two points.
        const std::int64_t n = grid.size();
        const Array before[] = {grid.index({Slice{n - 1, n}}) - period, grid, grid.index({Slice{0, 1}}) + period};
        const Array wrapped[] = {samples.index({Slice{n - 1, n}}), samples, samples.index({Slice{0, 1}})};
        grid = concatenate(before);
        samples = concatenate(wrapped);
    }
    const std::int64_t n = samples.size();
    const Array left =
        options.left && !options.period ? options.left->astype(values) : samples.index({Index(std::int64_t{0})});
    const Array right =
        options.right && !options.period ? options.right->astype(values) : samples.index({Index(n - 1)});
    return interp_on_grid(positions, grid, samples, left, right);
}

namespace {

// f's elements [start, stop) along `axis` (a view).
Array part(const Array& f, std::size_t axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop) {
    std::vector<Index> key(f.ndim(), Index(Slice{}));
    key[axis] = Index(Slice{start, stop});
    return f.index(key);
}

// f's element i along `axis` (negative from the end), keeping the axis (a view).
Array element_at(const Array& f, std::size_t axis, std::int64_t i) {
    return part(f, axis, i, i == -1 ? std::nullopt : std::optional<std::int64_t>(i + 1));
}

// A 1-D array of coefficients along `axis` of an array of `ndim` dimensions (extents of 1 elsewhere).
Array along(const Array& coefficients, std::size_t axis, std::size_t ndim) {
    Shape shape(ndim, 1);
    shape[axis] = coefficients.size();
    return coefficients.reshape(shape);
}

Array derivative(const Array& f, std::size_t axis, const GradientSpacing& spacing, int edge_order) {
    const std::int64_t n = f.shape()[axis];
    if (n < edge_order + 1)
        throw InvalidArgumentError(concat("Shape of array too small to calculate a numerical gradient, at least (",
                                          "edge_order + 1) elements are required."));
    Array out = empty_like(f);
    const std::size_t ndim = f.ndim();
    auto at = [&](std::int64_t i) { return element_at(f, axis, i); };
    if (const double* dx = std::get_if<double>(&spacing)) {
        const Array inner = (part(f, axis, 2, std::nullopt) - part(f, axis, std::nullopt, -2)) / (2.0 * *dx);
        copyto(part(out, axis, 1, -1), inner);
        if (edge_order == 1) {
            copyto(element_at(out, axis, 0), (at(1) - at(0)) / *dx);
            copyto(element_at(out, axis, -1), (at(-1) - at(-2)) / *dx);
        } else {
            copyto(element_at(out, axis, 0), at(0) * (-1.5 / *dx) + at(1) * (2.0 / *dx) + at(2) * (-0.5 / *dx));
            copyto(element_at(out, axis, -1), at(-3) * (0.5 / *dx) + at(-2) * (-2.0 / *dx) + at(-1) * (1.5 / *dx));
        }
        return out;
    }
    const Array& x = std::get<Array>(spacing);
    if (x.ndim() != 1 || x.size() != n)
        throw InvalidArgumentError("when 1d, distances must match the length of the corresponding dimension");
    const Array dx = diff(x.astype(DType::float64));
    const Array dx1 = dx.index({Index(Slice{std::nullopt, -1})}), dx2 = dx.index({Index(Slice{1, std::nullopt})});
    const Array a = -dx2 / (dx1 * (dx1 + dx2)), b = (dx2 - dx1) / (dx1 * dx2), c = dx1 / (dx2 * (dx1 + dx2));
    copyto(part(out, axis, 1, -1), along(a, axis, ndim) * part(f, axis, std::nullopt, -2) +
                                       along(b, axis, ndim) * part(f, axis, 1, -1) +
                                       along(c, axis, ndim) * part(f, axis, 2, std::nullopt));
    auto d = [&](std::int64_t i) { return dx.index({Index(i)}); };
    if (edge_order == 1) {
        copyto(element_at(out, axis, 0), (at(1) - at(0)) / d(0));
        copyto(element_at(out, axis, -1), (at(-1) - at(-2)) / d(-1));
        return out;
    }
    {
        const Array l1 = d(0), l2 = d(1);
        const Array la = -(l1 * 2.0 + l2) / (l1 * (l1 + l2)), lb = (l1 + l2) / (l1 * l2), lc = -l1 / (l2 * (l1 + l2));
        copyto(element_at(out, axis, 0), la * at(0) + lb * at(1) + lc * at(2));
    }
    const Array r1 = d(-2), r2 = d(-1);
    const Array ra = r2 / (r1 * (r1 + r2)), rb = -(r2 + r1) / (r1 * r2), rc = (r2 * 2.0 + r1) / (r2 * (r1 + r2));
    copyto(element_at(out, axis, -1), ra * at(-3) + rb * at(-2) + rc * at(-1));
    return out;
}

}  // namespace

std::vector<Array> gradient(const Array& f, std::span<const GradientSpacing> spacing,
                            std::span<const std::int64_t> axes, int edge_order) {
    if (edge_order != 1 && edge_order != 2) throw InvalidArgumentError("'edge_order' greater than 2 not supported");
    std::vector<std::size_t> chosen;
    if (axes.empty()) {
        for (std::size_t d = 0; d < f.ndim(); ++d) chosen.push_back(d);
    } else {
        chosen = normalize_axes(axes, f.ndim());
    }
    if (spacing.size() > 1 && spacing.size() != chosen.size())
        throw InvalidArgumentError("invalid number of arguments");
    const Array values = integer_dtype(f.dtype()) || f.dtype() == DType::bool_ ? f.astype(DType::float64) : f;
    std::vector<Array> derivatives;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        const GradientSpacing step = spacing.empty() ? GradientSpacing(1.0) : spacing[spacing.size() == 1 ? 0 : k];
        derivatives.push_back(derivative(values, chosen[k], step, edge_order));
    }
    return derivatives;
}

Array trapezoid(const Array& y, const std::optional<Array>& x, double dx, std::int64_t axis) {
    const std::size_t along = normalize_axis(axis, y.ndim());
    const std::int64_t n = y.shape()[along];
    std::vector<Index> upper(y.ndim(), Index(Slice{})), lower(y.ndim(), Index(Slice{}));
    upper[along] = Index(Slice{1, std::nullopt});
    lower[along] =
        Index(Slice{std::nullopt, n > 0 ? std::optional<std::int64_t>(n - 1) : std::optional<std::int64_t>(0)});
    const Array heights = (y.index(upper) + y.index(lower)) / 2.0;
    ReduceOptions over;
    over.axis = std::vector<std::int64_t>{static_cast<std::int64_t>(along)};
    if (!x) return sum(heights * dx, over);
    DiffOptions differences;
    differences.axis = x->ndim() == 1 ? 0 : static_cast<std::int64_t>(along);
    Array widths = diff(*x, differences);
    if (x->ndim() == 1 && y.ndim() > 1) {  // spread along y's axis
        Shape shape(y.ndim(), 1);
        shape[along] = widths.size();
        widths = widths.reshape(shape);
    }
    return sum(widths * heights, over);
}

Array cov(const Array& m, const std::optional<Array>& y, const CovOptions& options) {
    if (m.ndim() > 2) throw InvalidArgumentError("m has more than 2 dimensions");
    if (y && y->ndim() > 2) throw InvalidArgumentError("y has more than 2 dimensions");
    std::vector<DType> dtypes{m.dtype(), DType::float64};
    if (y) dtypes.push_back(y->dtype());
    const DType dtype = options.dtype.value_or(result_type(dtypes));
    auto variables = [&](const Array& a) {
        Array rows = atleast_2d(a).astype(dtype);
        return !options.rowvar && rows.shape()[0] != 1 ? rows.transpose() : rows;
    };
    Array observations = variables(m);
    if (observations.shape()[0] == 0) return empty({0, 0}, dtype, Order::C, m.device());
    if (y) {
        const Array both[] = {observations, variables(*y)};
        observations = concatenate(both, 0);
    }
    const std::int64_t count = observations.shape()[1];
    const std::int64_t ddof = options.ddof.value_or(options.bias ? 0 : 1);
    std::optional<Array> weights;
    auto check_weights = [&](const Array& w, const char* name) {
        if (w.ndim() > 1) throw InvalidArgumentError(concat("cannot handle multidimensional ", name));
        if (w.size() != count) throw InvalidArgumentError(concat("incompatible numbers of samples and ", name));
        if (any_true(less(w, scalar_array(Scalar::of(0), w.dtype(), w.device()))))
            throw InvalidArgumentError(concat(name, " cannot be negative"));
    };
    if (options.fweights) {
        if (!integer_dtype(options.fweights->dtype()) && options.fweights->dtype() != DType::bool_)
            throw DTypeError("fweights must be integer");
        check_weights(*options.fweights, "fweights");
        weights = options.fweights->astype(DType::float64);
    }
    if (options.aweights) {
        check_weights(*options.aweights, "aweights");
        weights =
            weights ? *weights * options.aweights->astype(DType::float64) : options.aweights->astype(DType::float64);
    }
    AverageOptions averaging;
    averaging.axis = std::vector<std::int64_t>{1};
    averaging.weights = weights;
    const Average mean_of = average(observations, averaging);
    double factor = static_cast<double>(count - ddof);
    if (weights) {
        const double weight_sum = mean_of.sum_of_weights.reshape({-1})
                                      .index({Index(std::int64_t{0})})
                                      .astype(DType::float64)
                                      .to_vector<double>()[0];
        if (ddof == 0) {
            factor = weight_sum;
        } else if (!options.aweights) {
            factor = weight_sum - static_cast<double>(ddof);
        } else {
            const double weighted = sum(*weights * options.aweights->astype(DType::float64)).to_vector<double>()[0];
            factor = weight_sum - static_cast<double>(ddof) * weighted / weight_sum;
        }
    }
    factor = std::max(factor, 0.0);  // NumPy warns "Degrees of freedom <= 0" and divides by 0
    const Array centred = observations - mean_of.average.reshape({-1, 1});
    const Array weighted = weights ? centred * *weights : centred;
    Array c = matmul(centred, conjugate(weighted.transpose()));
    c = c * (1.0 / factor);
    return squeeze(c);
}

Array corrcoef(const Array& x, const std::optional<Array>& y, bool rowvar, std::optional<DType> dtype) {
    CovOptions options;
    options.rowvar = rowvar;
    options.dtype = dtype;
    const Array c = cov(x, y, options);
    if (c.ndim() == 0) return true_divide(c, c);  // one variable: 1, or nan without variance, as NumPy
    const Array deviations = sqrt(real(diag(c)));
    Array r = c / deviations.reshape({-1, 1}) / deviations.reshape({1, -1});
    // Rounding can put a coefficient just past 1: clip, the real and imaginary parts apart.
    const Array one = scalar_array(Scalar::of(1.0), DType::float64, c.device());
    const Array minus_one = scalar_array(Scalar::of(-1.0), DType::float64, c.device());
    if (kind(r.dtype()) != DTypeKind::complex) return clip(r, minus_one.astype(r.dtype()), one.astype(r.dtype()));
    const Array unit = scalar_array(Scalar::of(std::complex<double>(0, 1)), r.dtype(), c.device());
    const Array real_part = clip(real(r), minus_one, one).astype(r.dtype());
    return real_part + clip(imag(r), minus_one, one).astype(r.dtype()) * unit;
}

std::vector<Array> unravel_index(const Array& indices, std::span<const std::int64_t> shape, Order order) {
    if (!integer_dtype(indices.dtype()))
        throw DTypeError(concat("only int indices permitted, not ", to_string(indices.dtype())));
    if (order != Order::C && order != Order::F) throw InvalidArgumentError("only 'C' or 'F' order is permitted");
    const std::int64_t size = element_count(shape);
    const Array flat = indices.astype(DType::int64);
    const Device& device = indices.device();
    if (flat.size() > 0 &&
        any_true(logical_or(less(flat, scalar_array(Scalar::of(0), DType::int64, device)),
                            greater_equal(flat, scalar_array(Scalar::of(size), DType::int64, device)))))
        throw InvalidArgumentError(concat("index out of bounds for array with size ", size));
    std::vector<Array> coordinates(shape.size(), flat);
    Array rest = flat;
    auto step = [&](std::size_t d) {
        const Array extent = scalar_array(Scalar::of(std::max<std::int64_t>(shape[d], 1)), DType::int64, device);
        coordinates[d] = remainder(rest, extent);
        rest = floor_divide(rest, extent);
    };
    if (order == Order::C) {
        for (std::size_t d = shape.size(); d-- > 0;) step(d);
    } else {
        for (std::size_t d = 0; d < shape.size(); ++d) step(d);
    }
    return coordinates;
}

Array ravel_multi_index(std::span<const Array> multi_index, std::span<const std::int64_t> dims,
                        std::span<const IndexMode> modes, Order order) {
    if (multi_index.size() != dims.size())
        throw InvalidArgumentError(concat("parameter multi_index must be a sequence of length ", dims.size()));
    if (modes.size() != 1 && modes.size() != dims.size())
        throw InvalidArgumentError("mode must be one mode or one per dimension");
    if (order != Order::C && order != Order::F) throw InvalidArgumentError("only 'C' or 'F' order is permitted");
    for (const Array& coordinate : multi_index) {
        if (!integer_dtype(coordinate.dtype()))
            throw DTypeError(concat("only int indices permitted, not ", to_string(coordinate.dtype())));
    }
    const std::vector<Array> coordinates = broadcast_arrays(multi_index);
    const Device& device = multi_index.empty() ? Device::current() : multi_index[0].device();
    // The stride of each dimension in elements, in the order asked for.
    std::vector<std::int64_t> strides(dims.size(), 1);
    if (order == Order::C) {
        for (std::size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
    } else {
        for (std::size_t d = 1; d < dims.size(); ++d) strides[d] = strides[d - 1] * dims[d - 1];
    }
    Array flat = zeros(coordinates.empty() ? Shape{} : coordinates[0].shape(), DType::int64, Order::C, device);
    for (std::size_t d = 0; d < dims.size(); ++d) {
        Array c = coordinates[d].astype(DType::int64);
        const Array zero = scalar_array(Scalar::of(0), DType::int64, device);
        const Array extent = scalar_array(Scalar::of(dims[d]), DType::int64, device);
        switch (modes.size() == 1 ? modes[0] : modes[d]) {
            case IndexMode::raise:
                if (c.size() > 0 && any_true(logical_or(less(c, zero), greater_equal(c, extent))))
                    throw InvalidArgumentError("invalid entry in coordinates array");
                break;
            case IndexMode::wrap: c = remainder(c, extent); break;
            case IndexMode::clip: c = clip(c, zero, extent - std::int64_t{1}); break;
        }
        flat = flat + c * strides[d];
    }
    return flat;
}

Array append(const Array& a, const Array& values, std::optional<std::int64_t> axis) {
    if (!axis) {
        const Array flat[] = {a.ravel(), values.ravel()};
        return concatenate(flat, 0);
    }
    const Array both[] = {a, values};
    return concatenate(both, *axis);
}

Array delete_positions(const Array& a, const Array& positions, std::optional<std::int64_t> axis) {
    const Array source = axis ? a : a.ravel();
    const std::size_t along = normalize_axis(axis.value_or(0), source.ndim());
    const std::int64_t n = source.shape()[along];
    const Device& device = source.device();
    Array keep = ones({n}, DType::bool_, Order::C, device);
    if (positions.dtype() == DType::bool_) {
        if (positions.ndim() != 1 || positions.size() != n)
            throw InvalidArgumentError(
                concat("boolean array argument obj to delete must be one dimensional and match "
                       "the axis length of ",
                       n));
        keep = logical_not(positions);
    } else {
        if (!integer_dtype(positions.dtype()))
            throw IndexError("arrays used as indices must be of integer (or boolean) type");
        const Array where_to = positions.astype(DType::int64).ravel();
        if (where_to.size() > 0) {
            const Array lowest = scalar_array(Scalar::of(-n), DType::int64, device);
            const Array past = scalar_array(Scalar::of(n), DType::int64, device);
            if (any_true(logical_or(less(where_to, lowest), greater_equal(where_to, past))))
                throw IndexError(concat("index out of bounds for axis ", along, " with size ", n));
            put(keep, where_to, scalar_array(Scalar(false), DType::bool_, device), IndexMode::wrap);
        }
    }
    return compress(keep, source, static_cast<std::int64_t>(along));
}

namespace {

// insert's result in one pass: each element is the source's or a new slice's, found by a binary
// search of its place along the axis among the new slices' (sorted) places. `inner` is the product of
// the extents after the axis; source and values are C-contiguous.
const ElementwiseKernel& insert_kernel() {
    static const ElementwiseKernel kernel(
        "raw T source, raw T values, raw int64 places, raw int64 order, int64 n, int64 count, int64 inner", "T result",
        R"(
        const long long along = (i / inner) % (n + count), outer = i / (inner * (n + count)), within = i % inner;
        long long before = 0, after = count;  // the new slices at or before `along`: `before`
        while (before < after) {
            const long long middle = (before + after) / 2;
            if (places[middle] <= along) before = middle + 1; else after = middle;
        }
        if (before > 0 && places[before - 1] == along)
            result = values[(outer * count + order[before - 1]) * inner + within];
        else
            result = source[(outer * n + along - before) * inner + within];
    )",
        "gpukit_insert");
    return kernel;
}

// IndexError naming the first of `keys` (int64) outside [-n, n], if one is.
void check_insert_positions(const Array& keys, std::int64_t n, std::size_t along) {
    if (keys.size() == 0) return;
    const Array outside = logical_or(less(keys, scalar_array(Scalar::of(-n), DType::int64, keys.device())),
                                     greater(keys, scalar_array(Scalar::of(n), DType::int64, keys.device())));
    if (!any_true(outside)) return;
    const std::int64_t first = take(keys, flatnonzero(outside)).to_vector<std::int64_t>()[0];
    throw IndexError(concat("index ", first, " is out of bounds for axis ", along, " with size ", n));
}

}  // namespace

Array insert(const Array& a, const Array& positions, const Array& values, std::optional<std::int64_t> axis) {
    const Array source = axis ? a : a.ravel();
    const std::size_t along = normalize_axis(axis.value_or(0), source.ndim());
    const std::int64_t n = source.shape()[along];
    const Device& device = source.device();
    Array keys = positions;
    if (positions.dtype() == DType::bool_) {
        if (positions.ndim() != 1)
            throw InvalidArgumentError("boolean array argument obj to insert must be one dimensional");
        keys = flatnonzero(positions);
    } else if (!integer_dtype(positions.dtype())) {
        throw IndexError("arrays used as indices must be of integer (or boolean) type");
    }
    if (keys.ndim() > 1)
        throw InvalidArgumentError("index array argument obj to insert must be one dimensional or scalar");
    keys = keys.astype(DType::int64);
    // The values as NumPy's array(values, ndmin=a.ndim, dtype=a.dtype): leading axes of extent 1.
    Shape value_shape = values.shape();
    while (value_shape.size() < source.ndim()) value_shape.insert(value_shape.begin(), 1);
    const Array converted = values.astype(source.dtype()).reshape(value_shape);
    Shape shape = source.shape();
    if (keys.ndim() == 0) {  // one block of new slices before one place
        check_insert_positions(keys.reshape({1}), n, along);
        std::int64_t place = keys.to_vector<std::int64_t>()[0];
        if (place < 0) place += n;
        const std::int64_t from[] = {0};
        const std::int64_t to[] = {static_cast<std::int64_t>(along)};
        const Array block = moveaxis(converted, from, to);
        const std::int64_t added = block.shape()[along];
        shape[along] += added;
        Array result = empty(shape, source.dtype(), Order::C, device);
        copyto(detail::along_axis(result, along, Slice{0, place}), detail::along_axis(source, along, Slice{0, place}));
        copyto(detail::along_axis(result, along, Slice{place, place + added}), block, Casting::unsafe);
        copyto(detail::along_axis(result, along, Slice{place + added, n + added}),
               detail::along_axis(source, along, Slice{place, n}));
        return result;
    }
    const std::int64_t count = keys.size();
    if (count == 0) return source.copy();
    check_insert_positions(keys, n, along);
    keys = where(less(keys, scalar_array(Scalar::of(std::int64_t{0}), DType::int64, device)),
                 add(keys, scalar_array(Scalar::of(n), DType::int64, device)), keys);
    // The new slices' places in order: the q-th smallest key plus q (the keys' stable order keeps
    // repeated ones in turn); the slice of values each takes is its key's position, order[q].
    const Array order = argsort(keys);
    const Array places = add(take(keys, order), arange(Scalar(count), DType::int64, device));
    shape[along] += count;
    Shape values_shape = shape;
    values_shape[along] = count;
    std::int64_t inner = 1;
    for (std::size_t d = along + 1; d < shape.size(); ++d) inner *= shape[d];
    Array result = empty(shape, source.dtype(), Order::C, device);
    insert_kernel()({ascontiguousarray(source), ascontiguousarray(broadcast_to(converted, values_shape)), places, order,
                     n, count, inner, result});
    return result;
}

Array resize(const Array& a, std::span<const std::int64_t> shape) {
    std::int64_t size = 1;
    for (const std::int64_t extent : shape) {
        if (extent < 0) throw InvalidArgumentError("all elements of `new_shape` must be non-negative");
        size *= extent;
    }
    const Shape result_shape(shape.begin(), shape.end());
    if (a.size() == 0 || size == 0) return zeros(result_shape, a.dtype(), Order::C, a.device());
    return take(a.ravel(), arange(Scalar(size), DType::int64, a.device()), std::nullopt, IndexMode::wrap)
        .reshape(result_shape);
}

bool may_share_memory(const Array& a, const Array& b) {
    if (a.memory() != b.memory() || a.size() == 0 || b.size() == 0) return false;
    const ByteExtent x = a.extent(), y = b.extent();
    const auto a_start = static_cast<std::int64_t>(a.address()) + x.low,
               a_end = static_cast<std::int64_t>(a.address()) + x.high;
    const auto b_start = static_cast<std::int64_t>(b.address()) + y.low,
               b_end = static_cast<std::int64_t>(b.address()) + y.high;
    return a_start < b_end && b_start < a_end;
}

bool shares_memory(const Array& a, const Array& b) {
    if (!may_share_memory(a, b)) return false;
    if (a.is_c_contiguous() || b.is_c_contiguous() || a.is_f_contiguous() || b.is_f_contiguous())
        return true;  // one covers its whole byte range, which overlaps the other's elements' range
    // Every element's byte range of each, sorted, then merged: an overlap is a shared byte.
    auto ranges = [](const Array& array) {
        std::vector<std::pair<std::int64_t, std::int64_t>> spans;
        spans.reserve(static_cast<std::size_t>(array.size()));
        std::vector<std::int64_t> index(array.ndim(), 0);
        for (std::int64_t k = 0; k < array.size(); ++k) {
            std::int64_t offset = static_cast<std::int64_t>(array.address());
            for (std::size_t d = 0; d < array.ndim(); ++d) offset += index[d] * array.strides()[d];
            spans.emplace_back(offset, offset + array.itemsize());
            for (std::size_t d = array.ndim(); d-- > 0;) {
                if (++index[d] < array.shape()[d]) break;
                index[d] = 0;
            }
        }
        return spans;
    };
    auto first = ranges(a), second = ranges(b);
    for (auto& span : second) first.push_back(span);
    std::vector<int> owner(first.size(), 0);
    std::fill(owner.begin() + static_cast<std::ptrdiff_t>(first.size() - second.size()), owner.end(), 1);
    std::vector<std::size_t> order(first.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return first[i] < first[j]; });
    std::int64_t reach[2] = {INT64_MIN, INT64_MIN};
    for (const std::size_t i : order) {
        const int other = 1 - owner[i];
        if (first[i].first < reach[other]) return true;
        reach[owner[i]] = std::max(reach[owner[i]], first[i].second);
    }
    return false;
}

}  // namespace gpukit
