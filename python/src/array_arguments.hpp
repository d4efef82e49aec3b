// python/src/array_arguments.hpp: the Python arguments of array functions as C++ values: arrays,
// axes, orders, casting rules and scalars, refused in NumPy's terms.
//
// Array functions take gpukit arrays only: a NumPy array (host memory) is a TypeError that names
// gpukit.asarray, as CuPy's functions refuse them; nothing is copied to the device behind the
// user's back.
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit::python {

// A gpukit.ndarray. TypeError for anything else, naming gpukit.asarray for host arrays.
const Array& to_array(nanobind::handle value, std::string_view name);
// A sequence of gpukit arrays (a list or tuple; not one array).
std::vector<Array> to_arrays(nanobind::handle sequence, std::string_view name);
// An axis (an int) or nullopt for None.
std::optional<std::int64_t> to_optional_axis(nanobind::handle value, std::string_view name);
// An int or a sequence of ints.
std::vector<std::int64_t> to_axes(nanobind::handle value, std::string_view name);
// 'C', 'F', 'A' or 'K'; `absent` for None.
Order to_order(nanobind::handle value, Order absent);
Casting to_casting(nanobind::handle value);
// A dtype, or nullopt for None.
std::optional<DType> to_optional_dtype(nanobind::handle value);
// A number: Python bool, int, float and complex are weak scalars (NEP 50; int64, or uint64 beyond
// it; OverflowError beyond both), NumPy scalars and 0-d NumPy arrays keep their dtype. TypeError
// for anything else.
Scalar to_scalar(nanobind::handle value, std::string_view name);
// One element of `dtype` holding `value`, converted as numpy.array(value, dtype) converts it (fill
// values). TypeError for what is not a number, OverflowError for a number the dtype cannot hold.
Scalar to_element(nanobind::handle value, DType dtype, std::string_view name);
// Whether `value` is something to_scalar takes.
bool is_scalar(nanobind::handle value);

}  // namespace gpukit::python
