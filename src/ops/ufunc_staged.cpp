// src/ops/ufunc_staged.cpp: the staged rows of src/ops/ufuncs.def as a table, their loop selection
// and entry point (as src/ops/ufunc.cpp's), and their free functions of gpukit/elementwise.hpp.
#include "ops/ufunc_staged.hpp"

#include <algorithm>
#include <stdexcept>

#include "array/convert.hpp"
#include "gpukit/elementwise.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/generator.hpp"
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

StagedUfunc make_staged(StagedUfuncId id, std::string_view name, int nin, int nout, std::string_view loops,
                        const KindExpressions& expressions) {
    StagedUfunc ufunc{id, name, static_cast<std::uint8_t>(nin), static_cast<std::uint8_t>(nout), {}};
    if (static_cast<std::size_t>(nin) + static_cast<std::size_t>(nout) > max_staged_operands)
        throw std::logic_error(concat("ufuncs.def: ", name, " has more than ", max_staged_operands, " operands"));
    while (!loops.empty()) {
        const std::size_t end = std::min(loops.find(' '), loops.size());
        const std::string_view spec = loops.substr(0, end);
        loops.remove_prefix(std::min(end + 1, loops.size()));
        if (spec.empty()) continue;
        if (spec.size() != static_cast<std::size_t>(nin) + 2 + static_cast<std::size_t>(nout) ||
            spec.substr(nin, 2) != "->")
            throw std::logic_error(concat("ufuncs.def: loop '", spec, "' of ", name, " is not of ", nin, " inputs and ",
                                          nout, " outputs"));
        StagedLoop loop;
        for (int k = 0; k < nin; ++k) loop.dtypes[k] = dtype_of_letter(spec[k]);
        for (int k = 0; k < nout; ++k) loop.dtypes[nin + k] = dtype_of_letter(spec[nin + 2 + k]);
        const std::string_view expression = expressions.of(loop.dtypes[0]);
        if (expression.empty())
            throw std::logic_error(
                concat("ufuncs.def: loop '", spec, "' of ", name, " has no expression for its kind"));
        loop.expression = with_loop_type(expression, loop.dtypes[0]);
        ufunc.loops.push_back(std::move(loop));
    }
    return ufunc;
}

