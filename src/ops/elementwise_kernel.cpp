// src/ops/elementwise_kernel.cpp: CuPy's ElementwiseKernel over gpukit arrays: the parameter lists
// read, each call's types decided and shape broadcast as CuPy decides them, the kernel generated
// (generate_user_elementwise) and compiled once per argument dtypes and layout class, and launched.
//
// What follows CuPy (cupy/_core/_kernel.pyx) and why:
// - A type is a dtype name or a one-letter placeholder. An array must have its parameter's dtype
//   exactly: CuPy casts nothing, and a silent copy per call would hide a slow program.
// - Outputs decide placeholders first, then inputs, in order; scalars take their parameter's type.
//   Where no array decides a placeholder, a typed scalar (numpy.float32(2)) does (CuPy raises a
//   KeyError there); Python numbers never do.
// - Non-raw arrays, inputs and given outputs, broadcast together; a given non-raw output must have
//   the broadcast shape. `size` is the loop's length when every array is raw.
// - Inputs are not copied when they overlap an output (CuPy does not): in-place kernels
//   (`kernel(x, x)`) read each element before writing it, and raw arrays alias by design.
#include "gpukit/elementwise_kernel.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/kernel_params.hpp"
#include "util/interned.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace detail {

struct ElementwiseKernelState {
    std::string name;
    std::string operation;
    ElementwiseKernelOptions options;
    std::vector<ElementwiseParam> params;  // inputs, then outputs
    std::size_t nin = 0;
    CompileOptions compile;  // checked once, at construction

    std::mutex mutex;
    std::unordered_map<std::string, Kernel> kernels;  // by call key (kernel_key)
};

namespace {

// Mirrors of kernels/gpukit_elementwise_kernel.cuh's argument structs.
struct ArrayArgument {
    std::uint64_t address;
    std::int64_t strides[max_elementwise_dims];
};
struct LoopArgument {
    std::int64_t size;
    std::int64_t shape[max_elementwise_dims];
    std::int32_t ndim;
    std::int32_t unused;
};
struct RawArgument {
    std::uint64_t address;
    std::int64_t size;
    std::int64_t shape[max_elementwise_dims];
    std::int64_t strides[max_elementwise_dims];
    std::int32_t ndim;
    std::int32_t contiguous;
};
static_assert(sizeof(ArrayArgument) == 72 && sizeof(LoopArgument) == 80 && sizeof(RawArgument) == 152);

// What one call amounts to: its types, shape, outputs and the kernel's layout.
struct Plan {
    explicit Plan(Device on) : device(on) {}
    Device device;
    std::vector<DType> dtypes;  // per parameter
    std::vector<std::pair<char, DType>> placeholders;
    Shape shape;
    std::vector<Array> outputs;
    std::vector<const Array*> arrays;                // per parameter: its array, or null for a scalar
    std::vector<UserParam> user;                     // per parameter
    CollapsedLayout layout;                          // over the non-raw arrays, in parameter order
    std::vector<std::size_t> operand;                // per parameter: its operand in `layout` (non-raw arrays)
    std::vector<std::array<std::byte, 16>> scalars;  // per parameter: a scalar's value in its dtype
    UserKernelLayout kernel_layout;
};

[[noreturn]] void wrong_dtype(const ElementwiseKernelState& state, const ElementwiseParam& param, DType got,
                              std::string_view expected, std::string_view why) {
    throw DTypeError(concat("ElementwiseKernel ", state.name, ": the argument of '", describe_param(param), "' is a ",
                            to_string(got), " array, but ", why, " is ", expected,
                            " (arrays must have their parameter's dtype exactly, as CuPy's: convert with astype)"));
}

// CuPy's _decide_params_type: outputs first, then inputs; each array's dtype fixes its placeholder
// or must equal its parameter's dtype.
void decide_types(const ElementwiseKernelState& state, std::span<const ElementwiseArgument> args, Plan& plan) {
    std::map<char, std::pair<DType, const ElementwiseParam*>> decided;
    const auto bind = [&](const ElementwiseParam& param, DType dtype) {
        if (param.dtype) {
            if (*param.dtype != dtype) wrong_dtype(state, param, dtype, to_string(*param.dtype), "the parameter");
            return;
        }
        const auto [found, inserted] = decided.try_emplace(param.placeholder, dtype, &param);
        if (!inserted && found->second.first != dtype)
            wrong_dtype(state, param, dtype, to_string(found->second.first),
                        concat(param.placeholder, " (decided by '", describe_param(*found->second.second), "')"));
    };
    const std::size_t count = state.params.size();
    for (std::size_t k = state.nin; k < args.size(); ++k) {
        if (!args[k].array())
            throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": the output '",
                                              describe_param(state.params[k]), "' must be an array, not a scalar"));
        bind(state.params[k], args[k].array()->dtype());
    }
    for (std::size_t k = 0; k < state.nin; ++k)
        if (args[k].array()) bind(state.params[k], args[k].array()->dtype());
    // Placeholders no array decides: from a typed scalar, where there is one.
    for (std::size_t k = 0; k < state.nin; ++k) {
        const ElementwiseParam& param = state.params[k];
        const Scalar* scalar = args[k].scalar();
        if (!param.dtype && scalar && !scalar->weak_kind())
            decided.try_emplace(param.placeholder, scalar->dtype(), &param);
    }
    plan.dtypes.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const ElementwiseParam& param = state.params[k];
        if (param.dtype) {
            plan.dtypes[k] = *param.dtype;
            continue;
        }
        const auto found = decided.find(param.placeholder);
        if (found == decided.end())
            throw DTypeError(concat("ElementwiseKernel ", state.name, ": nothing decides the type placeholder ",
                                    param.placeholder, " of '", describe_param(param), "': no array argument is of a ",
                                    param.placeholder,
                                    " parameter (Python numbers take their type from the arrays); pass one, a typed "
                                    "scalar (numpy.float32(2)) or the outputs"));
        plan.dtypes[k] = found->second.first;
    }
    for (const auto& [letter, dtype] : decided) plan.placeholders.emplace_back(letter, dtype.first);
}

