// python/src/numpy_bridge.hpp: NumPy's side of arrays: numpy.dtype <-> DType, NumPy arrays as host
// views that gpukit arrays copy to and from, and Python shapes as C++ ones (keys: indexing.hpp).
//
// Python speaks numpy.dtype; C++ speaks DType. bfloat16 has no NumPy dtype of NumPy's own: it is
// one where the ml_dtypes package is installed, and refused with a clear error elsewhere.
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit::python {

// The numpy.dtype of `dtype`. TypeError for bfloat16 without ml_dtypes.
nanobind::object numpy_dtype(DType dtype);
// Whether NumPy can hold `dtype` in this process.
bool numpy_holds(DType dtype);
// What numpy.dtype(dtype_like) names (a numpy.dtype, a type, a name such as 'float32'), whatever
// its byte order. ValueError naming the types arrays hold for one they do not hold.
DType to_dtype(nanobind::handle dtype_like);
// The DType of a numpy.dtype, or nullopt for one arrays do not hold.
std::optional<DType> held_dtype(nanobind::handle numpy_dtype);

nanobind::handle numpy_module();
// numpy.asarray(value), in native byte order.
nanobind::object as_numpy(nanobind::handle value);
// numpy.empty(shape, dtype).
nanobind::object numpy_empty(const Shape& shape, DType dtype);

// A NumPy copy of `array` (C order), made with the GIL released while it waits for the device.
nanobind::object to_numpy(const Array& array);

// A NumPy array's memory as a host view, borrowed while this lives. The array must be of a dtype
// arrays hold, in native byte order (as_numpy gives one); TypeError for a read-only one when
// `writable`.
class NumpyHost {
public:
    NumpyHost(nanobind::handle array, bool writable);
    ~NumpyHost() { PyBuffer_Release(&buffer_); }
    NumpyHost(const NumpyHost&) = delete;
    NumpyHost& operator=(const NumpyHost&) = delete;

    const HostView& view() const noexcept { return view_; }

private:
    Py_buffer buffer_{};
    HostView view_;
};

// A Python int, or anything with __index__ (NumPy integers), as an int64; values beyond it clamp
// (slice bounds).
std::int64_t to_clamped_int64(nanobind::handle value);
// A shape: an int for 1-D, or a sequence of ints. `name` is the parameter for messages: TypeError
// for None, a bool, a float or a str, OverflowError for an extent beyond int64 (negative extents
// are the core's to refuse).
Shape to_shape(nanobind::handle shape, std::string_view name = "shape");
// reshape(2, 3) or reshape((2, 3)): *args, or one tuple or list of them.
std::vector<std::int64_t> to_extents(nanobind::handle args, std::string_view name);

}  // namespace gpukit::python
