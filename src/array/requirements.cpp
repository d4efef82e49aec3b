// src/array/requirements.cpp: require and isfortran (gpukit/creation.hpp): an array's layout and
// ownership tested against what the caller needs, copied only when it falls short.
#include "gpukit/creation.hpp"

namespace gpukit {

Array require(const Array& array, std::optional<DType> dtype, const Requirements& requirements) {
    if (requirements.c_contiguous && requirements.f_contiguous)
        throw InvalidArgumentError("Cannot specify both \"C\" and \"F\" order");
    const Order order = requirements.c_contiguous ? Order::C : requirements.f_contiguous ? Order::F : Order::K;
    Array converted = asarray(array, dtype, order);
    // A view does not own its memory: a copy does, in the layout asked for (C unless F is, as NumPy's 'A').
    if (requirements.owns_data && !converted.owns_data())
        return converted.copy(order == Order::K ? (isfortran(converted) ? Order::F : Order::C) : order);
    return converted;
}

bool isfortran(const Array& array) { return array.is_f_contiguous() && !array.is_c_contiguous(); }

}  // namespace gpukit
