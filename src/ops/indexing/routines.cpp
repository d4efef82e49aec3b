// src/ops/indexing/routines.cpp: take, put, take_along_axis, put_along_axis, compress, extract,
// place, putmask, fill_diagonal, choose, nonzero, argwhere, flatnonzero
// (gpukit/advanced_indexing.hpp), each planned as one gather or scatter (src/ops/indexing/gather.hpp),
// written by the selection kernels (src/ops/indexing/select.hpp), or a few of those and ufuncs.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array_operators.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/numeric.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/indexing/gather.hpp"
#include "ops/indexing/select.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

void check_integers(const Array& indices, std::string_view what) {
    const DTypeKind k = kind(indices.dtype());
    if (k != DTypeKind::signed_integer && k != DTypeKind::unsigned_integer)
        throw IndexError(concat(what, " must be an integer array, not ", to_string(indices.dtype())));
}

Array apart_from(const Array& array, const Array& target) {
    return array.memory() == target.memory() ? array.copy() : array;
}

// choose reads each element's key and only the choice it names, in one pass: one kernel per number of
// choices (each a raw parameter, so the others are never read), with the mode's handling of keys out
// of range. Its parameter block bounds how many choices one kernel takes; more are stacked and
// gathered (choose below).
constexpr std::size_t max_chosen_in_one_pass = 16;

const ElementwiseKernel& choose_kernel(std::size_t count) {
    static std::mutex guard;
    static std::map<std::size_t, std::unique_ptr<ElementwiseKernel>> kernels;
    const std::lock_guard<std::mutex> lock(guard);
    std::unique_ptr<ElementwiseKernel>& kernel = kernels[count];
    if (!kernel) {
        std::string params = "K key";
        std::string cases;
        for (std::size_t k = 0; k < count; ++k) {
            params += concat(", raw T c", k);
            cases += concat("        case ", k, ": chosen = c", k, "[i]; break;\n");
        }
        params += ", raw int32 invalid, int32 mode";
        const std::string body = concat("    const long long n = ", count, R"(;
    long long k = (long long)key;
    if (k < 0 || k >= n) {
        if (mode == )",
                                        static_cast<int>(IndexMode::raise), R"() { invalid[0] = 1; k = 0; }
        else if (mode == )",
                                        static_cast<int>(IndexMode::wrap), R"() { k %= n; if (k < 0) k += n; }
        else k = k < 0 ? 0 : n - 1;
    }
    switch (k) {
)",
                                        cases, "    }\n");
        kernel = std::make_unique<ElementwiseKernel>(params, "T chosen", body, concat("gpukit_choose_", count));
    }
    return *kernel;
}

// Index values `indices` selecting among all of a's elements in C order, its result of indices' shape.
detail::GatherPlan flat_plan(const Array& a, const Array& indices) {
    detail::IndexOperand operand;
    operand.values = indices;
    operand.strides = indices.strides();
    operand.axis_extents = a.shape();
    operand.axis_strides = a.strides();
    operand.axis = 0;
    operand.size = a.size();
    return {a, indices.shape(), Strides(indices.ndim(), 0), {std::move(operand)}};
}

// take along one axis: a.shape[:axis] + indices.shape + a.shape[axis + 1:].
detail::GatherPlan take_plan(const Array& a, const Array& indices, std::optional<std::int64_t> axis) {
    check_integers(indices, "indices");
    if (!axis) return flat_plan(a, indices);
    if (a.ndim() == 0) {                 // NumPy takes a 0-d array as a 1-D one of one element
        (void)normalize_axis(*axis, 1);  // the axis is still checked
        return flat_plan(a, indices);
    }
    const auto along = normalize_axis(*axis, a.ndim());
    detail::GatherPlan plan{a, {}, {}, {}};
    detail::IndexOperand operand;
    operand.values = indices;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        if (d != along) {
            plan.shape.push_back(a.shape()[d]);
            plan.base_strides.push_back(a.strides()[d]);
            operand.strides.push_back(0);
            continue;
        }
        for (std::size_t j = 0; j < indices.ndim(); ++j) {
            plan.shape.push_back(indices.shape()[j]);
            plan.base_strides.push_back(0);
            operand.strides.push_back(indices.strides()[j]);
        }
    }
    operand.axis_extents = {a.shape()[along]};
    operand.axis_strides = {a.strides()[along]};
    operand.axis = static_cast<std::int64_t>(along);
    operand.size = a.shape()[along];
    plan.indices.push_back(std::move(operand));
    return plan;
}

