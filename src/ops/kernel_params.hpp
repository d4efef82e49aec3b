// src/ops/kernel_params.hpp: CuPy's parameter lists ("float32 x, T y, raw T z"), read for the
// user kernels (ElementwiseKernel, ReductionKernel) alike.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/elementwise_kernel.hpp"

namespace gpukit::detail {

bool is_identifier(std::string_view text);
std::string_view trim(std::string_view text);

// A dtype by NumPy's name or alias (numpy.dtype('float') is float64), as CuPy reads types.
std::optional<DType> param_dtype(std::string_view name);

// A name a kernel's code sees besides its parameters, and why a parameter cannot take it.
struct ReservedName {
    std::string_view name, why;
};

// The parameters of one list (`outputs`: out_params). Throws InvalidArgumentError, its message
// beginning with `kernel_class`, for a parameter that does not read, an unknown type or keyword, a
// name that is no C identifier, begins with gk_ or is `reserved`.
std::vector<ElementwiseParam> parse_params(std::string_view list, bool outputs, std::string_view kernel_class,
                                          std::span<const ReservedName> reserved);

// "raw T z", as the list spells it.
std::string describe_param(const ElementwiseParam& param);

}  // namespace gpukit::detail