// The scalar argument of parameter `param` as one element of `dtype`, as CuPy's apply_dtype packs
// it: converted, a Python int out of range an OverflowError, a complex number refused where the
// parameter is not complex.
std::array<std::byte, 16> scalar_value(const ElementwiseKernelState& state, const ElementwiseParam& param,
                                       const Scalar& scalar, DType dtype) {
    if (scalar.weak_kind() == PythonScalar::complex && kind(dtype) != DTypeKind::complex)
        throw DTypeError(concat("ElementwiseKernel ", state.name, ": '", describe_param(param), "' is ",
                                to_string(dtype), ", which cannot take a complex number"));
    return scalar.as(dtype);
}

Plan plan_call(const ElementwiseKernelState& state, std::span<const ElementwiseArgument> args,
               const ElementwiseCall& call) {
    const std::size_t count = state.params.size();
    if (args.size() != state.nin && args.size() != count)
        throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, " takes ", state.nin, " arguments or ",
                                          count, " (with the outputs), not ", args.size()));
    if (call.block_size && *call.block_size == 0)
        throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": block_size must be above 0"));
    if (call.size && *call.size < 0)
        throw InvalidArgumentError(
            concat("ElementwiseKernel ", state.name, ": size must be 0 or more, not ", *call.size));

    std::size_t first = args.size();  // the first array argument
    for (std::size_t k = args.size(); k-- > 0;)
        if (args[k].array()) first = k;
    Plan plan(first < args.size() ? args[first].array()->device() : Device::current());
    for (std::size_t k = 0; k < args.size(); ++k) {
        const Array* array = args[k].array();
        if (array && array->device() != plan.device)
            throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": the arrays must be on one device; '",
                                              state.params[k].name, "' is on ", array->device().describe(), ", '",
                                              state.params[first].name, "' on ", plan.device.describe(),
                                              " (copy one over first)"));
    }
    decide_types(state, args, plan);

    // The loop's shape: the non-raw arrays broadcast, or `size`.
    std::vector<Shape> shapes;
    const ElementwiseParam* broadcast = nullptr;
    for (std::size_t k = 0; k < args.size(); ++k) {
        if (state.params[k].raw || !args[k].array()) continue;
        shapes.push_back(args[k].array()->shape());
        if (!broadcast) broadcast = &state.params[k];
    }
    if (call.size) {
        if (broadcast)
            throw InvalidArgumentError(concat("ElementwiseKernel ", state.name,
                                              ": size= can be given only when every array argument is raw ('",
                                              describe_param(*broadcast), "' is not)"));
        plan.shape = {*call.size};
    } else {
        if (!broadcast)
            throw InvalidArgumentError(
                concat("ElementwiseKernel ", state.name,
                       ": the loop's size is undecided (no argument is a non-raw array): give size="));
        plan.shape = broadcast_shapes(shapes);
    }

    // Outputs: given, or new in the loop's shape.
    const bool outputs_given = args.size() == count;
    for (std::size_t k = state.nin; k < count; ++k) {
        const ElementwiseParam& param = state.params[k];
        if (outputs_given) {
            const Array& output = *args[k].array();
            if (!param.raw && output.shape() != plan.shape)
                throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": the output '",
                                                  describe_param(param), "' has shape ", format_shape(output.shape()),
                                                  ", not the loop's shape ", format_shape(plan.shape)));
            plan.outputs.push_back(output);
        } else {
            if (param.raw && !call.size)
                throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": the size of the raw output '",
                                                  describe_param(param), "' is undecided: give the outputs, or size="));
            plan.outputs.push_back(Array::empty(plan.shape, plan.dtypes[k], plan.device));
        }
    }

    // Each parameter's array (or scalar) and the layout of the non-raw arrays.
    plan.arrays.resize(count, nullptr);
    plan.operand.resize(count, 0);
    plan.scalars.resize(count);
    std::vector<Strides> strides;
    std::vector<std::int64_t> itemsizes;
    for (std::size_t k = 0; k < count; ++k) {
        const ElementwiseParam& param = state.params[k];
        const Array* array = k < state.nin ? args[k].array() : &plan.outputs[k - state.nin];
        plan.arrays[k] = array;
        UserParam user;
        user.name = param.name;
        user.dtype = plan.dtypes[k];
        user.writable = param.output || !param.is_const;
        user.kind = !array ? UserParamKind::scalar : param.raw ? UserParamKind::raw : UserParamKind::array;
        if (user.kind == UserParamKind::raw && array->ndim() > max_elementwise_dims)
            throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": raw arrays have up to ",
                                              max_elementwise_dims, " dimensions; '", param.name, "' has ",
                                              array->ndim()));
        if (user.kind == UserParamKind::scalar)
            plan.scalars[k] = scalar_value(state, param, *args[k].scalar(), user.dtype);
        if (user.kind == UserParamKind::array) {
            plan.operand[k] = strides.size();
            strides.push_back(broadcast_strides(array->shape(), array->strides(), plan.shape));
            itemsizes.push_back(array->itemsize());
        }
        plan.user.push_back(user);
    }
    if (state.options.reduce_dims) {
        plan.layout = collapse(plan.shape, strides);
    } else {
        plan.layout.shape = plan.shape;
        plan.layout.strides = strides;
        plan.layout.size = element_count(plan.shape);
    }
    const std::size_t ndim = plan.layout.shape.size();
    if (ndim > max_elementwise_dims)
        throw InvalidArgumentError(concat("ElementwiseKernel ", state.name, ": the loop has up to ",
                                          max_elementwise_dims, " dimensions after merging contiguous ones, not ",
                                          ndim));

    const bool simulated = plan.device.backend_info().capabilities.simulated;
    plan.kernel_layout.simulated = simulated;
    plan.kernel_layout.generic = simulated && !specialized_elementwise_on_simulator();
    plan.kernel_layout.ndim = static_cast<std::uint8_t>(ndim);
    plan.kernel_layout.index32 = !plan.kernel_layout.generic && fits_index32(plan.layout, itemsizes);
    if (!plan.kernel_layout.generic && plan.layout.size > 0) {
        for (std::size_t k = 0; k < count; ++k) {
            if (plan.user[k].kind != UserParamKind::array) continue;
            const AccessClass access =
                classify(plan.layout, plan.operand[k], plan.arrays[k]->address(), plan.arrays[k]->itemsize());
            plan.user[k].access = access;
        }
        plan.kernel_layout.vector_width = user_vector_width(state.operation, plan.user);
        // Element by element, the generated code reads aligned and unaligned arrays alike.
        for (UserParam& param : plan.user)
            if (param.access == AccessClass::contiguous_aligned16) param.access = AccessClass::contiguous;
    }
    return plan;
}

