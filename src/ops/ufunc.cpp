// src/ops/ufunc.cpp: the ufunc table read from src/ops/ufuncs.def, loop selection, the entry point,
// and the free functions of gpukit/elementwise.hpp, one per row.
#include "ops/ufunc.hpp"

#include <algorithm>
#include <stdexcept>

#include "gpukit/elementwise.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

DType dtype_of_letter(char letter) {
    switch (letter) {
        case '?': return DType::bool_;
        case 'b': return DType::int8;
        case 'h': return DType::int16;
        case 'i': return DType::int32;
        case 'q': return DType::int64;
        case 'B': return DType::uint8;
        case 'H': return DType::uint16;
        case 'I': return DType::uint32;
        case 'Q': return DType::uint64;
        case 'e': return DType::float16;
        case 'E': return DType::bfloat16;
        case 'f': return DType::float32;
        case 'd': return DType::float64;
        case 'F': return DType::complex64;
        case 'D': return DType::complex128;
        default: throw std::logic_error(concat("ufuncs.def: unknown type letter '", letter, "'"));
    }
}

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

// "ii->i ff->f" into loops, each with its kind's expression.
Ufunc make_ufunc(UfuncId id, std::string_view name, int nin, int nout, std::string_view loops,
                 const KindExpressions& expressions) {
    Ufunc ufunc{id, name, static_cast<std::uint8_t>(nin), static_cast<std::uint8_t>(nout), {}};
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
        ufunc.loops.push_back(loop);
    }
    return ufunc;
}

const std::vector<Ufunc>& table() {
    static const std::vector<Ufunc> ufuncs = [] {
        std::vector<Ufunc> rows;
#define GPUKIT_UFUNC(name, nin, nout, loops, boolean, signed_, unsigned_, floating, complex) \
    rows.push_back(                                                                          \
        make_ufunc(UfuncId::name, #name, nin, nout, loops, {boolean, signed_, unsigned_, floating, complex}));
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC
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
const Ufunc& ufunc(UfuncId id) { return table()[static_cast<std::size_t>(id)]; }

const UfuncLoop* select_loop(const Ufunc& ufunc, std::span<const DType> inputs) {
    for (const UfuncLoop& loop : ufunc.loops) {
        bool fits = true;
        for (std::size_t k = 0; k < inputs.size() && fits; ++k)
            fits = can_cast(inputs[k], loop.dtypes[k], Casting::safe);
        if (fits) return &loop;
    }
    return nullptr;
}

DType weak_scalar_dtype(std::span<const DType> arrays, PythonScalar scalar) {
    const PythonScalar scalars[] = {scalar};
    return result_type(arrays, scalars);
}

void run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs, std::span<const Array* const> outputs,
               Casting casting) {
    if (inputs.size() != ufunc.nin || outputs.size() != ufunc.nout)
        throw InvalidArgumentError(concat(ufunc.name, " takes ", int(ufunc.nin), " inputs and ", int(ufunc.nout),
                                          " outputs, not ", inputs.size(), " and ", outputs.size()));
    std::vector<DType> input_dtypes;
    std::vector<Shape> shapes;
    for (const Array* input : inputs) {
        input_dtypes.push_back(input->dtype());
        shapes.push_back(input->shape());
    }
    const UfuncLoop* loop = select_loop(ufunc, input_dtypes);
    if (!loop)
        throw InvalidArgumentError(concat("ufunc '", ufunc.name,
                                          "' did not contain a loop with signature matching types ",
                                          dtype_list(input_dtypes)));
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const DType computed = loop->dtypes[ufunc.nin + k];
        if (!can_cast(computed, outputs[k]->dtype(), casting))
            throw InvalidArgumentError(concat("Cannot cast ufunc '", ufunc.name, "' output from dtype('",
                                              to_string(computed), "') to dtype('", to_string(outputs[k]->dtype()),
                                              "') with casting rule '", to_string(casting), "'"));
    }
    const Shape shape = broadcast_shapes(shapes);
    for (const Array* output : outputs)
        if (output->shape() != shape)
            throw InvalidArgumentError(concat(ufunc.name, ": the result has shape ", format_shape(shape),
                                              ", which does not match the output's shape ",
                                              format_shape(output->shape())));
    const std::size_t count = std::size_t{ufunc.nin} + ufunc.nout;
    // OpKey::op: equal ids must mean equal expressions; the loop dtypes in the key pick the kind.
    const auto op = static_cast<std::uint16_t>(static_cast<std::uint16_t>(ufunc.id) + 1);
    launch_elementwise({op, loop->expression, std::span<const DType>(loop->dtypes.data(), count)}, inputs, outputs);
}

std::vector<Array> run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs) {
    std::vector<DType> input_dtypes;
    std::vector<Shape> shapes;
    for (const Array* input : inputs) {
        input_dtypes.push_back(input->dtype());
        shapes.push_back(input->shape());
    }
    const UfuncLoop* loop = select_loop(ufunc, input_dtypes);
    if (!loop || inputs.empty())
        throw InvalidArgumentError(concat("ufunc '", ufunc.name,
                                          "' did not contain a loop with signature matching types ",
                                          dtype_list(input_dtypes)));
    const Shape shape = broadcast_shapes(shapes);
    std::vector<Array> results;
    std::vector<const Array*> outputs;
    results.reserve(ufunc.nout);
    outputs.reserve(ufunc.nout);
    for (std::size_t k = 0; k < ufunc.nout; ++k)
        results.push_back(Array::empty(shape, loop->dtypes[ufunc.nin + k], inputs.front()->device()));
    for (const Array& result : results) outputs.push_back(&result);
    run_ufunc(ufunc, inputs, outputs, Casting::no);
    return results;
}

}  // namespace gpukit::detail

namespace gpukit {

// The free functions, one per row of src/ops/ufuncs.def, by its number of inputs.
#define GPUKIT_DEFINE_UFUNC_1(name)                                                           \
    Array name(const Array& x) {                                                              \
        const Array* inputs[] = {&x};                                                         \
        return std::move(detail::run_ufunc(detail::ufunc(detail::UfuncId::name), inputs)[0]); \
    }                                                                                         \
    void name(const Array& x, const Array& out, Casting casting) {                            \
        const Array* inputs[] = {&x};                                                         \
        const Array* outputs[] = {&out};                                                      \
        detail::run_ufunc(detail::ufunc(detail::UfuncId::name), inputs, outputs, casting);    \
    }
#define GPUKIT_DEFINE_UFUNC_2(name)                                                           \
    Array name(const Array& a, const Array& b) {                                              \
        const Array* inputs[] = {&a, &b};                                                     \
        return std::move(detail::run_ufunc(detail::ufunc(detail::UfuncId::name), inputs)[0]); \
    }                                                                                         \
    void name(const Array& a, const Array& b, const Array& out, Casting casting) {            \
        const Array* inputs[] = {&a, &b};                                                     \
        const Array* outputs[] = {&out};                                                      \
        detail::run_ufunc(detail::ufunc(detail::UfuncId::name), inputs, outputs, casting);    \
    }
#define GPUKIT_UFUNC(name, nin, nout, ...) GPUKIT_DEFINE_UFUNC_##nin(name)
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC

}  // namespace gpukit
