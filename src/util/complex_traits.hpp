// src/util/complex_traits.hpp: the real type of a real or std::complex element type, for code
// written once over float, double and their complex numbers (the solver libraries' entry points).
#pragma once

#include <complex>
#include <type_traits>

namespace gpukit::detail {

template <class T>
struct RealOf {
    using type = T;
};
template <class T>
struct RealOf<std::complex<T>> {
    using type = T;
};

template <class T>
constexpr bool is_complex_v = !std::is_same_v<T, typename RealOf<T>::type>;

}  // namespace gpukit::detail
