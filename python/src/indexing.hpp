// python/src/indexing.hpp: Python keys and index-like values as gpukit/advanced_indexing.hpp takes
// them. NumPy arrays and lists in a key become device arrays (as CuPy converts them), bools stay
// bools; the indexing routines' bindings (take, put, nonzero, ...) are bound by bind_indexing.
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/advanced_indexing.hpp"

namespace gpukit::python {

// A key: an int, slice, None, Ellipsis, bool, gpukit array, NumPy array or (nested) list of ints
// or bools, or a tuple of them. Host arrays are copied to `device`. IndexError in NumPy's words for
// anything else (a float, a float array).
std::vector<KeyItem> to_key(nanobind::handle key, const Device& device);
// The key as basic indices (ints, slices, None, Ellipsis), or nullopt when it has anything else:
// the fast path of a[1:3].
std::optional<std::vector<Index>> to_basic_key(nanobind::handle key);
// The key's basic indices, or nullopt when it has an index array or a bool.
std::optional<std::vector<Index>> basic_indices(const std::vector<KeyItem>& key);

// `value` as a device array on `device`: a gpukit array as it is, anything NumPy makes an array of
// copied over (an empty list as int64 when `index`). `name` is the parameter, for messages.
Array to_device_array(nanobind::handle value, const Device& device, std::string_view name, bool index);

// The indexing routines as gpukit.take etc. bind them, for ndarray's methods too.
nanobind::object take_binding(nanobind::handle a, nanobind::handle indices, nanobind::handle axis, nanobind::handle out,
                              nanobind::handle mode);
void put_binding(nanobind::handle a, nanobind::handle indices, nanobind::handle values, nanobind::handle mode);
nanobind::object compress_binding(nanobind::handle condition, nanobind::handle a, nanobind::handle axis,
                                  nanobind::handle out);
nanobind::tuple nonzero_binding(nanobind::handle a);
nanobind::object choose_binding(nanobind::handle a, nanobind::handle choices, nanobind::handle out,
                                nanobind::handle mode);

}  // namespace gpukit::python