// take_along_axis: a's axis replaced by indices' (same number of dimensions), the others broadcast.
detail::GatherPlan along_axis_plan(const Array& a, const Array& indices, std::optional<std::int64_t> axis) {
    check_integers(indices, "`indices`");
    if (!axis) {
        if (indices.ndim() != 1) throw InvalidArgumentError("when axis=None, `indices` must have a single dimension.");
        return flat_plan(a, indices);
    }
    if (indices.ndim() != a.ndim())
        throw InvalidArgumentError("`indices` and `arr` must have the same number of dimensions");
    const auto along = normalize_axis(*axis, a.ndim());
    Shape others = a.shape();
    others[along] = 1;
    Shape shape(a.ndim());
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        const std::int64_t x = others[d], i = indices.shape()[d];
        if (d != along && x != i && x != 1 && i != 1)
            throw IndexError(concat("shape mismatch: indexing arrays could not be broadcast together with shapes ",
                                    format_shape(others), " ", format_shape(indices.shape())));
        shape[d] = d == along ? i : std::max(x, i);
    }
    detail::GatherPlan plan{a, shape, {}, {}};
    for (std::size_t d = 0; d < a.ndim(); ++d)
        plan.base_strides.push_back(d == along || a.shape()[d] != shape[d] ? 0 : a.strides()[d]);
    detail::IndexOperand operand;
    operand.values = indices;
    operand.strides = detail::broadcast_strides(indices.shape(), indices.strides(), shape);
    operand.axis_extents = {a.shape()[along]};
    operand.axis_strides = {a.strides()[along]};
    operand.axis = static_cast<std::int64_t>(along);
    operand.size = a.shape()[along];
    plan.indices.push_back(std::move(operand));
    return plan;
}

}  // namespace

IndexMode parse_index_mode(std::string_view mode) {
    if (mode == "raise") return IndexMode::raise;
    if (mode == "wrap") return IndexMode::wrap;
    if (mode == "clip") return IndexMode::clip;
    throw InvalidArgumentError(concat("clipmode must be one of 'clip', 'raise', or 'wrap' (got '", mode, "')"));
}

Array take(const Array& a, const Array& indices, std::optional<std::int64_t> axis, IndexMode mode) {
    const detail::GatherPlan plan = take_plan(a, indices, axis);
    Array out = Array::empty(plan.shape, a.dtype(), a.device());
    detail::gather(plan, out, mode);
    return out;
}

void take(const Array& a, const Array& indices, std::optional<std::int64_t> axis, const Array& out, IndexMode mode) {
    const detail::GatherPlan plan = take_plan(a, indices, axis);
    if (out.shape() != plan.shape)
        throw InvalidArgumentError(concat("output array does not match result of ndarray.take: out has shape ",
                                          format_shape(out.shape()), ", the result ", format_shape(plan.shape)));
    if (!can_cast(a.dtype(), out.dtype(), Casting::safe))
        throw InvalidArgumentError(concat("Cannot cast array data from dtype('", to_string(a.dtype()), "') to dtype('",
                                          to_string(out.dtype()), "') according to the rule 'safe'"));
    const bool shares = out.memory() == a.memory() || out.memory() == indices.memory();
    if (out.dtype() == a.dtype() && !shares) return detail::gather(plan, out, mode);
    // Through a new array: out's dtype differs, or out is memory the gather reads.
    Array result = Array::empty(plan.shape, a.dtype(), a.device());
    detail::gather(plan, result, mode);
    Array target = out;
    target.assign(result);
}

