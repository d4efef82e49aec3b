// src/ops/reduction_kernel.cpp: CuPy's ReductionKernel over gpukit arrays: the parameter lists read
// (kernel_params.hpp), each call's types decided as ElementwiseKernel decides them, and the
// reduction run by the engine of the built-in reductions (ops/reduction/reduce.hpp), its
// expressions wrapped into the engine's operation struct:
//   map      a = (acc_t)(map_expr)            over the inputs by their names
//   reduce   a = (acc_t)(reduce_expr)         over a and b
//   post     post_map_expr                    sets the output from a
// Without identity the accumulator also holds whether it has a value (gk_maybe), so that threads
// and blocks without elements leave the result alone.
#include "gpukit/reduction_kernel.hpp"

#include <map>

#include "gpukit/creation.hpp"
#include "gpukit/error.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/kernel_params.hpp"
#include "ops/reduction/reduce.hpp"
#include "util/interned.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace detail {

struct ReductionKernelState {
    std::vector<ElementwiseParam> params;  // inputs, then the output
    std::size_t nin = 0;
    std::string map_expr, reduce_expr, post_map_expr;
    std::optional<std::string> identity;
    ReductionKernelOptions options;
    std::optional<DType> reduce_dtype;  // reduce_type as a dtype
    char reduce_placeholder = 0;        // or as a placeholder
    // The engine's operation; its expressions point into the strings below.
    CustomReduction operation;
    std::string identity_code, map_code, reduce_code, post_code, accumulator;
};

namespace {

constexpr ReservedName reduction_reserved[] = {
    {"a", "a and b are the values reduce_expr combines"},
    {"b", "a and b are the values reduce_expr combines"},
};

[[noreturn]] void wrong_dtype(const ReductionKernelState& state, const ElementwiseParam& param, DType got,
                              std::string_view expected) {
    throw DTypeError(concat("ReductionKernel ", state.operation.name, ": the argument of '", describe_param(param),
                            "' is a ", to_string(got), " array, but its type is ", expected,
                            " (arrays must have their parameter's dtype exactly, as CuPy's: convert with astype)"));
}

// The dtype of each parameter and the placeholders': the output (out=) first, then the input
// arrays, then typed scalars.
std::map<char, DType> decide_types(const ReductionKernelState& state, std::span<const ElementwiseArgument> args,
                                   const std::optional<Array>& out, std::vector<DType>& dtypes) {
    std::map<char, DType> decided;
    const auto bind = [&](const ElementwiseParam& param, DType dtype) {
        if (param.dtype) {
            if (*param.dtype != dtype) wrong_dtype(state, param, dtype, std::string(to_string(*param.dtype)));
            return;
        }
        const auto [found, inserted] = decided.try_emplace(param.placeholder, dtype);
        if (!inserted && found->second != dtype)
            wrong_dtype(state, param, dtype, concat(param.placeholder, " = ", to_string(found->second)));
    };
    if (out) bind(state.params[state.nin], out->dtype());
    for (std::size_t k = 0; k < state.nin; ++k)
        if (args[k].array()) bind(state.params[k], args[k].array()->dtype());
    for (std::size_t k = 0; k < state.nin; ++k) {
        const ElementwiseParam& param = state.params[k];
        const Scalar* scalar = args[k].scalar();
        if (!param.dtype && scalar && !scalar->weak_kind()) decided.try_emplace(param.placeholder, scalar->dtype());
    }
    dtypes.clear();
    const auto dtype_of_type = [&](std::optional<DType> fixed, char placeholder, std::string_view what) {
        if (fixed) return *fixed;
        const auto found = decided.find(placeholder);
        if (found == decided.end())
            throw DTypeError(concat("ReductionKernel ", state.operation.name, ": nothing decides the type placeholder ",
                                    placeholder, " of ", what,
                                    ": no array argument is of that type; pass one, a typed scalar or out="));
        return found->second;
    };
    for (const ElementwiseParam& param : state.params)
        dtypes.push_back(dtype_of_type(param.dtype, param.placeholder, concat("'", describe_param(param), "'")));
    return decided;
}

}  // namespace
}  // namespace detail

