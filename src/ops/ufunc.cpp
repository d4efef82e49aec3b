// src/ops/ufunc.cpp: the ufunc table read from src/ops/ufuncs.def, loop selection, the entry point,
// and the free functions of gpukit/elementwise.hpp, one per row.
#include "ops/ufunc.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpukit/elementwise.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

struct KindExpressions {
    std::string_view boolean, signed_integer, unsigned_integer, floating, complex;
    std::string_view of(DType dtype) const {
        switch (kind(dtype)) {
            case DTypeKind::boolean: return boolean;
            case DTypeKind::signed_integer: return signed_integer;
            case DTypeKind::unsigned_integer: return unsigned_integer;
            case DTypeKind::floating: return floating;
            case DTypeKind::complex: return complex;
        }
        return {};
    }
};

// "ii->i ff->f" into loops, each with its kind's expression; expressions that name gk_loop_t get
// its typedef, their text kept in `texts`.
Ufunc make_ufunc(UfuncId id, std::string_view name, int nin, int nout, std::string_view loops,
                 const KindExpressions& expressions, std::deque<std::string>& texts) {
    Ufunc ufunc{id, name, static_cast<std::uint8_t>(nin), static_cast<std::uint8_t>(nout), {}, {}, false};
    while (!loops.empty()) {
        const std::size_t end = std::min(loops.find(' '), loops.size());
        const std::string_view spec = loops.substr(0, end);
        loops.remove_prefix(std::min(end + 1, loops.size()));
        if (spec.empty()) continue;
        if (spec.size() != static_cast<std::size_t>(nin) + 2 + static_cast<std::size_t>(nout) ||
            spec.substr(nin, 2) != "->")
            throw std::logic_error(concat("ufuncs.def: loop '", spec, "' of ", name, " is not of ", nin, " inputs and ",
                                          nout, " outputs"));
        UfuncLoop loop;
        for (int k = 0; k < nin; ++k) loop.dtypes[k] = dtype_of_letter(spec[k]);
        for (int k = 0; k < nout; ++k) loop.dtypes[nin + k] = dtype_of_letter(spec[nin + 2 + k]);
        loop.expression = expressions.of(loop.dtypes[0]);
        if (loop.expression.empty())
            throw std::logic_error(
                concat("ufuncs.def: loop '", spec, "' of ", name, " has no expression for its kind"));
        if (loop.expression.find("gk_loop_t") != std::string_view::npos)
            loop.expression = texts.emplace_back(with_loop_type(loop.expression, loop.dtypes[0]));
        ufunc.loops.push_back(loop);
    }
    return ufunc;
}

