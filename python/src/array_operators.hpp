// python/src/array_operators.hpp: the operators of gpukit.ndarray, as type slots.
//
// `x + y` reaches nb_add directly, with no method lookup or argument parsing between Python and
// the ufunc call; Python makes __add__, __radd__, __iadd__, __eq__, ... of the slots.
#pragma once

#include <Python.h>

namespace gpukit::python {

// The slots array.cpp gives gpukit.ndarray when it makes the class (ended by {0, nullptr}).
const PyType_Slot* array_operator_slots() noexcept;

}  // namespace gpukit::python
