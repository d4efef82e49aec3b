// src/array/convert.hpp: converting elements between dtypes on the host, as NumPy's astype does.
//
// C casts, with what C leaves undefined given NumPy's values: a complex number becomes a real one
// by dropping its imaginary part; anything becomes bool by being nonzero; a float becomes an
// integer by truncation, out-of-range values and NaN as NumPy converts them on x86-64 (which warns
// about them); float16 and bfloat16 round to nearest, ties to even.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpukit/dtype.hpp"

namespace gpukit::detail {

// Converts `count` elements of `from` at `src` (`src_stride` bytes apart) into elements of `to` at
// `dst` (`dst_stride` bytes apart). The same dtype copies the bytes.
void convert_elements(const std::byte* src, std::int64_t src_stride, DType from, std::byte* dst,
                      std::int64_t dst_stride, DType to, std::int64_t count);

// The bits of the nearest float16 / bfloat16 (ties to even; overflow to infinity), and back.
std::uint16_t float16_bits(double value) noexcept;
double float16_value(std::uint16_t bits) noexcept;
std::uint16_t bfloat16_bits(double value) noexcept;
double bfloat16_value(std::uint16_t bits) noexcept;

}  // namespace gpukit::detail
