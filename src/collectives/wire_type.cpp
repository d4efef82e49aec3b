// src/collectives/wire_type.cpp: how a dtype travels through a collective (wire_type.hpp).
#include "collectives/wire_type.hpp"

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

WireType reduction_wire_type(DType dtype, ReduceOp op, std::string_view operation) {
    const auto refuse = [&](std::string_view instead) -> WireType {
        throw InvalidArgumentError(
            concat("Failed to ", operation, " ", to_string(dtype), " arrays with ", to_string(op), ": ", instead));
    };
    switch (dtype) {
        case DType::int8: return {CollectiveType::int8, 1};
        case DType::uint8: return {CollectiveType::uint8, 1};
        case DType::int32: return {CollectiveType::int32, 1};
        case DType::uint32: return {CollectiveType::uint32, 1};
        case DType::int64: return {CollectiveType::int64, 1};
        case DType::uint64: return {CollectiveType::uint64, 1};
        case DType::float16: return {CollectiveType::float16, 1};
        case DType::bfloat16: return {CollectiveType::bfloat16, 1};
        case DType::float32: return {CollectiveType::float32, 1};
        case DType::float64: return {CollectiveType::float64, 1};
        case DType::bool_:
            if (op == ReduceOp::max || op == ReduceOp::min || op == ReduceOp::prod) return {CollectiveType::uint8, 1};
            return refuse(
                "bool arrays reduce with max (any), min (all) or prod (all); to count them, convert with "
                "astype(int32) first");
        case DType::complex64:
        case DType::complex128: {
            const CollectiveType part = dtype == DType::complex64 ? CollectiveType::float32 : CollectiveType::float64;
            if (op == ReduceOp::sum || op == ReduceOp::avg) return {part, 2};
            return refuse("complex numbers reduce with sum or avg only (NCCL reduces their parts separately)");
        }
        case DType::int16:
        case DType::uint16: return refuse("NCCL has no 16-bit integer type; convert with astype(int32) first");
    }
    return refuse("NCCL has no such type");
}

WireType movement_wire_type(DType dtype) { return {CollectiveType::uint8, itemsize(dtype)}; }

}  // namespace gpukit::detail