const std::vector<Ufunc>& table() {
    static std::deque<std::string> texts;  // the expressions made here (a deque: they stay where they are)
    static const std::vector<Ufunc> ufuncs = [] {
        std::vector<Ufunc> rows;
#define GPUKIT_UFUNC(name, nin, nout, loops, boolean, signed_, unsigned_, floating, complex) \
    rows.push_back(                                                                          \
        make_ufunc(UfuncId::name, #name, nin, nout, loops, {boolean, signed_, unsigned_, floating, complex}, texts));
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC
        for (Ufunc& row : rows) {  // spans into the loops, now that they stay where they are
            const std::size_t count = std::size_t{row.nin} + row.nout;
            for (const UfuncLoop& loop : row.loops)
                row.generic.push_back({loop.expression, std::span<const DType>(loop.dtypes.data(), count)});
            row.compares = row.nin == 2 && row.nout == 1 && !row.loops.empty() &&
                           std::all_of(row.loops.begin(), row.loops.end(),
                                       [](const UfuncLoop& loop) { return loop.dtypes[2] == DType::bool_; });
        }
        return rows;
    }();
    return ufuncs;
}

std::string dtype_list(std::span<const DType> dtypes) {
    std::string text = "(";
    for (std::size_t k = 0; k < dtypes.size(); ++k)
        text += concat(k ? ", " : "", "dtype('", to_string(dtypes[k]), "')");
    return text + ")";
}

}  // namespace

std::span<const Ufunc> ufunc_table() { return table(); }

namespace {
// NumPy's type letters (E: bfloat16), in DType's order.
constexpr std::pair<char, DType> type_letters[] = {
    {'?', DType::bool_},   {'b', DType::int8},      {'h', DType::int16},     {'i', DType::int32},
    {'q', DType::int64},   {'B', DType::uint8},     {'H', DType::uint16},    {'I', DType::uint32},
    {'Q', DType::uint64},  {'e', DType::float16},   {'E', DType::bfloat16},  {'f', DType::float32},
    {'d', DType::float64}, {'F', DType::complex64}, {'D', DType::complex128}};
}  // namespace

DType dtype_of_letter(char letter) {
    for (const auto& [known, dtype] : type_letters)
        if (known == letter) return dtype;
    throw std::logic_error(concat("ufuncs.def: unknown type letter '", letter, "'"));
}

char type_letter(DType dtype) {
    for (const auto& [letter, known] : type_letters)
        if (known == dtype) return letter;
    return '!';
}

std::string with_loop_type(std::string_view expression, DType loop_dtype) {
    if (expression.find("gk_loop_t") == std::string_view::npos) return std::string(expression);
    return concat("typedef ", storage_c_type(loop_dtype), " gk_loop_t; ", expression);
}
const Ufunc& ufunc(UfuncId id) { return table()[static_cast<std::size_t>(id)]; }

namespace {

const UfuncLoop* search_loops(const Ufunc& ufunc, std::span<const DType> inputs) {
    for (const UfuncLoop& loop : ufunc.loops) {
        bool fits = true;
        for (std::size_t k = 0; k < inputs.size() && fits; ++k)
            fits = can_cast(inputs[k], loop.dtypes[k], Casting::safe);
        if (fits) return &loop;
    }
    return nullptr;
}

}  // namespace

const UfuncLoop* select_loop(const Ufunc& ufunc, std::span<const DType> inputs) {
    // The search casts each input to each loop's dtypes in turn (a dozen tests for add(float32,
    // float32)); with one or two inputs its answer is remembered per ufunc and dtypes: 1 + the
    // loop's index, -1 for none, 0 not searched yet.
    if (inputs.empty() || inputs.size() > 2) return search_loops(ufunc, inputs);
    constexpr std::size_t dtypes = std::size(dtype_table);
    static auto* memo = new std::vector<std::atomic<std::int16_t>>(ufunc_table().size() * dtypes * dtypes);
    const std::size_t second = inputs.size() == 2 ? static_cast<std::size_t>(inputs[1]) : 0;
    const std::size_t slot =
        (static_cast<std::size_t>(ufunc.id) * dtypes + static_cast<std::size_t>(inputs[0])) * dtypes + second;
    std::atomic<std::int16_t>& remembered = (*memo)[slot];
    const std::int16_t known = remembered.load(std::memory_order_relaxed);
    if (known > 0) return &ufunc.loops[static_cast<std::size_t>(known - 1)];
    if (known < 0) return nullptr;
    const UfuncLoop* loop = search_loops(ufunc, inputs);
    remembered.store(loop ? static_cast<std::int16_t>(loop - ufunc.loops.data() + 1) : std::int16_t{-1},
                     std::memory_order_relaxed);
    return loop;
}

DType weak_scalar_dtype(std::span<const DType> arrays, PythonScalar scalar) {
    const PythonScalar scalars[] = {scalar};
    return result_type(arrays, scalars);
}

namespace {

// The dtype each input takes part in loop selection with: an array's or typed scalar's own; a weak
// scalar's from the others by NEP 50 (ScalarOverflowError when a Python int does not fit it, except
// in comparisons, where NumPy compares such ints exactly: they keep int64 or uint64).
// A few dtypes, one per operand, kept inline: a call's host time is mostly its heap allocations.
class OperandDTypes {
public:
    void push_back(DType dtype) { items_.at(size_++) = dtype; }
    operator std::span<const DType>() const { return {items_.data(), size_}; }  // NOLINT(google-explicit-constructor)
    DType operator[](std::size_t k) const { return items_[k]; }

private:
    std::array<DType, max_elementwise_operands> items_{};
    std::size_t size_ = 0;
};

OperandDTypes input_dtypes(const Ufunc& ufunc, std::span<const ElementwiseOperand> inputs) {
    OperandDTypes strong;
    for (const ElementwiseOperand& input : inputs) {
        if (input.array())
            strong.push_back(input.array()->dtype());
        else if (!input.scalar()->weak_kind())
            strong.push_back(input.scalar()->dtype());
    }
    OperandDTypes dtypes;
    for (const ElementwiseOperand& input : inputs) {
        if (input.array()) {
            dtypes.push_back(input.array()->dtype());
            continue;
        }
        const Scalar& scalar = *input.scalar();
        if (!scalar.weak_kind()) {
            dtypes.push_back(scalar.dtype());
            continue;
        }
        const PythonScalar kinds[] = {*scalar.weak_kind()};
        DType dtype = result_type(strong, kinds);
        if (!scalar.fits(dtype)) {
            if (!ufunc.compares) (void)scalar.as(dtype);  // throws NumPy's OverflowError
            dtype = scalar.dtype();
        }
        dtypes.push_back(dtype);
    }
    return dtypes;
}

}  // namespace

// NumPy has no boolean negative or subtract (their int8 loops would take bools): TypeError, in its words.
void refuse_boolean_arithmetic(const Ufunc& ufunc, std::span<const DType> inputs) {
    const bool all_bool = std::all_of(inputs.begin(), inputs.end(), [](DType dtype) { return dtype == DType::bool_; });
    if (!all_bool) return;
    if (ufunc.id == UfuncId::negative)
        throw DTypeError(
            "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not "
            "function instead.");
    if (ufunc.id == UfuncId::subtract)
        throw DTypeError(
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the "
            "logical_xor function instead.");
}

namespace {

const UfuncLoop& choose_loop(const Ufunc& ufunc, std::span<const DType> inputs, const UfuncOptions& options) {
    if (!options.dtype) {
        if (const UfuncLoop* loop = select_loop(ufunc, inputs)) return *loop;
        throw DTypeError(concat("ufunc '", ufunc.name, "' did not contain a loop with signature matching types ",
                                dtype_list(inputs)));
    }
    for (const UfuncLoop& loop : ufunc.loops) {
        bool fits = true;
        for (std::size_t k = 0; k < ufunc.nout && fits; ++k) fits = loop.dtypes[ufunc.nin + k] == *options.dtype;
        for (std::size_t k = 0; k < inputs.size() && fits; ++k)
            fits = can_cast(inputs[k], loop.dtypes[k], options.casting);
        if (fits) return loop;
    }
    throw DTypeError(concat("No loop matching the specified signature and casting was found for ufunc ", ufunc.name,
                            " (inputs ", dtype_list(inputs), ", dtype=", to_string(*options.dtype), ", casting='",
                            to_string(options.casting), "')"));
}

}  // namespace

std::vector<Array> call_ufunc(const Ufunc& ufunc, std::span<const ElementwiseOperand> inputs,
                              std::span<const Array* const> outputs, const UfuncOptions& options) {
    if (inputs.size() != ufunc.nin || (!outputs.empty() && outputs.size() != ufunc.nout))
        throw InvalidArgumentError(concat(ufunc.name, " takes ", int(ufunc.nin), " inputs and ", int(ufunc.nout),
                                          " outputs, not ", inputs.size(), " and ", outputs.size()));
    const OperandDTypes dtypes = input_dtypes(ufunc, inputs);
    if (!options.dtype) refuse_boolean_arithmetic(ufunc, dtypes);
    const UfuncLoop& loop = choose_loop(ufunc, dtypes, options);
    for (std::size_t k = 0; k < inputs.size(); ++k)
        if (inputs[k].array() && !can_cast(dtypes[k], loop.dtypes[k], options.casting))
            throw DTypeError(concat("Cannot cast ufunc '", ufunc.name, "' input ", k, " from dtype('",
                                    to_string(dtypes[k]), "') to dtype('", to_string(loop.dtypes[k]),
                                    "') with casting rule '", to_string(options.casting), "'"));

    const Array* first = nullptr;
    bool one_shape = true;  // every array of one shape (the common case: nothing to broadcast)
    for (const ElementwiseOperand& input : inputs) {
        if (!input.array()) continue;
        if (!first) first = input.array();
        one_shape = one_shape && input.array()->shape() == first->shape();
    }
    const Array* given = nullptr;  // the first output given
    for (const Array* output : outputs) {
        if (!output) continue;
        if (!given) given = output;
        if (!first) first = output;
        one_shape = one_shape && output->shape() == first->shape();
    }
    if (!first)
        throw InvalidArgumentError(
            concat(ufunc.name, ": at least one operand must be an array (make one with gpukit.asarray)"));
    Shape shape;
    if (one_shape) {
        shape = first->shape();
    } else {
        std::vector<Shape> shapes;
        for (const ElementwiseOperand& input : inputs)
            if (input.array()) shapes.push_back(input.array()->shape());
        shape = broadcast_shapes(shapes);
        if (given) {
            shapes.push_back(given->shape());
            if (broadcast_shapes(shapes) != given->shape())
                throw InvalidArgumentError(concat("non-broadcastable output operand with shape ",
                                                  format_shape(given->shape()), " doesn't match the broadcast shape ",
                                                  format_shape(broadcast_shapes(shapes))));
            shape = given->shape();
        }
    }

    std::vector<Array> results;
    results.reserve(ufunc.nout);
    for (std::size_t k = 0; k < ufunc.nout; ++k) {
        const DType computed = loop.dtypes[ufunc.nin + k];
        const Array* output = outputs.empty() ? nullptr : outputs[k];
        if (!output) {
            results.push_back(Array::empty(shape, computed, first->device()));
            continue;
        }
        if (!can_cast(computed, output->dtype(), options.casting))
            throw DTypeError(concat("Cannot cast ufunc '", ufunc.name, "' output from dtype('", to_string(computed),
                                    "') to dtype('", to_string(output->dtype()), "') with casting rule '",
                                    to_string(options.casting), "'"));
        if (output->shape() != shape)
            throw InvalidArgumentError(concat(ufunc.name, ": the output has shape ", format_shape(output->shape()),
                                              ", not the broadcast shape ", format_shape(shape)));
        results.push_back(*output);
    }
    std::array<const Array*, max_elementwise_operands> targets{};
    for (std::size_t k = 0; k < results.size(); ++k) targets[k] = &results[k];

    const std::size_t count = std::size_t{ufunc.nin} + ufunc.nout;
    const auto index = static_cast<std::size_t>(&loop - ufunc.loops.data());
    const ElementwiseLoop launch{static_cast<std::uint16_t>(ufunc_op_base + static_cast<std::uint16_t>(ufunc.id)),
                                 loop.expression, std::span<const DType>(loop.dtypes.data(), count), ufunc.generic,
                                 index};
    launch_elementwise(launch, inputs, std::span<const Array* const>(targets.data(), results.size()), options.where);
    return results;
}

void run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs, std::span<const Array* const> outputs,
               Casting casting) {
    std::vector<ElementwiseOperand> operands;
    operands.reserve(inputs.size());
    for (const Array* input : inputs) operands.emplace_back(*input);
    UfuncOptions options;
    options.casting = casting;
    call_ufunc(ufunc, operands, outputs, options);
}

