// src/ops/ufunc.hpp: the ufuncs of src/ops/ufuncs.def as a table, NumPy's loop selection, and the
// one entry point every ufunc runs through.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit::detail {

enum class UfuncId : std::uint16_t {
#define GPUKIT_UFUNC(name, ...) name,
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC
};

inline constexpr std::size_t max_ufunc_operands = 3;

// One loop: the dtype of each operand (inputs then outputs) and the expression it runs.
struct UfuncLoop {
    std::array<DType, max_ufunc_operands> dtypes{};
    std::string_view expression;
};

struct Ufunc {
    UfuncId id;
    std::string_view name;
    std::uint8_t nin, nout;
    std::vector<UfuncLoop> loops;  // NumPy's order
};

const Ufunc& ufunc(UfuncId id);
std::span<const Ufunc> ufunc_table();

// The first loop every input dtype casts to safely (NumPy's linear search), or none. Weak Python
// scalars (NEP 50) are passed as the dtype result_type gives them beside the arrays
// (weak_scalar_dtype).
const UfuncLoop* select_loop(const Ufunc& ufunc, std::span<const DType> inputs);
DType weak_scalar_dtype(std::span<const DType> arrays, PythonScalar scalar);

// Runs `ufunc` on `inputs` into `outputs` (broadcast shape; each output's dtype cast from the
// loop's under `casting`). Throws InvalidArgumentError, in NumPy's words, when no loop takes the
// inputs' dtypes, a cast is not allowed or the shapes do not fit.
void run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs, std::span<const Array* const> outputs,
               Casting casting = Casting::same_kind);
// The same into new arrays of the broadcast shape and the loop's output dtypes.
std::vector<Array> run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs);

}  // namespace gpukit::detail
