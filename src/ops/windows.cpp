// src/ops/windows.cpp: NumPy's window functions (gpukit/numeric.hpp) in NumPy's float64 steps: the
// points n = 1 - M, 3 - M, ..., M - 1 (kaiser: 0 .. M - 1) and the window's formula over them.
#include <cstdint>

#include "gpukit/array_operators.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/numeric.hpp"

namespace gpukit {
namespace {

constexpr double pi = 3.141592653589793;

// The windows of fewer than two points, which the formulas (dividing by M - 1) cannot give.
std::optional<Array> degenerate_window(std::int64_t M, const Device& device) {
    if (M < 1) return empty({0}, DType::float64, Order::C, device);
    if (M == 1) return ones({1}, DType::float64, Order::C, device);
    return std::nullopt;
}

// 1 - M, 3 - M, ..., M - 1 as float64.
Array symmetric_points(std::int64_t M, const Device& device) {
    const auto m = static_cast<double>(M);
    return arange(Scalar(1.0 - m), Scalar(m), Scalar(2.0), DType::float64, device);
}

// cos(factor * pi * n / (M - 1)), rounded as NumPy's (factor * pi) * n / (M - 1) is.
Array cosine_term(const Array& n, double factor, std::int64_t M) {
    return cos(((factor * pi) * n) / static_cast<double>(M - 1));
}

}  // namespace

Array bartlett(std::int64_t M, Device device) {
    if (auto small = degenerate_window(M, device)) return *small;
    const Array n = symmetric_points(M, device);
    const double last = static_cast<double>(M - 1);
    return where(n <= 0, 1.0 + n / last, 1.0 - n / last);
}

Array blackman(std::int64_t M, Device device) {
    if (auto small = degenerate_window(M, device)) return *small;
    const Array n = symmetric_points(M, device);
    return 0.42 + 0.5 * cosine_term(n, 1.0, M) + 0.08 * cosine_term(n, 2.0, M);
}

Array hamming(std::int64_t M, Device device) {
    if (auto small = degenerate_window(M, device)) return *small;
    return 0.54 + 0.46 * cosine_term(symmetric_points(M, device), 1.0, M);
}

Array hanning(std::int64_t M, Device device) {
    if (auto small = degenerate_window(M, device)) return *small;
    return 0.5 + 0.5 * cosine_term(symmetric_points(M, device), 1.0, M);
}

Array kaiser(std::int64_t M, double beta, Device device) {
    if (auto small = degenerate_window(M, device)) return *small;
    const Array n = arange(Scalar(0.0), Scalar(static_cast<double>(M)), Scalar(1.0), DType::float64, device);
    const double alpha = static_cast<double>(M - 1) / 2.0;
    const Array ratio = (n - alpha) / alpha;
    const Array shape = i0(beta * sqrt(1.0 - ratio * ratio));
    return shape / i0(full({}, Scalar::of(beta), DType::float64, Order::C, device));
}

}  // namespace gpukit