ReductionKernel::ReductionKernel(std::string_view in_params, std::string_view out_params, std::string map_expr,
                                 std::string reduce_expr, std::string post_map_expr,
                                 std::optional<std::string> identity, std::string name, ReductionKernelOptions options)
    : state_(std::make_shared<detail::ReductionKernelState>()) {
    using detail::concat;
    detail::ReductionKernelState& state = *state_;
    if (!detail::is_identifier(name))
        throw InvalidArgumentError(concat("ReductionKernel: invalid kernel name \"", name,
                                          "\": it names the kernel, so it must be a C identifier"));
    state.params = detail::parse_params(in_params, false, "ReductionKernel", detail::reduction_reserved);
    state.nin = state.params.size();
    std::vector<ElementwiseParam> outputs =
        detail::parse_params(out_params, true, "ReductionKernel", detail::reduction_reserved);
    if (outputs.size() != 1)
        throw InvalidArgumentError(concat("ReductionKernel: out_params must name one output, not ", outputs.size()));
    if (state.nin == 0) throw InvalidArgumentError("ReductionKernel: in_params must name at least one input");
    if (state.nin > detail::max_reduction_inputs)
        throw InvalidArgumentError(
            concat("ReductionKernel: at most ", detail::max_reduction_inputs, " inputs, not ", state.nin));
    state.params.push_back(std::move(outputs[0]));
    for (std::size_t a = 0; a < state.params.size(); ++a) {
        if (state.params[a].raw)
            throw InvalidArgumentError(concat("ReductionKernel: '", detail::describe_param(state.params[a]),
                                              "': raw parameters are for ElementwiseKernel"));
        for (std::size_t b = 0; b < a; ++b)
            if (state.params[a].name == state.params[b].name)
                throw InvalidArgumentError(
                    concat("ReductionKernel: two parameters are named '", state.params[a].name, "'"));
    }
    if (!options.reduce_type.empty()) {
        const std::string_view type = detail::trim(options.reduce_type);
        if (type.size() == 1 && std::isalpha(static_cast<unsigned char>(type[0])))
            state.reduce_placeholder = type[0];
        else if (auto dtype = detail::param_dtype(type))
            state.reduce_dtype = dtype;
        else
            throw InvalidArgumentError(concat("ReductionKernel: reduce_type '", options.reduce_type,
                                              "' is neither a dtype nor a type placeholder"));
    }
    detail::CustomReduction& operation = state.operation;
    operation.id = detail::custom_reduction_id();
    operation.name = std::move(name);
    operation.has_identity = identity.has_value() && !detail::trim(*identity).empty();
    for (std::size_t k = 0; k < state.nin; ++k) operation.input_names.push_back(state.params[k].name);
    operation.output_name = state.params.back().name;
    for (const std::string& option : options.options) {
        if (option.starts_with("-arch=") || option.starts_with("--gpu-architecture="))
            operation.compile.target = option.substr(option.find('=') + 1);
        else
            operation.compile.option(option);
    }
    if (operation.compile.target.starts_with("compute_")) operation.compile.target.replace(0, 8, "sm_");
    operation.compile.program_name = operation.name + ".cu";
    operation.compile.validate();

    if (operation.has_identity) {
        state.identity_code = concat("return gk_convert<acc_t>((", *identity, "))");
        state.map_code = concat("a = gk_convert<acc_t>((", map_expr, "))");
        state.reduce_code = concat("a = gk_convert<acc_t>((", reduce_expr, "))");
        state.post_code = post_map_expr;
    } else {
        state.accumulator = "gk_maybe<acc_value_t>";
        state.identity_code = "return gk_maybe_none<acc_value_t>()";
        state.map_code = concat("a = gk_maybe_of(gk_convert<acc_value_t>((", map_expr, ")))");
        state.reduce_code = concat("a = gk_maybe_combine(a, b, [](acc_value_t a, acc_value_t b) { return ",
                                   "gk_convert<acc_value_t>((", reduce_expr, ")); })");
        state.post_code =
            concat("const acc_value_t gk_a = a.value;\n        { const acc_value_t a = gk_a; ", post_map_expr, "; }");
    }
    operation.expressions = {state.accumulator, state.identity_code, state.map_code, state.reduce_code,
                             state.post_code};
    std::string key;
    for (std::string_view field :
         {in_params, out_params, std::string_view(map_expr), std::string_view(reduce_expr),
          std::string_view(post_map_expr), std::string_view(identity ? *identity : ""),
          std::string_view(operation.name), std::string_view(options.reduce_type), std::string_view(options.preamble)})
        detail::add_key_field(key, field);
    for (const std::string& option : options.options) detail::add_key_field(key, option);
    key += identity ? 'i' : '-';
    key += options.reduce_dims ? 'r' : '-';
    state.map_expr = std::move(map_expr);
    state.reduce_expr = std::move(reduce_expr);
    state.post_map_expr = std::move(post_map_expr);
    state.identity = std::move(identity);
    state.options = std::move(options);
    state_ = detail::interned(key, std::move(state_));
}

