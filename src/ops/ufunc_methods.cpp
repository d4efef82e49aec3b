// src/ops/ufunc_methods.cpp: see ufunc_methods.hpp. The kernels are kernels/gpukit_ufunc_methods.cuh.
#include "ops/ufunc_methods.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/own_kernels.hpp"
#include "ops/scan/generator.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace {

// The kernels' parameters: gk_ufm_params in kernels/gpukit_ufunc_methods.cuh, field for field.
struct UfuncMethodParams {
    std::uint64_t x = 0;
    std::uint64_t out = 0;
    std::uint64_t mask = 0;
    std::uint64_t starts = 0;
    std::uint64_t initial = 0;
    std::int64_t lines = 0;
    std::int64_t n = 0;
    std::int64_t segments = 0;
    std::int64_t extent = 0;
    std::int64_t step = 0;
    std::int64_t b_step = 1;
    std::uint64_t error = 0;
    std::int64_t window = 0;
    std::int32_t accumulate = 0;
};

enum class Method : std::uint8_t { fold, reduceat, at, add_at, cas_at, shared_add_at };

// add_at and cas_at are one kernel, its update chosen by a define (GK_UFM_ATOMIC_ADD, GK_UFM_CAS).
constexpr std::string_view kernel_names[] = {"gk_ufunc_fold",      "gk_ufunc_reduceat",  "gk_ufunc_at",
                                             "gk_ufunc_atomic_at", "gk_ufunc_atomic_at", "gk_ufunc_shared_add_at"};

bool named(const Ufunc& ufunc, std::string_view name) { return ufunc.name == name; }

// The ufuncs NumPy reduces over several axes at once: associative and commutative.
bool reorderable(const Ufunc& ufunc) {
    for (std::string_view name :
         {"add", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or", "logical_xor",
          "maximum", "minimum", "fmax", "fmin", "gcd", "hypot", "logaddexp", "logaddexp2"})
        if (named(ufunc, name)) return true;
    return false;
}

void require_binary(const Ufunc& ufunc, std::string_view method) {
    if (ufunc.nin != 2 || ufunc.nout != 1)
        throw InvalidArgumentError(concat(method, " only supported for binary functions (", ufunc.name, " takes ",
                                          int(ufunc.nin), " input", ufunc.nin == 1 ? "" : "s", ")"));
}

// The loop whose inputs and output are all `dtype`.
const UfuncLoop* folding_loop(const Ufunc& ufunc, DType dtype) {
    for (const UfuncLoop& loop : ufunc.loops)
        if (loop.dtypes[0] == dtype && loop.dtypes[1] == dtype && loop.dtypes[2] == dtype) return &loop;
    return nullptr;
}

// NumPy's dtype for reducing `input` with `ufunc`: dtype= where given; add's and multiply's as
// sum's (small integers widen); bool for the logical ufuncs; else the loop a call on two such
// elements selects, which must take and give one dtype.
DType fold_dtype(const Ufunc& ufunc, DType input, std::optional<DType> dtype, std::string_view method) {
    const auto no_loop = [&](DType d) {
        return DTypeError(concat("ufunc '", ufunc.name, "' has no loop that ", method, " can apply to ", to_string(d),
                                 ": its loops (", ufunc.name, ".types) must take and give one dtype"));
    };
    if (dtype) {
        if (!folding_loop(ufunc, *dtype)) throw no_loop(*dtype);
        return *dtype;
    }
    if (named(ufunc, "add") || named(ufunc, "multiply")) return scan_dtypes(input, std::nullopt).output;
    if (named(ufunc, "logical_and") || named(ufunc, "logical_or") || named(ufunc, "logical_xor")) return DType::bool_;
    const DType inputs[2] = {input, input};
    refuse_boolean_arithmetic(ufunc, inputs);
    const UfuncLoop* loop = select_loop(ufunc, inputs);
    if (!loop || loop->dtypes[1] != loop->dtypes[0] || loop->dtypes[2] != loop->dtypes[0]) throw no_loop(input);
    return loop->dtypes[0];
}

