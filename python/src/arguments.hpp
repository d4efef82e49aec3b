// python/src/arguments.hpp: Python arguments as C++ values, refused in Python's terms.
//
// Bindings take their arguments as nb::handle and convert them here, so that a bad argument never
// meets nanobind's "incompatible function arguments" list: the message names the parameter as the
// Python signature spells it, says what was given and what is accepted, and the exception is the
// one Python uses: TypeError for a value of the wrong type (None, a float or a bool where an int
// belongs, a str), ValueError for a value the type holds but the call cannot take (a negative
// size), OverflowError for an int beyond what the C type holds.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "gpukit/device.hpp"
#include "gpukit/geometry.hpp"

namespace gpukit::python {

// What a Python user passed, for messages: "None", "a float (2.5)", "a str ('x')".
std::string describe_value(nanobind::handle value);
// str(value).
std::string str_of(nanobind::handle value);

[[noreturn]] void raise_type_error(const std::string& message);
[[noreturn]] void raise_value_error(const std::string& message);
[[noreturn]] void raise_overflow_error(const std::string& message);

// An int, or anything with __index__ other than a bool (NumPy integers), in [low, high]. `name`
// is the parameter ("shared_mem", "shape[1]"). TypeError for another type, ValueError below `low`
// (`what_low` says why: "a number of bytes is at least 0"), OverflowError above `high`.
std::int64_t to_int64(nanobind::handle value, std::string_view name,
                      std::int64_t low = std::numeric_limits<std::int64_t>::min(),
                      std::int64_t high = std::numeric_limits<std::int64_t>::max());
// The same for a count or size: ValueError when negative, OverflowError beyond `high`.
std::uint64_t to_size(nanobind::handle value, std::string_view name,
                      std::uint64_t high = std::numeric_limits<std::uint64_t>::max());

// True or False (a NumPy bool too). TypeError for anything else, 0 and 1 included: a flag given
// an int is usually an argument in the wrong place.
bool to_bool(nanobind::handle value, std::string_view name);

// A str. TypeError for anything else (bytes included).
std::string to_str(nanobind::handle value, std::string_view name);

// A wait's timeout in seconds: an int or a float (NumPy's too), or nullopt for None (no limit).
// TypeError for anything else (a bool, a str); the core refuses a negative or NaN one.
std::optional<double> to_timeout(nanobind::handle value, std::string_view name);

// A launch's grid or block (`what`: "grid", "block"): an int (a NumPy integer too) or a tuple or list
// of one to three, as CuPy and PyCUDA take them. TypeError for another type, ValueError for a
// dimension outside 0..2^32-1 or a count of dimensions outside 1..3.
Dim3 to_dim3(nanobind::handle value, const char* what);

// A gpukit.Device, or the calling thread's current device for None.
Device to_device(nanobind::handle value, std::string_view name);

// The instance of bound class T that `value` is; TypeError naming `type_name` otherwise (None
// included).
template <class T>
T& to_instance(nanobind::handle value, std::string_view name, std::string_view type_name) {
    if (!nanobind::isinstance<T>(value) || !nanobind::inst_ready(value))
        raise_type_error(std::string(name) + " must be a " + std::string(type_name) + ", not " + describe_value(value));
    return *nanobind::inst_ptr<T>(value);
}

}  // namespace gpukit::python
