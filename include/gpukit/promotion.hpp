// gpukit/promotion.hpp: which dtype an operation on mixed dtypes computes in, and which casts are allowed.
//
//   gpukit::promote_types(DType::int8, DType::uint8)              // int16
//   gpukit::result_type({DType::float32}, {PythonScalar::floating}) // float32: Python scalars are weak
//   gpukit::can_cast(DType::int64, DType::float32, Casting::same_kind)  // true
//
// NumPy 2's rules (NEP 50): array dtypes promote by the table NumPy uses; a Python bool, int,
// float or complex is "weak": it takes the arrays' dtype unless it is of a higher kind (bool <
// integer < floating < complex), and then the default dtype of its kind (int64, float64,
// complex128), or, for a complex scalar with floating arrays, the complex type of their precision.
// bfloat16, not NumPy's, promotes as ml_dtypes and JAX promote it: bfloat16 + float16 is float32,
// and integers of one byte fit it as they fit float16.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "gpukit/dtype.hpp"

namespace gpukit {

// The dtype both convert to safely, the smallest such (numpy.promote_types).
DType promote_types(DType a, DType b);

// A Python scalar's kind: its value never changes the result's dtype (NEP 50).
enum class PythonScalar : std::uint8_t { boolean, integer, floating, complex };

// The dtype of an operation on arrays of `arrays` and weak Python scalars of `scalars`
// (numpy.result_type). With no arrays, the scalars' default dtypes promote. Throws
// InvalidArgumentError when both are empty.
DType result_type(std::span<const DType> arrays, std::span<const PythonScalar> scalars = {});
DType result_type(std::initializer_list<DType> arrays, std::initializer_list<PythonScalar> scalars = {});

// NumPy's casting= rules, from strictest to loosest.
enum class Casting : std::uint8_t {
    no,         // the same dtype only
    equiv,      // the same dtype in another byte order: gpukit's dtypes have one, so as `no`
    safe,       // every value is kept: int8 -> int16, int64 -> float64, float32 -> complex64
    same_kind,  // safe, or within a kind or to a higher one (float64 -> float32, uint8 -> int8)
    unsafe,     // anything
};
std::string_view to_string(Casting casting);
// "no", "equiv", "safe", "same_kind" or "unsafe"; InvalidArgumentError names them otherwise.
Casting parse_casting(std::string_view name);

// Whether a cast from `from` to `to` is allowed under `casting` (numpy.can_cast).
bool can_cast(DType from, DType to, Casting casting = Casting::safe);

}  // namespace gpukit