// One of the methods' kernels for `loop`, folding or updating elements of `a_dtype` with second
// operands of `b_dtype` (at: naming them by keys of `key_dtype`, or by byte offsets without one): one
// module per ufunc, loop and dtypes, compiled on first use.
Kernel method_kernel(const Device& device, const Ufunc& ufunc, const UfuncLoop& loop, DType a_dtype, DType b_dtype,
                     Method method, std::optional<DType> key_dtype = std::nullopt) {
    const auto loop_index = static_cast<std::uint64_t>(&loop - ufunc.loops.data());
    const std::uint64_t key_code = key_dtype ? static_cast<std::uint64_t>(*key_dtype) + 1 : 0;
    const std::uint64_t key = static_cast<std::uint64_t>(ufunc.id) | loop_index << 16 |
                              static_cast<std::uint64_t>(a_dtype) << 32 | static_cast<std::uint64_t>(b_dtype) << 40 |
                              static_cast<std::uint64_t>(method) << 48 | key_code << 56;
    return own_kernel(device, "ufunc_methods", key, [&] {
        std::string expression = with_loop_type(loop.expression, loop.dtypes[0]);
        std::replace(expression.begin(), expression.end(), '\n', ' ');
        const std::size_t nin = ufunc.nin;
        OwnKernelSource source{"gpukit_ufunc_methods.cu", "gpukit_ufunc_methods.cuh", ufunc_methods_header(), {}, {}};
        source.defines = concat("#define GK_UFM_A ", storage_c_type(a_dtype), "\n#define GK_UFM_B ",
                                storage_c_type(b_dtype), "\n#define GK_UFM_C0 ", compute_c_type(loop.dtypes[0]),
                                "\n#define GK_UFM_C1 ", compute_c_type(loop.dtypes[nin == 2 ? 1 : 0]),
                                "\n#define GK_UFM_COUT ", compute_c_type(loop.dtypes[nin]), "\n#define GK_UFM_NIN ",
                                nin, "\n#define GK_UFM_EXPRESSION ", expression, "\n");
        if (method == Method::add_at || method == Method::shared_add_at)
            source.defines += "#define GK_UFM_ATOMIC_ADD\n";
        if (method == Method::cas_at) source.defines += "#define GK_UFM_CAS\n";
        if (key_dtype) source.defines += concat("#define GK_UFM_KEY ", storage_c_type(*key_dtype), "\n");
        return OwnKernelRecipe{std::move(source), std::string(kernel_names[static_cast<int>(method)])};
    });
}

// `a` with `axes` (sorted) moved last, C-contiguous in `dtype`: `lines` rows of `n` elements.
struct Lines {
    Array data;
    Shape kept;                       // the extents of the other axes, in order
    std::vector<std::int64_t> order;  // the permutation that moved the axes
    std::int64_t lines = 1, n = 1;
};

Lines as_lines(const Array& a, const std::vector<std::size_t>& axes, DType dtype) {
    Shape kept;
    std::vector<std::int64_t> order;
    std::int64_t lines = 1, n = 1;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
            order.push_back(static_cast<std::int64_t>(d));
            kept.push_back(a.shape()[d]);
            lines *= a.shape()[d];
        }
    for (std::size_t d : axes) {
        order.push_back(static_cast<std::int64_t>(d));
        n *= a.shape()[d];
    }
    Array data = ascontiguousarray(a.transpose(order), dtype).reshape({lines, n});
    return Lines{std::move(data), std::move(kept), std::move(order), lines, n};
}

// `axes` normalised, sorted; every axis where none is given. Throws AxisError, InvalidArgumentError.
std::vector<std::size_t> reduced_axes(const std::optional<std::vector<std::int64_t>>& axis, std::size_t ndim) {
    std::vector<std::size_t> axes;
    if (!axis) {
        axes.resize(ndim);
        std::iota(axes.begin(), axes.end(), std::size_t{0});
        return axes;
    }
    for (std::int64_t each : *axis) axes.push_back(normalize_axis(each, ndim));
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
        throw InvalidArgumentError("duplicate value in 'axis'");
    return axes;
}

