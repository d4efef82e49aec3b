// src/ops/linalg/solver_call.cpp: NumPy's linalg checks and dtype rule, column-major buffers, and
// one solver-library call with its info words and workspaces (solver_call.hpp).
#include "ops/linalg/solver_call.hpp"

#include <limits>

#include "backends/backend.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit::linalg::detail {

using gpukit::detail::concat;

DType solver_dtype(std::initializer_list<const Array*> operands) {
    bool wide = false, complex = false;
    for (const Array* a : operands) {
        switch (a->dtype()) {
            case DType::float32: break;
            case DType::complex64: complex = true; break;
            case DType::float64: wide = true; break;
            case DType::complex128:
                wide = true;
                complex = true;
                break;
            case DType::float16:
            case DType::bfloat16:
                throw DTypeError(concat("array type ", to_string(a->dtype()), " is unsupported in linalg"));
            default: wide = true;  // integers and bool, as NumPy's: float64
        }
    }
    if (complex) return wide ? DType::complex128 : DType::complex64;
    return wide ? DType::float64 : DType::float32;
}

DType real_dtype(DType dtype) {
    if (dtype == DType::complex64) return DType::float32;
    if (dtype == DType::complex128) return DType::float64;
    return dtype;
}

void require_stacked_matrices(const Array& a) {
    if (a.ndim() < 2)
        throw LinAlgError(concat(a.ndim(), "-dimensional array given. Array must be at least two-dimensional"));
}

void require_stacked_square(const Array& a) {
    require_stacked_matrices(a);
    const auto& shape = a.shape();
    if (shape[shape.size() - 1] != shape[shape.size() - 2])
        throw LinAlgError("Last 2 dimensions of the array must be square");
}

Array column_major(const Array& a, DType dtype) { return swapaxes(a, -1, -2).astype(dtype, Order::C); }

Array from_column_major(const Array& buffer) { return swapaxes(buffer, -1, -2).copy(Order::C); }

std::int64_t batch_count(const Shape& shape) {
    std::int64_t count = 1;
    for (std::size_t d = 0; d + 2 < shape.size(); ++d) count *= shape[d];
    return count;
}

namespace {

// The backend's solver library for `device`; BackendUnavailableError where the backend has none.
gpukit::detail::SolverLibrary& solver_library(const Device& device) {
    gpukit::detail::SolverLibrary* library = device.backend().solver_library(device.ordinal());
    if (library == nullptr)
        throw BackendUnavailableError("The " + device.backend().info().name +
                                      " backend has no dense solver library (gpukit.linalg)");
    return *library;
}

}  // namespace

// Workspaces from the memory pool, allocated on the call's stream and kept until the call's
// arrays go: the pool hands them out again only in that stream's order.
class SolverCall::Scratch final : public gpukit::detail::SolverScratch {
public:
    Scratch(Device device, StreamRef stream) : device_(device), stream_(stream) {}
    std::uint64_t allocate(std::size_t bytes) override {
        arrays_.push_back(
            Array::empty({static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1))}, DType::uint8, device_));
        return gpukit::detail::launch_address(arrays_.back(), stream_);
    }

private:
    Device device_;
    StreamRef stream_;
    std::vector<Array> arrays_;
};

SolverCall::SolverCall(const Device& device, DType dtype, std::int64_t count)
    : device_(device),
      stream_(current_stream(device)),
      library_(solver_library(device)),
      info_(Array::empty({count}, DType::int32, device)),
      scratch_(std::make_shared<Scratch>(device, stream_)),
      batch_{dtype, count, stream_.native_handle(), gpukit::detail::launch_address(info_, stream_), *scratch_} {}

std::uint64_t SolverCall::address(const Array& array) const { return gpukit::detail::launch_address(array, stream_); }

gpukit::detail::PackedMatrices SolverCall::matrices(const Array& buffer, std::int64_t rows, std::int64_t cols) const {
    constexpr std::int64_t largest = std::numeric_limits<std::int32_t>::max();
    if (rows > largest || cols > largest)
        throw InvalidArgumentError(
            concat("gpukit.linalg takes matrices of up to 2**31 - 1 rows and columns, not ", rows, " x ", cols));
    return {address(buffer), rows, cols};
}

std::int64_t SolverCall::first_failure(std::string_view routine) const {
    const std::vector<std::int32_t> infos = info_.to_vector<std::int32_t>();
    for (std::size_t i = 0; i < infos.size(); ++i) {
        if (infos[i] < 0)
            throw Error(concat("gpukit.linalg: the solver library refused argument ", -infos[i], " of ", routine,
                               " (a gpukit bug; please report it)"));
        if (infos[i] > 0) return static_cast<std::int64_t>(i);
    }
    return -1;
}

}  // namespace gpukit::linalg::detail
