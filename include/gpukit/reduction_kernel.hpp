// gpukit/reduction_kernel.hpp: user-defined reductions, CuPy's ReductionKernel.
//
//   gpukit::ReductionKernel l1_norm("T x", "T y", "abs(x)", "a + b", "y = a", "0", "l1_norm");
//   gpukit::Array total = l1_norm({x});                     // every element: a 0-d array
//   gpukit::Array rows = l1_norm({x}, {.axis = {{1}}});     // one per row
//
// As CuPy's: in_params are the inputs (arrays broadcast together; scalars take their parameter's
// type), out_params the one output. map_expr maps an element of each input (by its parameter's
// name) to a value of reduce_type; reduce_expr combines two such values, a and b (a's elements
// first; it must be associative: the order is a tree, not left to right); post_map_expr sets the
// output from a, the reduction of every element; identity is the value of no elements (empty:
// none, and an empty reduction is an error). reduce_type is a dtype name or a placeholder, the
// output's type by default. float16 and bfloat16 compute as float. Types follow
// ElementwiseKernel's rules (gpukit/elementwise_kernel.hpp): arrays have their parameter's dtype
// exactly; the output's placeholder is decided by the inputs or by out=.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/elementwise_kernel.hpp"

namespace gpukit {

namespace detail {
struct ReductionKernelState;
}

struct ReductionKernelOptions {
    std::string reduce_type;           // dtype name or placeholder; empty: the output's type
    std::string preamble;              // code before the kernel: device functions, types, macros
    std::vector<std::string> options;  // compile options in NVRTC's spellings, checked as RawModule's
    bool reduce_dims = true;           // merge dimensions where the arrays allow (always done: speed only)
};

struct ReductionCall {
    std::optional<std::vector<std::int64_t>> axis;  // the axes reduced; none: all of them
    bool keepdims = false;
    std::optional<Array> out;  // the output: of the result's shape and the output's dtype
};

class ReductionKernel {
public:
    // Throws InvalidArgumentError for parameter lists that do not read, not exactly one output, a raw
    // parameter, a name that is not a C identifier, a parameter named a or b, or a compile option
    // gpukit refuses.
    ReductionKernel(std::string_view in_params, std::string_view out_params, std::string map_expr,
                    std::string reduce_expr, std::string post_map_expr, std::optional<std::string> identity,
                    std::string name = "reduce_kernel", ReductionKernelOptions options = {});

    // Reduces the inputs over call.axis on the current stream of their device, without waiting.
    // Throws InvalidArgumentError (argument count, shapes, axis, devices, an empty reduction without
    // identity), AxisError, DTypeError (an array whose dtype is not its parameter's, a placeholder
    // nothing decides), CompileError (the expressions').
    Array operator()(std::span<const ElementwiseArgument> args, const ReductionCall& call = {}) const;
    Array operator()(std::initializer_list<ElementwiseArgument> args, const ReductionCall& call = {}) const {
        return (*this)(std::span<const ElementwiseArgument>(args.begin(), args.size()), call);
    }

    const std::string& name() const noexcept;
    std::span<const ElementwiseParam> params() const noexcept;  // inputs, then the output
    std::size_t nin() const noexcept;

private:
    std::shared_ptr<detail::ReductionKernelState> state_;
};

}  // namespace gpukit