// `result` into `out` when given (of exactly its shape, cast as NumPy casts outputs), else itself.
Array deliver(const Array& result, const std::optional<Array>& out, std::string_view method) {
    if (!out) return result;
    if (out->shape() != result.shape())
        throw InvalidArgumentError(concat(method, ": out has shape ", format_shape(out->shape()), ", the result ",
                                          format_shape(result.shape())));
    copyto(*out, result);
    return *out;
}

// An array laid out as `lines` (kept extents then `tail`) put back with its last axis at `axis`.
Array restore_axis(const Array& lines_result, const Shape& kept, std::int64_t tail, std::size_t axis) {
    Shape shape = kept;
    shape.push_back(tail);
    const std::int64_t last[] = {-1}, place[] = {static_cast<std::int64_t>(axis)};
    return ascontiguousarray(moveaxis(lines_result.reshape(shape), last, place));
}

std::optional<Array> reduced_by_engine(const Ufunc& ufunc, const Array& a, const UfuncReduceOptions& options,
                                       const std::vector<std::size_t>& axes) {
    ReduceOptions engine;
    engine.axis = std::vector<std::int64_t>(axes.begin(), axes.end());
    engine.keepdims = options.keepdims;
    engine.out = options.out;
    engine.where = options.where;
    engine.initial = options.initial;
    if (named(ufunc, "add") || named(ufunc, "multiply")) {
        engine.dtype = options.dtype;
        return named(ufunc, "add") ? sum(a, engine) : prod(a, engine);
    }
    const bool logical = named(ufunc, "logical_and") || named(ufunc, "logical_or");
    if (logical && (!options.dtype || *options.dtype == DType::bool_) && !options.initial)
        return named(ufunc, "logical_and") ? all(a, engine) : any(a, engine);
    const bool extreme = named(ufunc, "maximum") || named(ufunc, "minimum");
    const bool fextreme = named(ufunc, "fmax") || named(ufunc, "fmin");
    if (!extreme && !fextreme) return std::nullopt;
    const Array values = options.dtype ? a.astype(*options.dtype) : a;
    const bool largest = named(ufunc, "maximum") || named(ufunc, "fmax");
    const DTypeKind k = kind(values.dtype());
    if (fextreme && (k == DTypeKind::floating || k == DTypeKind::complex))
        return largest ? nanmax(values, engine) : nanmin(values, engine);
    return largest ? max(values, engine) : min(values, engine);
}

void launch(const Kernel& kernel, const Device& device, std::int64_t work, const UfuncMethodParams& params) {
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, work, current_stream(device));
    kernel(config, params);
}

}  // namespace

std::optional<Scalar> ufunc_identity(const Ufunc& ufunc) {
    if (named(ufunc, "add") || named(ufunc, "bitwise_or") || named(ufunc, "bitwise_xor") || named(ufunc, "gcd") ||
        named(ufunc, "hypot"))
        return Scalar(std::int64_t{0});
    if (named(ufunc, "multiply")) return Scalar(std::int64_t{1});
    if (named(ufunc, "bitwise_and")) return Scalar(std::int64_t{-1});
    if (named(ufunc, "logical_and")) return Scalar(true);
    if (named(ufunc, "logical_or") || named(ufunc, "logical_xor")) return Scalar(false);
    if (named(ufunc, "logaddexp") || named(ufunc, "logaddexp2"))
        return Scalar(-std::numeric_limits<double>::infinity());
    return std::nullopt;
}

