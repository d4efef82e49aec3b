// src/ops/builtin_ops.hpp: the elementwise operations the array layer runs itself (copies and
// conversions, index-generated sequences, selections), each with its OpKey id and expression, in
// one place.
//
// OpKey::op must mean one expression per id (kernels are cached by it). The engine's copy is
// detail::copy_op (0; run_builtin launches BuiltinOp::copy as it, so both share kernels), ufuncs
// take ufunc_op_base (0x100) and up, the functions of elementwise_functions.cpp function_op_base
// (0x4100) and up; these take 0xF000 and up, out of their way.
//
// Expressions that read `i`, the element's flat index in the loop's C order, are the output's flat
// index: the output here is always a new C-ordered array, a slab of one or its real or imaginary part.
// Floating-point sequences use the _rn intrinsics, which no compiler contracts into a fused
// multiply-add: NumPy computes them with a separate multiply and add, and so must we, bit for bit.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpukit::detail {

enum class BuiltinOp : std::uint16_t {
    // out = in0, converted on the store: every copy, astype, fill and assignment. Loop dtypes are
    // (source, source): the value is converted once, from the source's compute type to the output's
    // storage type (gk_convert), as NumPy's astype converts.
    copy = 0xF000,
    // NumPy's arange fill: start (in0), then start + i * delta (in1), with the second value given
    // (in2), as NumPy writes the first two elements and fills the rest from their difference.
    // Integers compute modulo 2^64 (then wrap to the dtype), as NumPy's fill does in C.
    arange_integer,
    arange_float32,
    arange_float64,
    // NumPy's linspace: start (in0) + i * step (in1), or (i / div) * delta (in1 with in3 = div) when
    // the step underflows to 0; the endpoint's index (in4, int64, -1 for none) takes stop (in2)
    // exactly; in5 (bool) floors, for an integer dtype.
    linspace_float32,
    linspace_float64,
    // eye: 1 where column - row == k (in1), the row length in0 (int64 inputs, a bool result).
    eye,
    // tril/triu: the element (in0) where column - row <= k (in3) (in4 nonzero: lower) or >= k (in4
    // zero: upper), else zero (in5), over matrices of in2 rows of in1 elements.
    triangle,
    // The coordinate along one dimension of a C-ordered grid (indices): (i / in0) % in1.
    coordinate,
    // copyto with where=: in0 where the mask (in1) is true, else the destination's element (in2, the
    // output itself read back).
    masked_copy,
};

constexpr std::string_view expression(BuiltinOp op) {
    switch (op) {
        case BuiltinOp::copy: return "out0 = in0";
        case BuiltinOp::arange_integer:
            return "out0 = (unsigned long long)in0 + (unsigned long long)i * (unsigned long long)in1";
        case BuiltinOp::arange_float32:
            return "out0 = i == 0 ? in0 : i == 1 ? in2 : __fadd_rn(in0, __fmul_rn((float)i, in1))";
        case BuiltinOp::arange_float64:
            return "out0 = i == 0 ? in0 : i == 1 ? in2 : __dadd_rn(in0, __dmul_rn((double)i, in1))";
        case BuiltinOp::linspace_float32:
            return "out0 = i == in4 ? in2 : __fadd_rn(in3 != 0 ? __fmul_rn(__fdiv_rn((float)i, in3), in1) "
                   ": __fmul_rn((float)i, in1), in0); if (in5) out0 = floorf(out0)";
        case BuiltinOp::linspace_float64:
            return "out0 = i == in4 ? in2 : __dadd_rn(in3 != 0 ? __dmul_rn(__ddiv_rn((double)i, in3), in1) "
                   ": __dmul_rn((double)i, in1), in0); if (in5) out0 = floor(out0)";
        case BuiltinOp::eye: return "out0 = (long long)(i % in0) - (long long)(i / in0) == in1";
        case BuiltinOp::triangle:
            return "const long long gk_diagonal = (long long)(i % in1) - (long long)(i / in1 % in2); "
                   "out0 = (in4 != 0 ? gk_diagonal <= in3 : gk_diagonal >= in3) ? in0 : in5";
        case BuiltinOp::coordinate: return "out0 = i / in0 % in1";
        case BuiltinOp::masked_copy: return "out0 = in1 ? in0 : in2";
    }
    return {};
}

}  // namespace gpukit::detail