void put(const Array& a, const Array& indices, const Array& values, IndexMode mode) {
    check_integers(indices, "indices");
    if (values.size() == 0 || indices.size() == 0) return;  // NumPy's put does nothing then
    const Array converted = values.dtype() == a.dtype() ? apart_from(values, a) : values.astype(a.dtype());
    const Array flat = converted.ravel();  // C-contiguous: the kernel repeats it every values.size() elements
    detail::scatter(flat_plan(a, apart_from(indices, a)), flat, mode, flat.size());
}

Array take_along_axis(const Array& a, const Array& indices, std::optional<std::int64_t> axis) {
    const detail::GatherPlan plan = along_axis_plan(a, indices, axis);
    Array out = Array::empty(plan.shape, a.dtype(), a.device());
    detail::gather(plan, out, IndexMode::raise);
    return out;
}

void put_along_axis(const Array& a, const Array& indices, const Array& values, std::optional<std::int64_t> axis) {
    const detail::GatherPlan plan = along_axis_plan(a, apart_from(indices, a), axis);
    try {
        detail::broadcast_strides(values.shape(), values.strides(), plan.shape);
    } catch (const InvalidArgumentError&) {
        throw InvalidArgumentError(concat("shape mismatch: value array of shape ", format_shape(values.shape()),
                                          " could not be broadcast to indexing result of shape ",
                                          format_shape(plan.shape)));
    }
    const Array converted = values.dtype() == a.dtype() ? apart_from(values, a) : values.astype(a.dtype());
    detail::scatter(plan, converted, IndexMode::raise);
}

Array compress(const Array& condition, const Array& a, std::optional<std::int64_t> axis) {
    if (condition.ndim() != 1) throw InvalidArgumentError("condition must be a 1-d array");
    return take(a, detail::flat_positions(condition), axis, IndexMode::raise);
}

Array extract(const Array& condition, const Array& a) {
    return take(a.ravel(), flatnonzero(condition), std::nullopt, IndexMode::raise);
}

void place(const Array& a, const Array& mask, const Array& values) {
    if (mask.size() != a.size()) throw InvalidArgumentError("place: mask and data must be the same size");
    const Array chosen = flatnonzero(mask);
    if (chosen.size() == 0) return;
    if (values.size() == 0) throw InvalidArgumentError("Cannot insert from an empty array!");
    put(a, chosen, values, IndexMode::raise);  // put repeats the values from their start
}

void putmask(const Array& a, const Array& mask, const Array& values) {
    if (mask.size() != a.size()) throw InvalidArgumentError("putmask: mask and data must be the same size");
    if (values.size() == 0 || a.size() == 0) return;
    const Array condition = mask.dtype() == DType::bool_ ? mask : mask != 0;
    // values.flat[n % values.size] for every n: numpy.resize's repetition, unless values is already a's size.
    const Array cycled = values.size() == a.size() ? values.reshape(a.shape()) : resize(values, a.shape());
    copyto(a, apart_from(cycled, a), Casting::unsafe, condition.reshape(a.shape()));
}

void fill_diagonal(const Array& a, const Array& value, bool wrap) {
    if (a.ndim() < 2) throw InvalidArgumentError("array must be at least 2-d");
    std::int64_t step = 1;
    std::int64_t end = a.size();
    if (a.ndim() == 2) {
        // a.flat[:end:columns + 1]: the diagonal, and with wrap its restarts below a square's end.
        step = a.shape()[1] + 1;
        if (!wrap) end = std::min(a.size(), a.shape()[1] * a.shape()[1]);
    } else {
        for (std::size_t d = 1; d < a.ndim(); ++d)
            if (a.shape()[d] != a.shape()[0])
                throw InvalidArgumentError("All dimensions of input must be of equal length");
        std::int64_t stride = 1;
        for (std::size_t d = 0; d + 1 < a.ndim(); ++d) {
            stride *= a.shape()[d];
            step += stride;
        }
    }
    if (end == 0 || value.size() == 0) return;
    put(a, arange(Scalar(std::int64_t{0}), Scalar(end), Scalar(step), DType::int64, a.device()), value,
        IndexMode::raise);
}