Array ufunc_reduce(const Ufunc& ufunc, const Array& a, const UfuncReduceOptions& options) {
    require_binary(ufunc, "reduce");
    const std::vector<std::size_t> axes = reduced_axes(options.axis, a.ndim());
    if (axes.size() > 1 && !reorderable(ufunc))
        throw InvalidArgumentError(
            concat("reduction operation '", ufunc.name, "' is not reorderable, so at most one axis may be specified"));
    if (auto result = reduced_by_engine(ufunc, a, options, axes)) return *result;

    const DType dtype = fold_dtype(ufunc, a.dtype(), options.dtype, "reduce");
    const Lines lines = as_lines(a, axes, dtype);
    std::optional<Scalar> start = options.initial;
    if (!start && (options.where || (lines.n == 0 && lines.lines > 0))) {
        start = ufunc_identity(ufunc);
        if (!start && options.where)
            throw InvalidArgumentError(concat("reduction operation '", ufunc.name,
                                              "' does not have an identity, so to use a where mask one has to "
                                              "specify 'initial'"));
        if (!start)
            throw InvalidArgumentError(
                concat("zero-size array to reduction operation ", ufunc.name, " which has no identity"));
    }
    Array result = Array::empty({lines.lines}, dtype, a.device());
    if (lines.lines > 0) {
        const StreamRef stream = current_stream(a.device());
        UfuncMethodParams p;
        p.x = launch_address(lines.data, stream);
        p.out = launch_address(result, stream);
        std::optional<Array> initial, mask;
        if (start) {
            initial = full({1}, *start, dtype, Order::C, a.device());
            p.initial = launch_address(*initial, stream);
        }
        if (options.where) {
            mask = as_lines(broadcast_to(*options.where, a.shape()), axes, DType::bool_).data;
            p.mask = launch_address(*mask, stream);
        }
        p.lines = lines.lines;
        p.n = lines.n;
        const Kernel kernel = method_kernel(a.device(), ufunc, *folding_loop(ufunc, dtype), dtype, dtype, Method::fold);
        launch(kernel, a.device(), lines.lines, p);
    }
    Shape shape;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end())
            shape.push_back(a.shape()[d]);
        else if (options.keepdims)
            shape.push_back(1);
    return deliver(result.reshape(shape), options.out, "reduce");
}

Array ufunc_accumulate(const Ufunc& ufunc, const Array& a, std::int64_t axis, std::optional<DType> dtype,
                       const std::optional<Array>& out) {
    require_binary(ufunc, "accumulate");
    if (a.ndim() == 0) throw InvalidArgumentError("cannot accumulate on a scalar");
    const std::size_t along = normalize_axis(axis, a.ndim());
    if (named(ufunc, "add") || named(ufunc, "multiply")) {
        ScanOptions scan{static_cast<std::int64_t>(along), dtype, out};
        return named(ufunc, "add") ? cumsum(a, scan) : cumprod(a, scan);
    }
    const DType loop_dtype = fold_dtype(ufunc, a.dtype(), dtype, "accumulate");
    const Lines lines = as_lines(a, {along}, loop_dtype);
    const Array result = Array::empty({lines.lines, lines.n}, loop_dtype, a.device());
    if (lines.lines > 0 && lines.n > 0) {
        const StreamRef stream = current_stream(a.device());
        UfuncMethodParams p;
        p.x = launch_address(lines.data, stream);
        p.out = launch_address(result, stream);
        p.lines = lines.lines;
        p.n = lines.n;
        p.accumulate = 1;
        const Kernel kernel =
            method_kernel(a.device(), ufunc, *folding_loop(ufunc, loop_dtype), loop_dtype, loop_dtype, Method::fold);
        launch(kernel, a.device(), lines.lines, p);
    }
    return deliver(restore_axis(result, lines.kept, lines.n, along), out, "accumulate");
}