Array ReductionKernel::operator()(std::span<const ElementwiseArgument> args, const ReductionCall& call) const {
    using detail::concat;
    const detail::ReductionKernelState& state = *state_;
    if (args.size() != state.nin)
        throw InvalidArgumentError(
            concat("ReductionKernel ", state.operation.name, " takes ", state.nin, " arguments, not ", args.size()));
    std::vector<DType> dtypes;
    const std::map<char, DType> placeholders = detail::decide_types(state, args, call.out, dtypes);
    if (call.out && call.out->dtype() != dtypes.back())
        detail::wrong_dtype(state, state.params.back(), call.out->dtype(), std::string(to_string(dtypes.back())));

    // The inputs as arrays: scalars become 0-d arrays of their parameter's dtype (they broadcast).
    const Array* first = nullptr;
    for (const ElementwiseArgument& arg : args)
        if (arg.array() && !first) first = arg.array();
    if (!first)
        throw InvalidArgumentError(
            concat("ReductionKernel ", state.operation.name, ": at least one argument must be an array"));
    std::vector<Array> inputs;
    for (std::size_t k = 0; k < state.nin; ++k) {
        if (args[k].array()) {
            inputs.push_back(*args[k].array());
        } else {
            const Scalar& scalar = *args[k].scalar();
            if (scalar.weak_kind() == PythonScalar::complex && kind(dtypes[k]) != DTypeKind::complex)
                throw DTypeError(concat("ReductionKernel ", state.operation.name, ": '",
                                        detail::describe_param(state.params[k]), "' is ", to_string(dtypes[k]),
                                        ", which cannot take a complex number"));
            inputs.push_back(full({}, scalar, dtypes[k], Order::C, first->device()));
        }
    }

    detail::ReductionDTypes loop;
    loop.input_count = static_cast<std::uint8_t>(state.nin);
    std::copy(dtypes.begin(), dtypes.begin() + static_cast<std::ptrdiff_t>(state.nin), loop.inputs.begin());
    loop.output = dtypes.back();
    if (state.reduce_dtype) {
        loop.accumulator = *state.reduce_dtype;
    } else if (state.reduce_placeholder) {
        const auto found = placeholders.find(state.reduce_placeholder);
        if (found == placeholders.end())
            throw DTypeError(concat("ReductionKernel ", state.operation.name,
                                    ": nothing decides reduce_type's placeholder ", state.reduce_placeholder));
        loop.accumulator = found->second;
    } else {
        loop.accumulator = loop.output;
    }

    // The placeholders and reduce_type as C types, then the preamble.
    std::string prelude;
    for (const auto& [letter, dtype] : placeholders)
        prelude += concat("typedef ", detail::compute_c_type(dtype), " ", letter, ";\n");
    prelude += concat("typedef ", detail::compute_c_type(loop.accumulator), " _type_reduce;\n");
    prelude += state.options.preamble;
    prelude += "\n";

    detail::ReductionRun run;
    run.inputs = inputs;
    run.axis = call.axis;
    run.keepdims = call.keepdims;
    run.out = call.out;
    return detail::run_custom_reduction(state.operation, loop, prelude, run);
}

const std::string& ReductionKernel::name() const noexcept { return state_->operation.name; }
std::span<const ElementwiseParam> ReductionKernel::params() const noexcept { return state_->params; }
std::size_t ReductionKernel::nin() const noexcept { return state_->nin; }

}  // namespace gpukit
