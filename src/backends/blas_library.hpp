// src/backends/blas_library.hpp: the matrix products a backend's vendor library computes (cuBLAS
// on CUDA), behind one interface. Operations ask Backend::blas_library for it and run gpukit's own kernels
// where a backend has none (the simulator) or the user asked for them (set_matmul_library).
#pragma once

#include <cstdint>
#include <string>

#include "gpukit/dtype.hpp"

namespace gpukit::detail {

using NativeStream = void*;  // as backends/backend.hpp: nullptr is the default stream

// C = A @ B for `batch` matrices, column-major as BLAS counts: A is m x k (k x m when transposed),
// B is k x n (n x k when transposed), C is m x n; the leading dimensions and the batch strides are
// in elements; a batch stride of 0 reuses one matrix for every product.
struct GemmCall {
    DType dtype = DType::float32;  // of A, B and C: float16, bfloat16, float32, float64, complex64, complex128
    bool transpose_a = false, transpose_b = false;
    std::int64_t m = 0, n = 0, k = 0;
    std::uint64_t a = 0, b = 0, c = 0;
    std::int64_t lda = 0, ldb = 0, ldc = 0;
    std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;
    std::int64_t batch = 1;
    bool allow_tf32 = false;  // float32 products may round their inputs to TF32 (tensor cores)
};

class BlasLibrary {
public:
    virtual ~BlasLibrary() = default;
    // "cuBLAS 13.0.2 (/usr/local/cuda/lib64/libcublas.so.13)": what gpukit info and errors name.
    virtual std::string description() const = 0;
    // Whether gemm takes matrices of `dtype`.
    virtual bool supports(DType dtype) const = 0;
    // Queues the products on `stream`.
    virtual void gemm(NativeStream stream, const GemmCall& call) = 0;
};

}  // namespace gpukit::detail