UserKernelText kernel_text(const ElementwiseKernelState& state, const Plan& plan) {
    return {
        state.name,       state.operation, state.options.preamble, state.options.loop_prep, state.options.after_loop,
        plan.placeholders};
}

// What tells one compiled kernel from another: everything generate_user_elementwise reads.
std::string kernel_key(const Plan& plan) {
    std::string key;
    const auto put = [&key](const auto& value) { key.append(reinterpret_cast<const char*>(&value), sizeof value); };
    put(plan.device.ordinal());
    put(reinterpret_cast<std::uintptr_t>(&plan.device.backend_info()));
    put(plan.kernel_layout.generic);
    put(plan.kernel_layout.simulated);
    put(plan.kernel_layout.index32);
    put(plan.kernel_layout.generic ? std::uint8_t{0} : plan.kernel_layout.ndim);
    put(plan.kernel_layout.vector_width);
    for (const UserParam& param : plan.user) {
        put(param.kind);
        put(param.dtype);
        put(param.access);
    }
    for (const auto& [letter, dtype] : plan.placeholders) {
        put(letter);
        put(dtype);
    }
    return key;
}

Kernel kernel_for(ElementwiseKernelState& state, const Plan& plan) {
    const std::string key = kernel_key(plan);
    {
        std::lock_guard lock(state.mutex);
        if (auto found = state.kernels.find(key); found != state.kernels.end()) return found->second;
    }
    // Compiled outside the lock: the compile cache makes a race harmless (same source, same module).
    CompileOptions options = state.compile;
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.header(std::string(elementwise_kernel_header_name), std::string(elementwise_kernel_header()));
    const std::string source = generate_user_elementwise(kernel_text(state, plan), plan.user, plan.kernel_layout);
    Kernel kernel = Module::compile(source, options, plan.device).kernel(state.name);
    std::lock_guard lock(state.mutex);
    return state.kernels.emplace(key, std::move(kernel)).first->second;
}

