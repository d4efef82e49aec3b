// src/ops/elementwise_functions.cpp: NumPy's functions that are one elementwise loop but not ufuncs
// (where, nan_to_num, around, angle) and the real and imaginary parts of gpukit/elementwise.hpp.
#include <cmath>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/ufunc.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::concat;
using detail::ElementwiseOperand;
using detail::function_op_base;

// Each function's kernels, by OpKey::op (equal ids, equal expressions).
enum class FunctionOp : std::uint16_t {
    where,
    nan_to_num,
    round_positive,
    round_negative,
    round_integer,
    angle,
    angle_degrees
};

std::uint16_t op_of(FunctionOp op) {
    return static_cast<std::uint16_t>(function_op_base + static_cast<std::uint16_t>(op));
}

// Runs `expression` over `inputs` (the first an array; numbers travel in the kernel's parameters)
// into a new array of `shape` and `out_dtype`, computing in `loop` (the inputs' loop dtypes, then
// the output's).
Array run_loop(FunctionOp op, const std::string& expression, std::initializer_list<ElementwiseOperand> inputs,
               std::initializer_list<DType> loop, const Shape& shape, DType out_dtype) {
    Array out = Array::empty(shape, out_dtype, inputs.begin()->array()->device());
    const Array* outputs[] = {&out};
    detail::launch_elementwise({op_of(op), expression, std::span<const DType>(loop.begin(), loop.size())},
                               std::span<const ElementwiseOperand>(inputs.begin(), inputs.size()), outputs);
    return out;
}

DType real_dtype(DType dtype) {
    return dtype == DType::complex64 ? DType::float32 : dtype == DType::complex128 ? DType::float64 : dtype;
}
bool is_integer(DType dtype) {
    return kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer;
}

// The largest finite number of a floating dtype.
double largest(DType dtype) {
    switch (dtype) {
        case DType::float16: return 65504.0;
        case DType::bfloat16: return 0x1.fep127;
        case DType::float32: return 0x1.fffffep127;
        default: return 0x1.fffffffffffffp1023;
    }
}

}  // namespace

namespace {

// where's result dtype: NumPy's result_type of x and y, numbers weak (NEP 50) unless typed.
DType where_dtype(const ElementwiseOperand& x, const ElementwiseOperand& y) {
    std::vector<DType> strong;
    std::vector<PythonScalar> weak;
    for (const ElementwiseOperand* operand : {&x, &y}) {
        if (operand->array())
            strong.push_back(operand->array()->dtype());
        else if (const auto kind_of_number = operand->scalar()->weak_kind())
            weak.push_back(*kind_of_number);
        else
            strong.push_back(operand->scalar()->dtype());
    }
    return result_type(strong, weak);
}

Array where_of(const Array& condition, const ElementwiseOperand& x, const ElementwiseOperand& y) {
    const DType dtype = where_dtype(x, y);
    std::vector<Shape> shapes{condition.shape()};
    for (const ElementwiseOperand* operand : {&x, &y})
        if (operand->array()) shapes.push_back(operand->array()->shape());
    // Expressions do not depend on the dtypes (the key holds them): one op for all.
    return run_loop(FunctionOp::where, "out0 = in0 ? in1 : in2", {condition, x, y}, {DType::bool_, dtype, dtype, dtype},
                    detail::broadcast_shapes(shapes), dtype);
}

}  // namespace

Array where(const Array& condition, const Array& x, const Array& y) { return where_of(condition, x, y); }
Array where(const Array& condition, const Array& x, const Scalar& y) { return where_of(condition, x, y); }
Array where(const Array& condition, const Scalar& x, const Array& y) { return where_of(condition, x, y); }
Array where(const Array& condition, const Scalar& x, const Scalar& y) { return where_of(condition, x, y); }

Array nan_to_num(const Array& x, double nan, std::optional<double> posinf, std::optional<double> neginf) {
    if (kind(x.dtype()) != DTypeKind::floating && kind(x.dtype()) != DTypeKind::complex) return x.copy();
    const DType part = real_dtype(x.dtype());
    const double values[] = {nan, posinf.value_or(largest(part)), neginf.value_or(-largest(part))};
    // The three values in the parts' dtype (converted as NumPy's copyto converts: 1e10 becomes inf
    // in float16), in the kernel's parameters.
    return run_loop(FunctionOp::nan_to_num, "out0 = gk_nan_to_num(in0, in1, in2, in3)",
                    {x, Scalar::of(values[0]), Scalar::of(values[1]), Scalar::of(values[2])},
                    {x.dtype(), part, part, part, x.dtype()}, x.shape(), x.dtype());
}