Array ufunc_reduceat(const Ufunc& ufunc, const Array& a, const Array& indices, std::int64_t axis,
                     std::optional<DType> dtype, const std::optional<Array>& out) {
    require_binary(ufunc, "reduceat");
    if (a.ndim() == 0) throw InvalidArgumentError("reduceat: the array has no axis to reduce along (0-d)");
    if (indices.ndim() != 1)
        throw InvalidArgumentError(
            concat("reduceat: indices must be 1-d, not of shape ", format_shape(indices.shape())));
    const DTypeKind index_kind = kind(indices.dtype());
    if (index_kind != DTypeKind::signed_integer && index_kind != DTypeKind::unsigned_integer)
        throw DTypeError(concat("reduceat: indices must be integers, not ", to_string(indices.dtype())));
    const std::size_t along = normalize_axis(axis, a.ndim());
    const DType loop_dtype = fold_dtype(ufunc, a.dtype(), dtype, "reduceat");
    const Array starts = ascontiguousarray(indices, DType::int64);
    const std::int64_t extent = a.shape()[along];
    for (std::int64_t start : starts.to_vector<std::int64_t>())
        if (start < 0 || start >= extent)
            throw IndexError(concat("index ", start, " out-of-bounds in reduceat [0, ", extent, ")"));
    const Lines lines = as_lines(a, {along}, loop_dtype);
    const std::int64_t segments = starts.size();
    const Array result = Array::empty({lines.lines, segments}, loop_dtype, a.device());
    if (lines.lines > 0 && segments > 0) {
        const StreamRef stream = current_stream(a.device());
        UfuncMethodParams p;
        p.x = launch_address(lines.data, stream);
        p.out = launch_address(result, stream);
        p.starts = launch_address(starts, stream);
        p.lines = lines.lines;
        p.n = lines.n;
        p.segments = segments;
        const Kernel kernel = method_kernel(a.device(), ufunc, *folding_loop(ufunc, loop_dtype), loop_dtype, loop_dtype,
                                            Method::reduceat);
        launch(kernel, a.device(), lines.lines * segments, p);
    }
    return deliver(restore_axis(result, lines.kept, segments, along), out, "reduceat");
}

Array element_offsets(const Array& a) {
    Array offsets = zeros(a.shape(), DType::int64, Order::C, a.device());
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        if (a.shape()[d] <= 1) continue;
        Shape along(a.ndim(), 1);
        along[d] = a.shape()[d];
        const Array steps = arange(Scalar(std::int64_t{0}), Scalar(a.shape()[d] * a.strides()[d]),
                                   Scalar(a.strides()[d]), DType::int64, a.device())
                                .reshape(along);
        add(offsets, steps, offsets);
    }
    return offsets;
}

