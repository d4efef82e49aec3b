// src/ops/ufunc.hpp: the ufuncs of src/ops/ufuncs.def as a table, NumPy's loop selection, and the
// one entry point every ufunc runs through.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scalar.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::detail {

enum class UfuncId : std::uint16_t {
#define GPUKIT_UFUNC(name, ...) name,
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC
};

inline constexpr std::size_t max_ufunc_operands = 4;  // divmod: 2 in, 2 out; clip: 3 in, 1 out

// One loop: the dtype of each operand (inputs then outputs) and the expression it runs.
struct UfuncLoop {
    std::array<DType, max_ufunc_operands> dtypes{};
    std::string_view expression;
};

struct Ufunc {
    UfuncId id;
    std::string_view name;
    std::uint8_t nin, nout;
    std::vector<UfuncLoop> loops;      // NumPy's order
    std::vector<GenericLoop> generic;  // the same loops for the engine (one module on the simulator)
    bool compares = false;             // gives bool from two inputs: out-of-range Python ints compare exactly
};

const Ufunc& ufunc(UfuncId id);
std::span<const Ufunc> ufunc_table();

// NumPy's letter of a dtype in ufunc.types ("ff->f"; E for bfloat16), and back (logic_error for an
// unknown letter).
DType dtype_of_letter(char letter);
char type_letter(DType dtype);

// `expression` with the typedef of gk_loop_t (the storage type of `loop_dtype`) when it names it.
std::string with_loop_type(std::string_view expression, DType loop_dtype);

// The first loop every input dtype casts to safely (NumPy's linear search), or none. Weak Python
// scalars (NEP 50) are passed as the dtype result_type gives them beside the arrays
// (weak_scalar_dtype).
const UfuncLoop* select_loop(const Ufunc& ufunc, std::span<const DType> inputs);
DType weak_scalar_dtype(std::span<const DType> arrays, PythonScalar scalar);

// NumPy has no boolean negative or subtract, though their int8 loops would take bools: DTypeError
// in NumPy's words where every input is bool.
void refuse_boolean_arithmetic(const Ufunc& ufunc, std::span<const DType> inputs);

// A ufunc call's keywords, as NumPy's.
struct UfuncOptions {
    std::optional<DType> dtype;            // dtype=: the loop whose outputs are of this dtype
    const Array* where = nullptr;          // where=: a bool mask; outputs keep their values where it is false
    Casting casting = Casting::same_kind;  // casting=: which casts of inputs and outputs are allowed
};

// Runs `ufunc` on `inputs` (arrays, and scalars: weak or typed, gpukit/scalar.hpp) into `outputs`
// (none, or one per output, each an array or null for a new one), on the current stream of the
// arrays' device, and returns the outputs. The loop is NumPy's: the first that every input casts to
// safely (or, with dtype=, whose outputs are of that dtype and the inputs cast to under `casting`).
// New outputs take the broadcast shape; given ones decide it (inputs broadcast to them). Throws
// DTypeError (no loop, a forbidden cast), ScalarOverflowError (a Python int out of its dtype's
// range) and InvalidArgumentError (shapes, devices, no array among the operands), in NumPy's words.
std::vector<Array> call_ufunc(const Ufunc& ufunc, std::span<const ElementwiseOperand> inputs,
                              std::span<const Array* const> outputs = {}, const UfuncOptions& options = {});

// The same over arrays only (the free functions of gpukit/elementwise.hpp).
void run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs, std::span<const Array* const> outputs,
               Casting casting = Casting::same_kind);
std::vector<Array> run_ufunc(const Ufunc& ufunc, std::span<const Array* const> inputs);

}  // namespace gpukit::detail