LaunchConfig launch_config(const Plan& plan, const ElementwiseCall& call, const StreamRef& stream) {
    LaunchConfig config;
    config.stream = stream;
    const std::int64_t n = plan.layout.size;
    if (plan.kernel_layout.simulated) {
        // A few blocks per worker, each simulated thread a contiguous chunk (the engine's policy).
        const std::int64_t workers = std::max(1, plan.device.properties().multiprocessor_count);
        const std::int64_t threads = call.block_size.value_or(32);
        const std::int64_t blocks = std::clamp<std::int64_t>(n / (threads * 4096), 1, 4 * workers);
        config.block = Dim3(static_cast<std::uint32_t>(threads));
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    } else {
        // One thread per element, or per group of vector_width elements.
        const std::int64_t work = (n + plan.kernel_layout.vector_width - 1) / plan.kernel_layout.vector_width;
        const std::int64_t threads = call.block_size.value_or(256);
        const std::int64_t blocks = std::clamp<std::int64_t>((work + threads - 1) / threads, 1, 0x7fffffff);
        config.block = Dim3(static_cast<std::uint32_t>(threads));
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    }
    return config;
}

}  // namespace
}  // namespace detail

namespace {
// Names the operation sees besides the parameters.
constexpr detail::ReservedName elementwise_reserved[] = {
    {"i", "the operation's element index is i"},
    {"_ind", "the loop is _ind"},
};
}  // namespace

ElementwiseKernel::ElementwiseKernel(std::string_view in_params, std::string_view out_params, std::string operation,
                                     std::string name, ElementwiseKernelOptions options)
    : state_(std::make_shared<detail::ElementwiseKernelState>()) {
    using detail::concat;
    if (!detail::is_identifier(name))
        throw InvalidArgumentError(concat("ElementwiseKernel: invalid kernel name \"", name,
                                          "\": it names the kernel, so it must be a C identifier"));
    if (name.starts_with("gk_"))
        throw InvalidArgumentError(
            concat("ElementwiseKernel: invalid kernel name \"", name, "\": gk_ begins the names gpukit generates"));
    detail::ElementwiseKernelState& state = *state_;
    state.params = detail::parse_params(in_params, false, "ElementwiseKernel", elementwise_reserved);
    state.nin = state.params.size();
    for (ElementwiseParam& param : detail::parse_params(out_params, true, "ElementwiseKernel", elementwise_reserved))
        state.params.push_back(std::move(param));
    for (std::size_t a = 0; a < state.params.size(); ++a)
        for (std::size_t b = 0; b < a; ++b)
            if (state.params[a].name == state.params[b].name)
                throw InvalidArgumentError(
                    concat("ElementwiseKernel: two parameters are named '", state.params[a].name, "'"));
    // The options, checked now (a bad one is an error before any call): gpukit's allowlist.
    for (const std::string& option : options.options) {
        if (option.starts_with("-arch=") || option.starts_with("--gpu-architecture="))
            state.compile.target = option.substr(option.find('=') + 1);
        else
            state.compile.option(option);
    }
    if (state.compile.target.starts_with("compute_")) state.compile.target.replace(0, 8, "sm_");
    state.compile.program_name = name + ".cu";
    state.compile.validate();
    std::string key;
    for (std::string_view field : {in_params, out_params, std::string_view(operation), std::string_view(name),
                                   std::string_view(options.preamble), std::string_view(options.loop_prep),
                                   std::string_view(options.after_loop)})
        detail::add_key_field(key, field);
    for (const std::string& option : options.options) detail::add_key_field(key, option);
    key += options.reduce_dims ? 'r' : '-';
    state.name = std::move(name);
    state.operation = std::move(operation);
    state.options = std::move(options);
    state_ = detail::interned(key, std::move(state_));
}