Array choose(const Array& a, std::span<const Array> choices, IndexMode mode) {
    if (choices.empty()) throw InvalidArgumentError("0-length sequence.");
    if (!can_cast(a.dtype(), DType::int64, Casting::safe))
        throw DTypeError(concat("Cannot cast array data from dtype('", to_string(a.dtype()),
                                "') to dtype('int64') according to the rule 'safe'"));
    std::vector<DType> dtypes;
    std::vector<Array> operands{a};
    for (const Array& choice : choices) {
        dtypes.push_back(choice.dtype());
        operands.push_back(choice);
    }
    const DType dtype = result_type(dtypes);
    const std::vector<Array> broadcast = broadcast_arrays(operands);
    const auto count = static_cast<std::int64_t>(choices.size());
    if (choices.size() <= max_chosen_in_one_pass) {
        const Array invalid = zeros({1}, DType::int32, Order::C, a.device());
        std::vector<ElementwiseArgument> args{broadcast[0]};
        for (std::size_t k = 1; k < broadcast.size(); ++k)
            args.emplace_back(broadcast[k].dtype() == dtype ? broadcast[k] : broadcast[k].astype(dtype));
        args.emplace_back(invalid);
        args.emplace_back(Scalar::of(static_cast<std::int32_t>(mode)));
        Array result = choose_kernel(choices.size())(args)[0];
        if (mode == IndexMode::raise && result.size() > 0 && invalid.to_vector<std::int32_t>()[0] != 0)
            throw InvalidArgumentError("invalid entry in choice array");
        return result;
    }
    Array keys = broadcast[0].astype(DType::int64);
    if (mode == IndexMode::raise) {
        if (keys.size() > 0 && count_nonzero((keys < 0) | (keys >= count)) > 0)
            throw InvalidArgumentError("invalid entry in choice array");
    } else if (mode == IndexMode::wrap) {
        keys = keys % count;  // remainder takes the divisor's sign: -1 is the last choice, as NumPy's
    } else {
        keys = where(keys < 0, Scalar(std::int64_t{0}), where(keys >= count, Scalar(count - 1), keys));
    }
    // Beyond what one kernel's parameters hold: the choices stacked along a new first axis, each
    // element's key taken along it.
    JoinOptions join;
    join.dtype = dtype;
    const Array stacked = stack(std::span<const Array>(broadcast).subspan(1), 0, join);
    Shape key_shape = keys.shape();
    key_shape.insert(key_shape.begin(), 1);
    return take_along_axis(stacked, keys.reshape(key_shape), 0).reshape(keys.shape());
}

std::vector<Array> nonzero(const Array& a) {
    if (a.ndim() == 0)
        throw InvalidArgumentError(
            "Calling nonzero on 0d arrays is not allowed. Use atleast_1d(scalar).nonzero() instead.");
    const Array rows = detail::coordinates(a, true);
    std::vector<Array> result;
    for (std::int64_t d = 0; d < static_cast<std::int64_t>(a.ndim()); ++d) result.push_back(rows.index({d}));
    return result;
}

Array argwhere(const Array& a) {
    if (a.ndim() == 0) return Array::empty({detail::count_selected(a), 0}, DType::int64, a.device());
    return detail::coordinates(a, false);
}

Array flatnonzero(const Array& a) { return detail::flat_positions(a, DType::int64); }

std::int64_t count_nonzero(const Array& a) { return detail::count_selected(a); }

}  // namespace gpukit
