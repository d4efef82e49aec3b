// src/collectives/reduce_op.cpp: the names of the reductions (gpukit/collectives.hpp).
#include "gpukit/collectives.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {
constexpr std::string_view op_names[] = {"sum", "prod", "max", "min", "avg"};
}

std::string_view to_string(ReduceOp op) noexcept { return op_names[static_cast<std::size_t>(op)]; }

ReduceOp reduce_op_from_name(std::string_view name) {
    for (std::size_t i = 0; i < std::size(op_names); ++i)
        if (op_names[i] == name) return static_cast<ReduceOp>(i);
    throw InvalidArgumentError(
        detail::concat("There is no reduction '", name, "'; the collectives reduce with sum, prod, max, min or avg"));
}

}  // namespace gpukit
