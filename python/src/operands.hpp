// python/src/operands.hpp: Python values as the operands of an elementwise operation.
//
// Every `x + 1` and `gpukit.sqrt(x)` passes its operands through to_operand, so it decides by
// type pointers alone, without attribute lookups or Python code, for what calls carry: gpukit
// arrays, Python's bool/int/float/complex (weak scalars, NumPy 2's rules) and NumPy's scalars
// (typed, as numpy.float32(2) promotes like a float32 array). Host arrays are refused as CuPy
// refuses them, naming gpukit.asarray: nothing is copied to the device behind the user's back. An
// array of another library in device memory (CuPy, PyTorch on a GPU) is used in place.
#pragma once

#include <nanobind/nanobind.h>

#include <array>
#include <cstddef>
#include <optional>

#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::python {

using detail::ElementwiseOperand;

// Arrays made for one call's Python operands (views of another library's device memory, a 0-d
// array for a call without arrays), alive until the call returns.
class HeldArrays {
public:
    const Array& hold(Array array);

private:
    std::array<std::optional<Array>, 8> arrays_;
    std::size_t count_ = 0;
};

// The gpukit.ndarray type, and the Array of a Python object of that type (else null).
PyTypeObject* array_type() noexcept;
inline const Array* as_array(PyObject* value) noexcept {
    if (Py_TYPE(value) != array_type() && !PyType_IsSubtype(Py_TYPE(value), array_type())) return nullptr;
    return nanobind::inst_ptr<Array>(value);
}

// How to_operand took a value.
enum class Operand : unsigned char {
    taken,    // `operand` holds it
    foreign,  // not a number nor an array of any kind (None, a str, an object): an operator
              // returns NotImplemented, a ufunc call raises TypeError (refuse_operand)
};

// `value` as an operand: a gpukit array (referred to: the caller's reference keeps it alive), a
// Python number as a weak scalar, a NumPy scalar as a typed one, another library's device array
// as a view held in `held`. Raises TypeError naming gpukit.asarray for host array data (NumPy
// arrays of any dimension, lists, tuples, CPU tensors) and gpukit.ScalarOverflowError for a
// Python int beyond uint64 and int64.
Operand to_operand(PyObject* value, ElementwiseOperand& operand, HeldArrays& held);

// `value` as an output array: a gpukit array or another library's device array (held in
// `held`). TypeError naming what outputs may be otherwise; `what` names the argument ("out").
const Array& to_output(PyObject* value, HeldArrays& held, const char* what);

// The TypeError for an operand to_operand found foreign, naming the call and its position.
[[noreturn]] void refuse_operand(PyObject* value, std::string_view call, std::size_t position);

// A scalar's value as a 0-d array of its dtype on the current device (the first operand of a
// call whose operands are all scalars, as CuPy's give a 0-d array).
Array scalar_as_array(const Scalar& scalar);

// `value` as an array operand of a function that takes arrays: a gpukit array (another library's
// device array as a view held in `held`), a number as a 0-d array. TypeError as refuse_operand
// otherwise, naming `call` and `position` (host arrays: naming gpukit.asarray).
Array array_operand(nanobind::handle value, HeldArrays& held, std::string_view call, std::size_t position);

// The DType of a NumPy scalar type or dtype given as dtype= (numpy.float32, numpy.dtype('f4')),
// without calling NumPy; nullopt for anything else.
std::optional<DType> known_dtype(PyObject* dtype_like) noexcept;

}  // namespace gpukit::python
