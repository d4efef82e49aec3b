// src/ops/elementwise/generator.hpp: CUDA C for one elementwise kernel, from an expression and a key.
//
//   generate_elementwise(key, "out0 = in0 + in1")
//
// The expression reads in0, in1, ... and assigns out0, out1, ..., each a local of its loop dtype's
// compute type (float for float16 and bfloat16); the kernel loads and converts the inputs, runs the
// expression and converts and stores the outputs. The source includes gpukit_elementwise.cuh
// (elementwise_header()) and defines extern "C" kernels taking gk_params.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "ops/elementwise/op_key.hpp"

namespace gpukit::detail {

inline constexpr std::string_view elementwise_kernel_name = "gk_elementwise";
inline constexpr std::string_view elementwise_header_name = "gpukit_elementwise.cuh";

// The text of kernels/gpukit_elementwise.cuh, embedded at build time.
std::string_view elementwise_header();

// What a source that includes that header defines before it, per backend: GK_SIMULATED and the
// dtype numbers of the simulator's gk_load and gk_store when `simulated`, nothing for the GPU.
std::string elementwise_header_defines(bool simulated);
// GK_DTYPE_<name>: each DType's number, for kernels that read a dtype from their parameters
// (`bool` is GK_DTYPE_bool_).
std::string dtype_number_defines();

// The C type an array of `dtype` holds in memory (gk_float16 for float16) and the one the
// expression computes in (float for float16).
std::string_view storage_c_type(DType dtype);
std::string_view compute_c_type(DType dtype);

// Expressions compute out0.. from in0.. and may read `i`, the element's flat index in the C order of
// the loop's shape: every kernel shape below defines it, whatever order it walks the elements in.

// One kernel for `key`: its layout and dtypes in its text (GPUs).
std::string generate_elementwise(const OpKey& key, std::string_view expression);

// Generic kernels for the simulator: one per loop (generic_kernel_name(i) for loops[i]), reading
// the layout, the storage dtypes, scalars and a where= mask from gk_params at run time, so one
// compile serves an operation on any arrays.
struct GenericLoop {
    std::string_view expression;
    std::span<const DType> dtypes;  // the loop's dtypes, inputs then outputs
};
std::string generic_kernel_name(std::size_t index);
std::string generate_generic_elementwise(std::size_t nin, std::size_t nout, std::span<const GenericLoop> loops);

// ---- ElementwiseKernel: a user's operation over CuPy-style parameters (src/ops/elementwise_kernel.cpp)
//
// The kernel takes one argument per parameter, in order, then the loop (gk_ew_loop), and binds each
// parameter's name for the operation (kernels/gpukit_elementwise_kernel.cuh): an array's element i
// (an input as a value of its compute type, an output as a reference into memory), a raw array as
// a gk_raw (x[j] over its own shape), a scalar as a value. `i` is the flat C-order index of the
// element in the loop's shape and `_ind.size()` the loop's length, in every kernel shape.

inline constexpr std::string_view elementwise_kernel_header_name = "gpukit_elementwise_kernel.cuh";
// The text of kernels/gpukit_elementwise_kernel.cuh, embedded at build time.
std::string_view elementwise_kernel_header();

enum class UserParamKind : std::uint8_t {
    array,   // broadcast to the loop's shape; element i bound by name
    raw,     // the whole array, indexed by the operation
    scalar,  // one value, passed by value
};

struct UserParam {
    std::string_view name;  // a C identifier (checked by the caller)
    DType dtype;            // resolved: the array's dtype, or the scalar's after conversion
    UserParamKind kind = UserParamKind::array;
    bool writable = false;  // outputs (and _non_const inputs): bound by reference
    // Arrays on a GPU: contiguous (element i at address + i * itemsize), scalar (one element for
    // all) or strided (coordinates decoded). Unused where the layout is read at run time.
    AccessClass access = AccessClass::strided;
};

struct UserKernelText {
    std::string_view name;  // the kernel's extern "C" name (a C identifier, checked by the caller)
    std::string_view operation, preamble, loop_prep, after_loop;
    std::span<const std::pair<char, DType>> placeholders;  // typedef'd before the preamble
};

// `generic`: the simulator's shape (each simulated thread walks a contiguous chunk, array
// operands' layout read from the arguments at run time: one compile for every layout); else the
// GPU's, its layout in its text (`ndim` dimensions, 32-bit indices when `index32`), one element
// per thread in grid-stride order, or one group of `vector_width` elements per thread where every
// array parameter is contiguous and 16-byte aligned (user_vector_width).
struct UserKernelLayout {
    bool generic = true;
    bool simulated = true;  // the backend runs kernels on the CPU (GK_SIMULATED: chunked loops)
    std::uint8_t ndim = 0;
    bool index32 = false;
    std::uint8_t vector_width = 1;
};

// Elements per 16-byte group (of the widest item) for a GPU kernel of these parameters, or 1: every
// array parameter contiguous_aligned16, and an operation that ends no thread's loop early
// (`return`, `break`, `goto`), since a group is stored after its last element.
std::uint8_t user_vector_width(std::string_view operation, std::span<const UserParam> params);

std::string generate_user_elementwise(const UserKernelText& text, std::span<const UserParam> params,
                                      const UserKernelLayout& layout);

}  // namespace gpukit::detail