namespace {

// How ufunc.at applies `ufunc` to `a` with `b`: its loop, b's dtype and the kernel's method.
struct AtPlan {
    const UfuncLoop* loop = nullptr;
    DType b_dtype = DType::bool_;
    Method method = Method::at;
};

AtPlan plan_at(const Ufunc& ufunc, const Array& a, const std::optional<ElementwiseOperand>& b) {
    if (ufunc.nout != 1 || ufunc.nin > 2)
        throw InvalidArgumentError(concat("at: ", ufunc.name, " has ", int(ufunc.nin), " inputs and ", int(ufunc.nout),
                                          " outputs; at takes ufuncs of one or two inputs and one output"));
    if (ufunc.nin == 2 && !b) throw InvalidArgumentError(concat("second operand needed for ufunc ", ufunc.name));
    if (ufunc.nin == 1 && b)
        throw InvalidArgumentError(concat("second operand provided when ufunc ", ufunc.name, " is unary"));
    std::vector<DType> inputs{a.dtype()};
    if (b) {
        const DType arrays[1] = {a.dtype()};
        if (const Array* array = b->array())
            inputs.push_back(array->dtype());
        else if (const Scalar* scalar = b->scalar())
            inputs.push_back(scalar->weak_kind() ? weak_scalar_dtype(arrays, *scalar->weak_kind()) : scalar->dtype());
    }
    refuse_boolean_arithmetic(ufunc, inputs);
    AtPlan plan;
    plan.loop = select_loop(ufunc, inputs);
    if (!plan.loop)
        throw DTypeError(concat("ufunc '", ufunc.name, "' not supported for the input types ", to_string(a.dtype()),
                                b ? concat(" and ", to_string(inputs[1])) : std::string()));
    const UfuncLoop& loop = *plan.loop;
    const DType result_dtype = loop.dtypes[ufunc.nin];
    if (!can_cast(result_dtype, a.dtype(), Casting::same_kind))
        throw DTypeError(concat("Cannot cast ufunc '", ufunc.name, "' output from ", to_string(result_dtype), " to ",
                                to_string(a.dtype()), " with casting rule 'same_kind'"));
    plan.b_dtype = b ? loop.dtypes[1] : a.dtype();
    // add.at in a's own dtype, where the hardware adds atomically: every index at once.
    const DType d = a.dtype();
    if (ufunc.id == UfuncId::add && b && loop.dtypes[0] == d && loop.dtypes[1] == d &&
        (d == DType::int32 || d == DType::uint32 || d == DType::int64 || d == DType::uint64 || d == DType::float32 ||
         d == DType::float64)) {
        plan.method = Method::add_at;
        return plan;
    }
    // The ufuncs whose updates commute exactly, on 4- and 8-byte dtypes: compare-and-swap, every
    // index at once (floats' add and multiply round differently in another order: those stay in order).
    const bool integral_type = kind(d) == DTypeKind::signed_integer || kind(d) == DTypeKind::unsigned_integer;
    const bool commutes = named(ufunc, "maximum") || named(ufunc, "minimum") || named(ufunc, "fmax") ||
                          named(ufunc, "fmin") || named(ufunc, "bitwise_and") || named(ufunc, "bitwise_or") ||
                          named(ufunc, "bitwise_xor") ||
                          (integral_type && (named(ufunc, "add") || named(ufunc, "multiply")));
    if (commutes && b && ufunc.nin == 2 && loop.dtypes[0] == d && loop.dtypes[1] == d && loop.dtypes[2] == d &&
        (itemsize(d) == 4 || itemsize(d) == 8))
        plan.method = Method::cas_at;
    return plan;
}

// add.at with keys into a 1-d `a` small enough for a copy in each block's shared memory, where the
// updates outnumber the copies' elements by far (each block adds its whole copy into `a` at the end):
// launched and true, or false where the atomic kernel is the better one.
bool launch_shared_add_at(const Ufunc& ufunc, const AtPlan& plan, const Array& a, DType key_dtype, std::int64_t count,
                          UfuncMethodParams p) {
    constexpr std::uint32_t threads = 1024;
    constexpr std::int64_t updates_per_copied_element = 8;
    const Device& device = a.device();
    const DeviceProperties& properties = device.properties();
    const std::int64_t extent = a.shape()[0];
    const auto window_bytes = static_cast<std::size_t>(extent) * itemsize(a.dtype());
    if (window_bytes == 0 || window_bytes > properties.limits.shared_memory_per_block_optin) return false;
    const std::int64_t multiprocessors = std::max(1, properties.multiprocessor_count);
    // The most blocks that could share the work: each needs at least its copy's worth of updates.
    if (count < updates_per_copied_element * multiprocessors * extent) return false;
    const Kernel kernel =
        method_kernel(device, ufunc, *plan.loop, a.dtype(), plan.b_dtype, Method::shared_add_at, key_dtype);
    if (kernel.attributes().max_dynamic_shared_bytes < window_bytes) kernel.set_max_dynamic_shared_bytes(window_bytes);
    const std::int64_t resident = kernel.max_active_blocks_per_multiprocessor(threads, window_bytes);
    if (resident < 1) return false;
    // As many blocks as run at once, fewer where the updates would not repay their copies.
    const std::int64_t blocks =
        std::clamp<std::int64_t>(count / (updates_per_copied_element * extent), 1, resident * multiprocessors);
    p.window = extent;
    LaunchConfig config;
    config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    config.block = Dim3(threads);
    config.shared_bytes = window_bytes;
    config.stream = current_stream(device);
    kernel(config, p);
    return true;
}

// Applies the plan to the elements `positions` names (byte offsets, or keys of `key_dtype`), b
// broadcast to positions' shape. A scalar b is one element every update reads.
void apply_at(const Ufunc& ufunc, const AtPlan& plan, const Array& a, const Array& positions,
              std::optional<DType> key_dtype, const std::optional<ElementwiseOperand>& b, UfuncMethodParams p) {
    const std::int64_t count = positions.size();
    std::optional<Array> values;
    if (b && b->array()) values = ascontiguousarray(broadcast_to(*b->array(), positions.shape()), plan.b_dtype);
    if (b && b->scalar()) {
        values = full(Shape{1}, *b->scalar(), plan.b_dtype, Order::C, a.device());
        p.b_step = 0;
    }
    const StreamRef stream = current_stream(a.device());
    p.x = launch_address(a, stream);
    p.out = values ? launch_address(*values, stream) : 0;
    p.starts = launch_address(positions, stream);
    p.lines = count;
    const DType d = a.dtype();
    if (plan.method == Method::add_at && key_dtype && launch_shared_add_at(ufunc, plan, a, *key_dtype, count, p))
        return;
    const Kernel kernel = method_kernel(a.device(), ufunc, *plan.loop, d, plan.b_dtype, plan.method, key_dtype);
    if (plan.method != Method::at) {
        launch(kernel, a.device(), count, p);
        return;
    }
    LaunchConfig config;
    config.grid = Dim3(1);
    config.block = Dim3(1);
    config.stream = stream;
    kernel(config, p);
}

}  // namespace