std::vector<Array> ElementwiseKernel::operator()(std::span<const ElementwiseArgument> args,
                                                 const ElementwiseCall& call) const {
    detail::ElementwiseKernelState& state = *state_;
    detail::Plan plan = detail::plan_call(state, args, call);
    if (plan.layout.size == 0) return std::move(plan.outputs);
    const Kernel kernel = detail::kernel_for(state, plan);

    // The arguments: one per parameter, then the loop. Their bytes stay put until the launch. Arrays
    // learn the stream the kernel runs on (their memory then goes back to the pool without a wait).
    const StreamRef stream = current_stream(plan.device);
    const std::size_t count = state.params.size();
    std::vector<detail::ArrayArgument> arrays(count);
    std::vector<detail::RawArgument> raws(count);
    detail::LoopArgument loop{};
    KernelArgs kernel_args;
    const std::size_t ndim = plan.layout.shape.size();
    for (std::size_t k = 0; k < count; ++k) {
        const detail::UserParam& param = plan.user[k];
        switch (param.kind) {
            case detail::UserParamKind::array: {
                detail::ArrayArgument& argument = arrays[k];
                argument = {};
                argument.address = detail::launch_address(*plan.arrays[k], stream);
                for (std::size_t d = 0; d < ndim; ++d) argument.strides[d] = plan.layout.strides[plan.operand[k]][d];
                kernel_args.add_bytes(&argument, sizeof argument);
                break;
            }
            case detail::UserParamKind::raw: {
                const Array& array = *plan.arrays[k];
                detail::RawArgument& argument = raws[k];
                argument = {};
                argument.address = detail::launch_address(array, stream);
                argument.size = array.size();
                argument.ndim = static_cast<std::int32_t>(array.ndim());
                argument.contiguous = array.is_c_contiguous() ? 1 : 0;
                for (std::size_t d = 0; d < array.ndim(); ++d) {
                    argument.shape[d] = array.shape()[d];
                    argument.strides[d] = array.strides()[d];
                }
                kernel_args.add_bytes(&argument, sizeof argument);
                break;
            }
            case detail::UserParamKind::scalar:
                kernel_args.add_bytes(plan.scalars[k].data(), itemsize(param.dtype));
                break;
        }
    }
    loop.size = plan.layout.size;
    loop.ndim = static_cast<std::int32_t>(ndim);
    for (std::size_t d = 0; d < ndim; ++d) loop.shape[d] = plan.layout.shape[d];
    kernel_args.add_bytes(&loop, sizeof loop);
    kernel.launch(detail::launch_config(plan, call, stream), kernel_args);
    return std::move(plan.outputs);
}

std::string ElementwiseKernel::source(std::span<const ElementwiseArgument> args, const ElementwiseCall& call) const {
    const detail::Plan plan = detail::plan_call(*state_, args, call);
    return detail::generate_user_elementwise(detail::kernel_text(*state_, plan), plan.user, plan.kernel_layout);
}

const std::string& ElementwiseKernel::name() const noexcept { return state_->name; }
const std::string& ElementwiseKernel::operation() const noexcept { return state_->operation; }
const ElementwiseKernelOptions& ElementwiseKernel::options() const noexcept { return state_->options; }
std::span<const ElementwiseParam> ElementwiseKernel::params() const noexcept { return state_->params; }
std::size_t ElementwiseKernel::nin() const noexcept { return state_->nin; }
std::size_t ElementwiseKernel::nout() const noexcept { return state_->params.size() - state_->nin; }

}  // namespace gpukit
