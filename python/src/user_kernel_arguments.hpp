// python/src/user_kernel_arguments.hpp: what ElementwiseKernel and ReductionKernel take alike from
// Python: their call arguments and their compile options.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <string>
#include <vector>

#include "gpukit/elementwise_kernel.hpp"

namespace gpukit::python {

// Argument `index` of a call: a gpukit array, a Python number (a weak scalar), a NumPy scalar or 0-d
// array (a typed one). TypeError for anything else (a NumPy array: copy it to the device first).
ElementwiseArgument to_kernel_argument(nanobind::handle value, std::size_t index);

// options=: a str or a tuple (list) of str.
std::vector<std::string> to_compile_options(nanobind::handle options);

}  // namespace gpukit::python
