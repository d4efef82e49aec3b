// src/ops/reduction/reduce.hpp: the engine under every reduction. A built-in reduction (a row of
// src/ops/reductions.def) or a ReductionKernel runs over one or more input arrays (broadcast
// together), some of their axes, into a result of NumPy's shape: its dtypes chosen, its layout
// planned (plan.hpp), its kernel generated (generator.hpp) and launched on the current stream.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/module.hpp"
#include "gpukit/reductions.hpp"
#include "ops/reduction/generator.hpp"

namespace gpukit::detail {

enum class ReductionId : std::uint8_t {
#define GPUKIT_REDUCTION(name, ...) name,
#include "ops/reductions.def"
#undef GPUKIT_REDUCTION
};
inline constexpr ReductionId all_reductions[] = {
#define GPUKIT_REDUCTION(name, ...) ReductionId::name,
#include "ops/reductions.def"
#undef GPUKIT_REDUCTION
};
inline constexpr std::size_t reduction_count = std::size(all_reductions);

// Whether `dtype` is bool or an integer (NumPy's reductions of these widen or turn to float64).
inline bool integral(DType dtype) {
    const DTypeKind k = kind(dtype);
    return k == DTypeKind::boolean || k == DTypeKind::signed_integer || k == DTypeKind::unsigned_integer;
}

// The dtype a mean of `input` is computed in (and var's deviations are taken from): dtype= where
// given, else float64 for integers, float32 for float16 and bfloat16, else the input's.
DType mean_dtype(DType input, std::optional<DType> dtype);

// NumPy's dtypes for built-in reduction `id` of inputs of `inputs` dtypes (dtype= where given).
// Throws DTypeError where the reduction takes no dtype= (max, min, any, all, argmax, ...).
ReductionDTypes reduction_dtypes(ReductionId id, std::span<const DType> inputs, std::optional<DType> dtype);

// One run of a reduction.
struct ReductionRun {
    std::span<const Array> inputs;                  // broadcast together; the first decides the layout class
    std::optional<std::vector<std::int64_t>> axis;  // none: every axis
    bool keepdims = false;
    std::optional<Array> out;    // the result's array (same_kind cast from the result dtype)
    std::optional<Array> where;  // built-ins: only elements where true count
    double argument = 0;         // post's gk_argument (ddof)
    bool initial_given = false;  // an empty reduction is fine without identity (initial= fills it)
};

// Runs built-in reduction `id` with `dtypes` (reduction_dtypes's, or the caller's for `given`).
// Throws AxisError, InvalidArgumentError (repeated axis, out= shape, an empty reduction without
// identity, inputs that do not broadcast), DTypeError (out= dtype).
Array run_reduction(ReductionId id, const ReductionDTypes& dtypes, const ReductionRun& run);

// A ReductionKernel's operation: its code, the names it uses and a number no other shares.
struct CustomReduction {
    std::uint64_t id;  // custom_reduction_id()
    std::string name;  // the kernel's name, as errors say
    ReductionExpressions expressions;
    std::vector<std::string> input_names;
    std::string output_name;
    CompileOptions compile;  // the user's options, checked at construction
    bool has_identity = true;
};
std::uint64_t custom_reduction_id();

// Runs a ReductionKernel's operation with `dtypes` (its parameters' and its accumulator's), after
// `prelude` (the placeholders' typedefs for these dtypes, and the preamble).
Array run_custom_reduction(const CustomReduction& reduction, const ReductionDTypes& dtypes, const std::string& prelude,
                           const ReductionRun& run);

}  // namespace gpukit::detail
