// src/ops/ufunc_staged.hpp: the GPUKIT_UFUNC_STAGED rows of src/ops/ufuncs.def (divmod, frexp,
// modf, nextafter, clip) and the functions made of one elementwise loop of their own (where,
// around, nan_to_num, angle), run the way src/ops/ufunc.cpp runs the table's rows.
//
// Stand-in: once the table takes four operands, free functions of three inputs or two outputs and
// `gk_loop_t` (the storage type of the loop's first input, declared before the expression), the
// staged rows become GPUKIT_UFUNC rows and their table here goes.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit::detail {

enum class StagedUfuncId : std::uint16_t {
#define GPUKIT_UFUNC(...)
#define GPUKIT_UFUNC_STAGED(name, ...) name,
#include "ops/ufuncs.def"
#undef GPUKIT_UFUNC_STAGED
#undef GPUKIT_UFUNC
};

// OpKey::op numbers: the table's rows take their id + 1; these start far above them.
inline constexpr std::uint16_t staged_op_base = 0x4000;  // + StagedUfuncId
inline constexpr std::uint16_t function_op_base = 0x4100;

inline constexpr std::size_t max_staged_operands = 4;

struct StagedLoop {
    std::array<DType, max_staged_operands> dtypes{};
    std::string expression;  // with "typedef <storage type> gk_loop_t;" first where it names gk_loop_t
};

struct StagedUfunc {
    StagedUfuncId id;
    std::string_view name;
    std::uint8_t nin, nout;
    std::vector<StagedLoop> loops;  // NumPy's order
};

const StagedUfunc& staged_ufunc(StagedUfuncId id);
std::span<const StagedUfunc> staged_ufunc_table();

// As select_loop and run_ufunc of src/ops/ufunc.hpp, for a staged row.
const StagedLoop* select_loop(const StagedUfunc& ufunc, std::span<const DType> inputs);
void run_staged_ufunc(const StagedUfunc& ufunc, std::span<const Array* const> inputs,
                      std::span<const Array* const> outputs, Casting casting = Casting::same_kind);
std::vector<Array> run_staged_ufunc(const StagedUfunc& ufunc, std::span<const Array* const> inputs);

// "typedef <storage C type of dtype> gk_loop_t; <expression>" when the expression names gk_loop_t.
std::string with_loop_type(std::string_view expression, DType loop_dtype);

// A 0-d array on `device` holding `value` (given as an element of `value_dtype` at `value`)
// converted to `dtype` as astype converts. One small host-to-device copy.
Array scalar_array(const void* value, DType value_dtype, DType dtype, const Device& device);

}  // namespace gpukit::detail