std::vector<Array> run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs) {
    std::vector<ElementwiseOperand> operands;
    operands.reserve(inputs.size());
    for (const Array* input : inputs) operands.emplace_back(*input);
    return call_ufunc(ufunc, operands);
}

}  // namespace gpukit::detail

namespace gpukit {

namespace {

std::vector<Array> run(detail::UfuncId id, std::initializer_list<const Array*> inputs) {
    return detail::run_ufunc(detail::ufunc(id), std::span<const Array* const>(inputs.begin(), inputs.size()));
}
void run(detail::UfuncId id, std::initializer_list<const Array*> inputs, std::initializer_list<const Array*> outputs,
         Casting casting) {
    detail::run_ufunc(detail::ufunc(id), std::span<const Array* const>(inputs.begin(), inputs.size()),
                      std::span<const Array* const>(outputs.begin(), outputs.size()), casting);
}
std::pair<Array, Array> pair_of(std::vector<Array> results) { return {std::move(results[0]), std::move(results[1])}; }

}  // namespace

// The free functions, one per row of src/ops/ufuncs.def, by its numbers of inputs and outputs.
#define GPUKIT_DEFINE_UFUNC_1_1(name)                                                     \
    Array name(const Array& x) { return std::move(run(detail::UfuncId::name, {&x})[0]); } \
    void name(const Array& x, const Array& out, Casting casting) { run(detail::UfuncId::name, {&x}, {&out}, casting); }
#define GPUKIT_DEFINE_UFUNC_2_1(name)                                                                         \
    Array name(const Array& a, const Array& b) { return std::move(run(detail::UfuncId::name, {&a, &b})[0]); } \
    void name(const Array& a, const Array& b, const Array& out, Casting casting) {                            \
        run(detail::UfuncId::name, {&a, &b}, {&out}, casting);                                                \
    }
#define GPUKIT_DEFINE_UFUNC_3_1(name)                                                              \
    Array name(const Array& a, const Array& b, const Array& c) {                                   \
        return std::move(run(detail::UfuncId::name, {&a, &b, &c})[0]);                             \
    }                                                                                              \
    void name(const Array& a, const Array& b, const Array& c, const Array& out, Casting casting) { \
        run(detail::UfuncId::name, {&a, &b, &c}, {&out}, casting);                                 \
    }
#define GPUKIT_DEFINE_UFUNC_1_2(name)                                                                  \
    std::pair<Array, Array> name(const Array& x) { return pair_of(run(detail::UfuncId::name, {&x})); } \
    void name(const Array& x, const Array& out0, const Array& out1, Casting casting) {                 \
        run(detail::UfuncId::name, {&x}, {&out0, &out1}, casting);                                     \
    }
#define GPUKIT_DEFINE_UFUNC_2_2(name)                                                                  \
    std::pair<Array, Array> name(const Array& a, const Array& b) {                                     \
        return pair_of(run(detail::UfuncId::name, {&a, &b}));                                          \
    }                                                                                                  \
    void name(const Array& a, const Array& b, const Array& out0, const Array& out1, Casting casting) { \
        run(detail::UfuncId::name, {&a, &b}, {&out0, &out1}, casting);                                 \
    }
#define GPUKIT_UFUNC(name, nin, nout, ...) GPUKIT_DEFINE_UFUNC_##nin##_##nout(name)
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC

}  // namespace gpukit