Array around(const Array& x, int decimals) {
    const DType dtype = x.dtype();
    if (decimals >= 0 && is_integer(dtype)) return x.copy();
    if (decimals == 0) return rint(x);
    if (dtype == DType::bool_)
        throw DTypeError(concat("Cannot cast ufunc '", decimals > 0 ? "multiply" : "divide",
                                "' output from dtype('float64') to dtype('bool') with casting rule "
                                "'same_kind'"));
    // 10 ** |decimals| as NumPy's power_of_ten: exact up to 1e22, then by repeated multiplication.
    const long long places = decimals < 0 ? -static_cast<long long>(decimals) : decimals;
    double factor = 1.0;
    for (long long k = 0; k < places && std::isfinite(factor); ++k) factor *= 10.0;
    if (is_integer(dtype)) {  // through float64, as NumPy 2.4; stored back wrapping, as its cast
        const DType wide = kind(dtype) == DTypeKind::unsigned_integer ? DType::uint64 : DType::int64;
        return run_loop(FunctionOp::round_integer,
                        "out0 = (decltype(out0))gk_round_negative(in0, in1, (const double*)0)", {x, Scalar::of(factor)},
                        {DType::float64, DType::float64, wide}, x.shape(), dtype);
    }
    const DType part = real_dtype(dtype);
    const bool positive = decimals > 0;
    const std::string expression =
        detail::with_loop_type(positive ? "out0 = gk_round_positive(in0, in1, (const gk_loop_t*)0)"
                                        : "out0 = gk_round_negative(in0, in1, (const gk_loop_t*)0)",
                               dtype);
    return run_loop(positive ? FunctionOp::round_positive : FunctionOp::round_negative, expression,
                    {x, Scalar::of(factor)}, {dtype, part, dtype}, x.shape(), dtype);
}

Array round(const Array& x, int decimals) { return around(x, decimals); }

Array angle(const Array& z, bool degrees) {
    DType loop;
    DType out;
    if (kind(z.dtype()) == DTypeKind::complex) {
        loop = z.dtype();
        out = real_dtype(loop);
    } else {
        // NumPy: arctan2(0, z), the 0 a Python int (weak): bool promotes to int64 with it
        const DType own[] = {z.dtype()};
        const DType inputs[] = {detail::weak_scalar_dtype(own, PythonScalar::integer), z.dtype()};
        const detail::UfuncLoop* arctan2 = detail::select_loop(detail::ufunc(detail::UfuncId::arctan2), inputs);
        if (!arctan2)
            throw DTypeError(
                concat("ufunc 'arctan2' did not contain a loop with signature matching types "
                       "(dtype('",
                       to_string(inputs[0]), "'), dtype('", to_string(z.dtype()), "'))"));
        loop = arctan2->dtypes[1];
        out = arctan2->dtypes[2];
    }
    if (!degrees) return run_loop(FunctionOp::angle, "out0 = gk_angle(in0)", {z}, {loop, out}, z.shape(), out);
    return run_loop(FunctionOp::angle_degrees,
                    detail::with_loop_type("out0 = gk_angle_degrees(in0, (const gk_loop_t*)0)", out), {z}, {loop, out},
                    z.shape(), out);
}

Array real(const Array& x) {
    if (kind(x.dtype()) != DTypeKind::complex) return x;
    return Array(x.memory(), x.address(), x.shape(), x.strides(), real_dtype(x.dtype()));
}

Array imag(const Array& x) {
    if (kind(x.dtype()) == DTypeKind::complex)
        return Array(x.memory(), x.address() + static_cast<std::uint64_t>(x.itemsize() / 2), x.shape(), x.strides(),
                     real_dtype(x.dtype()));
    Array zeros = Array::empty(x.shape(), x.dtype(), x.device());
    const std::byte zero[8]{};
    zeros.fill_bytes(std::span<const std::byte>(zero, static_cast<std::size_t>(x.itemsize())));
    return zeros;
}

Array iscomplex(const Array& x) {
    if (kind(x.dtype()) != DTypeKind::complex) return gpukit::zeros(x.shape(), DType::bool_, Order::C, x.device());
    return not_equal(imag(x), gpukit::zeros({}, real_dtype(x.dtype()), Order::C, x.device()));
}

Array isreal(const Array& x) {
    if (kind(x.dtype()) != DTypeKind::complex) return ones(x.shape(), DType::bool_, Order::C, x.device());
    return equal(imag(x), gpukit::zeros({}, real_dtype(x.dtype()), Order::C, x.device()));
}

}  // namespace gpukit