const std::vector<StagedUfunc>& table() {
    static const std::vector<StagedUfunc> ufuncs = [] {
        std::vector<StagedUfunc> rows;
#define GPUKIT_UFUNC(...)
#define GPUKIT_UFUNC_STAGED(name, nin, nout, loops, boolean, signed_, unsigned_, floating, complex) \
    rows.push_back(                                                                                 \
        make_staged(StagedUfuncId::name, #name, nin, nout, loops, {boolean, signed_, unsigned_, floating, complex}));
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC_STAGED
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

const StagedLoop& loop_for(const StagedUfunc& ufunc, std::span<const Array* const> inputs) {
    std::vector<DType> input_dtypes;
    for (const Array* input : inputs) input_dtypes.push_back(input->dtype());
    const StagedLoop* loop = select_loop(ufunc, input_dtypes);
    if (!loop || inputs.size() != ufunc.nin)
        throw InvalidArgumentError(concat("ufunc '", ufunc.name,
                                          "' did not contain a loop with signature matching types ",
                                          dtype_list(input_dtypes)));
    return *loop;
}

}  // namespace

std::span<const StagedUfunc> staged_ufunc_table() { return table(); }
const StagedUfunc& staged_ufunc(StagedUfuncId id) { return table()[static_cast<std::size_t>(id)]; }

std::string with_loop_type(std::string_view expression, DType loop_dtype) {
    if (expression.find("gk_loop_t") == std::string_view::npos) return std::string(expression);
    return concat("typedef ", storage_c_type(loop_dtype), " gk_loop_t; ", expression);
}

const StagedLoop* select_loop(const StagedUfunc& ufunc, std::span<const DType> inputs) {
    for (const StagedLoop& loop : ufunc.loops) {
        bool fits = true;
        for (std::size_t k = 0; k < inputs.size() && fits; ++k)
            fits = can_cast(inputs[k], loop.dtypes[k], Casting::safe);
        if (fits) return &loop;
    }
    return nullptr;
}

void run_staged_ufunc(const StagedUfunc& ufunc, std::span<const Array* const> inputs,
                      std::span<const Array* const> outputs, Casting casting) {
    if (inputs.size() != ufunc.nin || outputs.size() != ufunc.nout)
        throw InvalidArgumentError(concat(ufunc.name, " takes ", int(ufunc.nin), " inputs and ", int(ufunc.nout),
                                          " outputs, not ", inputs.size(), " and ", outputs.size()));
    const StagedLoop& loop = loop_for(ufunc, inputs);
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const DType computed = loop.dtypes[ufunc.nin + k];
        if (!can_cast(computed, outputs[k]->dtype(), casting))
            throw InvalidArgumentError(concat("Cannot cast ufunc '", ufunc.name, "' output from dtype('",
                                              to_string(computed), "') to dtype('", to_string(outputs[k]->dtype()),
                                              "') with casting rule '", to_string(casting), "'"));
    }
    std::vector<Shape> shapes;
    for (const Array* input : inputs) shapes.push_back(input->shape());
    const Shape shape = broadcast_shapes(shapes);
    for (const Array* output : outputs)
        if (output->shape() != shape)
            throw InvalidArgumentError(concat(ufunc.name, ": the result has shape ", format_shape(shape),
                                              ", which does not match the output's shape ",
                                              format_shape(output->shape())));
    const std::size_t count = std::size_t{ufunc.nin} + ufunc.nout;
    const auto op = static_cast<std::uint16_t>(staged_op_base + static_cast<std::uint16_t>(ufunc.id));
    launch_elementwise({op, loop.expression, std::span<const DType>(loop.dtypes.data(), count)}, inputs, outputs);
}

std::vector<Array> run_staged_ufunc(const StagedUfunc& ufunc, std::span<const Array* const> inputs) {
    const StagedLoop& loop = loop_for(ufunc, inputs);
    std::vector<Shape> shapes;
    for (const Array* input : inputs) shapes.push_back(input->shape());
    const Shape shape = broadcast_shapes(shapes);
    std::vector<Array> results;
    std::vector<const Array*> outputs;
    results.reserve(ufunc.nout);
    outputs.reserve(ufunc.nout);
    for (std::size_t k = 0; k < ufunc.nout; ++k)
        results.push_back(Array::empty(shape, loop.dtypes[ufunc.nin + k], inputs.front()->device()));
    for (const Array& result : results) outputs.push_back(&result);
    run_staged_ufunc(ufunc, inputs, outputs, Casting::no);
    return results;
}

Array scalar_array(const void* value, DType value_dtype, DType dtype, const Device& device) {
    std::byte element[16];
    convert_elements(static_cast<const std::byte*>(value), 0, value_dtype, element, 0, dtype, 1);
    return Array::from_host(ConstHostView(element, dtype, {}), device);
}

}  // namespace gpukit::detail

namespace gpukit {

namespace {

using detail::StagedUfuncId;

std::vector<Array> run(StagedUfuncId id, std::initializer_list<const Array*> inputs) {
    return detail::run_staged_ufunc(detail::staged_ufunc(id),
                                    std::span<const Array* const>(inputs.begin(), inputs.size()));
}
void run(StagedUfuncId id, std::initializer_list<const Array*> inputs, std::initializer_list<const Array*> outputs,
         Casting casting) {
    detail::run_staged_ufunc(detail::staged_ufunc(id), std::span<const Array* const>(inputs.begin(), inputs.size()),
                             std::span<const Array* const>(outputs.begin(), outputs.size()), casting);
}
std::pair<Array, Array> pair_of(std::vector<Array> results) { return {std::move(results[0]), std::move(results[1])}; }

}  // namespace

std::pair<Array, Array> divmod(const Array& a, const Array& b) { return pair_of(run(StagedUfuncId::divmod, {&a, &b})); }
void divmod(const Array& a, const Array& b, const Array& quotient, const Array& remainder, Casting casting) {
    run(StagedUfuncId::divmod, {&a, &b}, {&quotient, &remainder}, casting);
}
std::pair<Array, Array> frexp(const Array& x) { return pair_of(run(StagedUfuncId::frexp, {&x})); }
void frexp(const Array& x, const Array& mantissa, const Array& exponent, Casting casting) {
    run(StagedUfuncId::frexp, {&x}, {&mantissa, &exponent}, casting);
}
std::pair<Array, Array> modf(const Array& x) { return pair_of(run(StagedUfuncId::modf, {&x})); }
void modf(const Array& x, const Array& fractional, const Array& integral, Casting casting) {
    run(StagedUfuncId::modf, {&x}, {&fractional, &integral}, casting);
}
Array nextafter(const Array& a, const Array& b) { return std::move(run(StagedUfuncId::nextafter, {&a, &b})[0]); }
void nextafter(const Array& a, const Array& b, const Array& out, Casting casting) {
    run(StagedUfuncId::nextafter, {&a, &b}, {&out}, casting);
}
Array clip(const Array& a, const Array& low, const Array& high) {
    return std::move(run(StagedUfuncId::clip, {&a, &low, &high})[0]);
}
void clip(const Array& a, const Array& low, const Array& high, const Array& out, Casting casting) {
    run(StagedUfuncId::clip, {&a, &low, &high}, {&out}, casting);
}

}  // namespace gpukit
