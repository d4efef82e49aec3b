// src/ops/array_operators.cpp: the operators of gpukit/array_operators.hpp, each a ufunc call (a
// number beside an array is one of the ufunc's weak scalar operands).
#include "gpukit/array_operators.hpp"

#include "ops/ufunc.hpp"

namespace gpukit {
namespace detail {
namespace {

const Ufunc& ufunc_of(BinaryOperator op) {
    switch (op) {
        case BinaryOperator::add: return ufunc(UfuncId::add);
        case BinaryOperator::subtract: return ufunc(UfuncId::subtract);
        case BinaryOperator::multiply: return ufunc(UfuncId::multiply);
        case BinaryOperator::true_divide: return ufunc(UfuncId::true_divide);
        case BinaryOperator::remainder: return ufunc(UfuncId::remainder);
        case BinaryOperator::bitwise_and: return ufunc(UfuncId::bitwise_and);
        case BinaryOperator::bitwise_or: return ufunc(UfuncId::bitwise_or);
        case BinaryOperator::bitwise_xor: return ufunc(UfuncId::bitwise_xor);
        case BinaryOperator::left_shift: return ufunc(UfuncId::left_shift);
        case BinaryOperator::right_shift: return ufunc(UfuncId::right_shift);
        case BinaryOperator::equal: return ufunc(UfuncId::equal);
        case BinaryOperator::not_equal: return ufunc(UfuncId::not_equal);
        case BinaryOperator::less: return ufunc(UfuncId::less);
        case BinaryOperator::less_equal: return ufunc(UfuncId::less_equal);
        case BinaryOperator::greater: return ufunc(UfuncId::greater);
        case BinaryOperator::greater_equal: return ufunc(UfuncId::greater_equal);
    }
    return ufunc(UfuncId::add);
}

Array call(BinaryOperator op, const ElementwiseOperand& a, const ElementwiseOperand& b) {
    const ElementwiseOperand inputs[] = {a, b};
    return std::move(call_ufunc(ufunc_of(op), inputs)[0]);
}

}  // namespace

Array apply(BinaryOperator op, const Array& a, const Scalar& b) { return call(op, a, b); }
Array apply(BinaryOperator op, const Scalar& a, const Array& b) { return call(op, a, b); }
void apply_in_place(BinaryOperator op, Array& a, const Scalar& b) {
    const ElementwiseOperand inputs[] = {a, b};
    const Array* outputs[] = {&a};
    call_ufunc(ufunc_of(op), inputs, outputs);
}

}  // namespace detail

Array operator-(const Array& x) { return negative(x); }
Array operator+(const Array& x) { return positive(x); }
Array operator~(const Array& x) { return bitwise_not(x); }

#define GPUKIT_DEFINE_ARRAY_OPERATOR(op, ufunc) \
    Array operator op(const Array& a, const Array& b) { return ufunc(a, b); }
#define GPUKIT_DEFINE_IN_PLACE_OPERATOR(op, ufunc)    \
    Array& operator op##=(Array& a, const Array& b) { \
        ufunc(a, b, a);                               \
        return a;                                     \
    }
GPUKIT_DEFINE_ARRAY_OPERATOR(+, add)
GPUKIT_DEFINE_ARRAY_OPERATOR(-, subtract)
GPUKIT_DEFINE_ARRAY_OPERATOR(*, multiply)
GPUKIT_DEFINE_ARRAY_OPERATOR(/, true_divide)
GPUKIT_DEFINE_ARRAY_OPERATOR(%, remainder)
GPUKIT_DEFINE_ARRAY_OPERATOR(&, bitwise_and)
GPUKIT_DEFINE_ARRAY_OPERATOR(|, bitwise_or)
GPUKIT_DEFINE_ARRAY_OPERATOR(^, bitwise_xor)
GPUKIT_DEFINE_ARRAY_OPERATOR(<<, left_shift)
GPUKIT_DEFINE_ARRAY_OPERATOR(>>, right_shift)
GPUKIT_DEFINE_ARRAY_OPERATOR(==, equal)
GPUKIT_DEFINE_ARRAY_OPERATOR(!=, not_equal)
GPUKIT_DEFINE_ARRAY_OPERATOR(<, less)
GPUKIT_DEFINE_ARRAY_OPERATOR(<=, less_equal)
GPUKIT_DEFINE_ARRAY_OPERATOR(>, greater)
GPUKIT_DEFINE_ARRAY_OPERATOR(>=, greater_equal)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(+, add)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(-, subtract)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(*, multiply)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(/, true_divide)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(%, remainder)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(&, bitwise_and)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(|, bitwise_or)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(^, bitwise_xor)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(<<, left_shift)
GPUKIT_DEFINE_IN_PLACE_OPERATOR(>>, right_shift)
#undef GPUKIT_DEFINE_ARRAY_OPERATOR
#undef GPUKIT_DEFINE_IN_PLACE_OPERATOR

}  // namespace gpukit