void ufunc_at(const Ufunc& ufunc, const Array& a, const Array& offsets, const std::optional<ElementwiseOperand>& b) {
    const AtPlan plan = plan_at(ufunc, a, b);
    if (offsets.size() == 0) return;
    apply_at(ufunc, plan, a, ascontiguousarray(offsets, DType::int64), std::nullopt, b, {});
}

void ufunc_at_keys(const Ufunc& ufunc, const Array& a, const Array& keys, const std::optional<ElementwiseOperand>& b) {
    if (a.ndim() != 1)
        throw InvalidArgumentError(concat("at: keys name elements of a 1-d array, not of ", a.ndim(), "-d"));
    const DTypeKind key_kind = kind(keys.dtype());
    if (key_kind != DTypeKind::signed_integer && key_kind != DTypeKind::unsigned_integer)
        throw IndexError(
            concat("arrays used as indices must be of integer (or boolean) type, not ", to_string(keys.dtype())));
    if (keys.device() != a.device())
        throw InvalidArgumentError(concat("at: the keys are on ", keys.device().name(), " ", keys.device().ordinal(),
                                          " and the array on ", a.device().name(), " ", a.device().ordinal(),
                                          " (copy one over first)"));
    const AtPlan plan = plan_at(ufunc, a, b);
    if (keys.size() == 0) return;
    const Array contiguous_keys = ascontiguousarray(keys);
    // The lowest position of an update whose key is out of range, or ~0.
    Array error = Array::empty({1}, DType::uint64, a.device());
    const std::byte none[8] = {std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff},
                               std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff}};
    error.fill_bytes(none);
    UfuncMethodParams p;
    p.extent = a.shape()[0];
    p.step = a.strides()[0];
    p.error = launch_address(error, current_stream(a.device()));
    apply_at(ufunc, plan, a, contiguous_keys, keys.dtype(), b, p);
    const std::uint64_t position = error.to_vector<std::uint64_t>()[0];
    if (position == ~std::uint64_t{0}) return;
    // NumPy's message, the key as its dtype reads (a uint64 one may not fit int64).
    const Array key = contiguous_keys.reshape({-1}).index({static_cast<std::int64_t>(position)});
    const std::string text = key.dtype() == DType::uint64
                                 ? std::to_string(key.to_vector<std::uint64_t>()[0])
                                 : std::to_string(key.astype(DType::int64).to_vector<std::int64_t>()[0]);
    throw IndexError(concat("index ", text, " is out of bounds for axis 0 with size ", a.shape()[0]));
}

}  // namespace gpukit::detail
