// src/ops/linalg/matmul.cpp: numpy.matmul (gpukit/linalg.hpp) over the backend's BLAS (cuBLAS:
// float and complex dtypes) or gpukit's own kernels (kernels/gpukit_matmul.cuh: every dtype, and
// every backend): NumPy's shapes (1-D operands, broadcast batch dimensions), dtypes and errors
// decided here, the products on the device.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>

#include "array/same_device.hpp"
#include "backends/backend.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/stream.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/linalg/matmul_header.hpp"
#include "ops/own_kernels.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace detail {
namespace {

constexpr std::string_view matmul_header_name = "gpukit_matmul.cuh";
constexpr std::size_t max_batch_dims = 8;    // GK_MATMUL_MAX_BATCH_DIMS
constexpr std::int64_t tile = 64;            // GK_MATMUL_TILE
constexpr std::int64_t depth = 16;           // GK_MATMUL_DEPTH
constexpr std::uint32_t threads = 256;       // GK_MATMUL_THREADS
constexpr std::uint32_t fast_threads = 256;  // GK_MATMUL_FAST_THREADS
constexpr std::int64_t fast_pad = 4;         // GK_MATMUL_FAST_PAD
constexpr std::int64_t max_grid_yz = 65535;  // the kernels loop over row tiles and matrices past it

// Mirrors gk_matmul_params in kernels/gpukit_matmul.cuh.
struct MatmulParams {
    std::uint64_t a = 0, b = 0, c = 0;
    std::int64_t m = 0, n = 0, k = 0;
    std::int64_t a_row = 0, a_col = 0, b_row = 0, b_col = 0, c_row = 0, c_col = 0;
    std::int64_t batch = 1;
    std::int64_t batch_shape[max_batch_dims] = {};
    std::int64_t a_batch[max_batch_dims] = {};
    std::int64_t b_batch[max_batch_dims] = {};
    std::int64_t c_batch[max_batch_dims] = {};
    std::int32_t batch_ndim = 0;
    std::int32_t a_vector = 0, b_vector = 0, c_vector = 0;
};

// Bytes of one element of the type a dtype's products are summed in (gk_matmul_compute).
std::size_t compute_bytes(DType dtype) {
    switch (dtype) {
        case DType::bool_: return 1;
        case DType::float16:
        case DType::bfloat16:
        case DType::float32: return 4;
        case DType::complex64: return 8;
        case DType::complex128: return 16;
        default: return 8;  // float64 and integers (summed in 64 bits)
    }
}

// Every dtype's kernel, in the shape the device runs (rows on the simulator, tiles on a GPU).
Kernel matmul_kernel(const Device& device, DType dtype) {
    const bool chunked = runs_chunked_shapes(device);
    return own_kernel(device, "gpukit_matmul.cu", static_cast<std::uint32_t>(dtype) | (chunked ? 0x100u : 0u), [&] {
        OwnKernelSource source{"gpukit_matmul.cu", matmul_header_name, matmul_header(), {}, {}};
        if (!chunked && device.backend_info().capabilities.simulated) source.defines = "#define GK_GPU_SHAPES\n";
        return OwnKernelRecipe{std::move(source), concat("gk_matmul_", to_string(dtype))};
    });
}

// ---- gk_matmul_fast: register tiles for float operands that are row- or column-major
// Its shape per dtype (gk_matmul_fast_shape): the storage type's name in the kernel source, the
// side of C's tile a block computes, the depth of a slice of k, and the bytes of a summed value.
struct FastShape {
    std::string_view type;
    std::int64_t tile = 0, depth = 0;
    std::size_t compute_bytes = 0;
};
std::optional<FastShape> fast_shape(DType dtype) {
    switch (dtype) {
        case DType::float32: return FastShape{"float", 128, 8, 4};
        case DType::float64: return FastShape{"double", 64, 16, 8};
        case DType::float16: return FastShape{"gk_float16", 128, 8, 4};
        case DType::bfloat16: return FastShape{"gk_bfloat16", 128, 8, 4};
        default: return std::nullopt;
    }
}

// Which way an operand's elements are contiguous, as the fast kernel reads them: along k (true:
// A row-major, B column-major), across its tile (false: along A's rows or B's columns), or neither
// (nullopt: the general kernel reads it). An axis of one element has any stride.
std::optional<bool> contiguous_along_k(std::int64_t k_stride, std::int64_t k, std::int64_t across_stride,
                                       std::int64_t across) {
    if (k_stride == 1) return true;
    if (across_stride == 1) return false;
    if (k == 1) return true;
    if (across == 1) return false;
    return std::nullopt;
}

// Whether every group of 4 elements the fast kernel moves at once (4 consecutive along a unit
// stride, starting at a multiple of 4) is aligned for its accesses of min(16, 4 * itemsize) bytes:
// the address, the other axis's stride (unless that axis is one element long) and every batch stride.
bool groups_aligned(std::uint64_t address, std::size_t itemsize, std::int64_t unit_stride, std::int64_t other_stride,
                    std::int64_t other_extent, const std::vector<std::array<std::int64_t, 4>>& dims,
                    std::size_t operand) {
    const std::int64_t elements = std::min<std::int64_t>(4, 16 / static_cast<std::int64_t>(itemsize));
    if (unit_stride != 1 || address % (static_cast<std::uint64_t>(elements) * itemsize) != 0) return false;
    if (other_extent != 1 && other_stride % elements != 0) return false;
    return std::all_of(dims.begin(), dims.end(), [&](const auto& dim) { return dim[operand] % elements == 0; });
}

Kernel fast_matmul_kernel(const Device& device, DType dtype, const FastShape& shape, bool a_along_k, bool b_along_k) {
    const std::uint32_t key = static_cast<std::uint32_t>(dtype) | (a_along_k ? 0x200u : 0u) | (b_along_k ? 0x400u : 0u);
    return own_kernel(device, "gpukit_matmul_fast.cu", key, [&] {
        OwnKernelSource source{"gpukit_matmul_fast.cu", matmul_header_name, matmul_header(), {}, {}};
        if (device.backend_info().capabilities.simulated) source.defines = "#define GK_GPU_SHAPES\n";
        source.defines += concat("#define GK_MATMUL_FAST_TYPE ", shape.type, "\n#define GK_MATMUL_A_ALONG_K ",
                                 a_along_k ? 1 : 0, "\n#define GK_MATMUL_B_ALONG_K ", b_along_k ? 1 : 0, "\n");
        return OwnKernelRecipe{std::move(source), "gk_matmul_fast"};
    });
}

std::int64_t element_stride(const Array& a, std::size_t axis) { return a.strides()[axis] / a.itemsize(); }

const char* const signature = "(n?,k),(k,m?)->(n?,m?)";

// The broadcast of two batch shapes (NumPy's rules), naming both operands' shapes when they clash.
Shape broadcast_batch(const Array& a, const Array& b, std::span<const std::int64_t> x,
                      std::span<const std::int64_t> y) {
    Shape shape(std::max(x.size(), y.size()), 1);
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const std::int64_t u = d + x.size() >= shape.size() ? x[d + x.size() - shape.size()] : 1;
        const std::int64_t v = d + y.size() >= shape.size() ? y[d + y.size() - shape.size()] : 1;
        if (u != v && u != 1 && v != 1)
            throw InvalidArgumentError(concat("matmul: the batch dimensions of shapes ", format_shape(a.shape()),
                                              " and ", format_shape(b.shape()), " do not broadcast (", u, " against ",
                                              v, ")"));
        shape[d] = u == 1 ? v : u;
    }
    return shape;
}

// ---- the process's choices (set_matmul_precision, set_matmul_library)
std::atomic<bool> allow_tf32{false};
std::atomic<bool> own_kernels_only{false};

// ---- through the backend's BLAS
// A rows x cols matrix of these element strides as a BLAS operand: BLAS reads column-major, so a
// row-major matrix is its transpose read as is (not transposed, leading dimension its row stride)
// and a column-major one is itself (transposed, its column stride). None for other layouts.
struct BlasOperand {
    bool transposed = false;
    std::int64_t ld = 1;
};
std::optional<BlasOperand> blas_operand(std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                                        std::int64_t col_stride) {
    if ((cols == 1 || col_stride == 1) && (rows == 1 || row_stride >= cols))
        return BlasOperand{false, rows == 1 ? std::max<std::int64_t>(cols, 1) : row_stride};
    if ((rows == 1 || row_stride == 1) && (cols == 1 || col_stride >= rows))
        return BlasOperand{true, cols == 1 ? std::max<std::int64_t>(rows, 1) : col_stride};
    return std::nullopt;
}

// Batch dimensions after merging: extent, then a's, b's and c's strides in elements.
using BatchDims = std::vector<std::array<std::int64_t, 4>>;

// C = A @ B through `blas`, C row-major (the result is a new C-order array): BLAS computes
// C^T = B^T A^T, column-major, which is C's memory. A or B in another layout is copied first.
// One call per batch dimension past the innermost (its products one strided batch).
void blas_matmul(BlasLibrary& blas, const Array& a, const Array& b, const Array& c, const MatmulParams& p,
                 const BatchDims& dims) {
    const StreamRef stream = current_stream(c.device());
    const auto operand = [&](const Array& x, std::int64_t rows, std::int64_t cols, std::int64_t row,
                             std::int64_t col) -> std::optional<BlasOperand> {
        if (launch_address(x, stream) % x.itemsize() != 0) return std::nullopt;  // BLAS reads whole elements
        return blas_operand(rows, cols, row, col);
    };
    std::optional<BlasOperand> left = operand(a, p.m, p.k, p.a_row, p.a_col);
    std::optional<BlasOperand> right = operand(b, p.k, p.n, p.b_row, p.b_col);
    if (!left || !right) {
        // Copies of every matrix, C order: their batch strides change with them.
        const Array x = left ? a : a.copy(Order::C), y = right ? b : b.copy(Order::C);
        MatmulParams q = p;
        const std::size_t nb = a.ndim() - 2;
        q.a_row = element_stride(x, nb), q.a_col = element_stride(x, nb + 1);
        q.b_row = element_stride(y, nb), q.b_col = element_stride(y, nb + 1);
        BatchDims copied;
        for (std::size_t d = 0; d < nb; ++d)
            if (x.shape()[d] != 1)
                copied.push_back({x.shape()[d], element_stride(x, d), element_stride(y, d), element_stride(c, d)});
        blas_matmul(blas, x, y, c, q, copied);
        return;
    }
    GemmCall call;
    call.dtype = c.dtype();
    call.m = p.n, call.n = p.m, call.k = p.k;  // C^T (n x m) = B^T (n x k) A^T (k x m)
    call.transpose_a = right->transposed, call.lda = right->ld;
    call.transpose_b = left->transposed, call.ldb = left->ld;
    call.ldc = std::max<std::int64_t>(p.n, 1);  // C is C-order
    call.allow_tf32 = allow_tf32.load();
    const std::uint64_t a_base = launch_address(a, stream), b_base = launch_address(b, stream),
                        c_base = launch_address(c, stream);
    const std::size_t itemsize = c.itemsize();
    // The innermost batch dimension is BLAS's batch; the others are walked here.
    const std::size_t outer = dims.empty() ? 0 : dims.size() - 1;
    if (!dims.empty()) {
        call.batch = dims.back()[0];
        call.stride_a = dims.back()[2], call.stride_b = dims.back()[1], call.stride_c = dims.back()[3];
    }
    std::int64_t calls = 1;
    for (std::size_t d = 0; d < outer; ++d) calls *= dims[d][0];
    for (std::int64_t index = 0; index < calls; ++index) {
        std::int64_t rest = index, a_offset = 0, b_offset = 0, c_offset = 0;
        for (std::size_t d = outer; d-- > 0;) {
            const std::int64_t i = rest % dims[d][0];
            rest /= dims[d][0];
            a_offset += i * dims[d][1], b_offset += i * dims[d][2], c_offset += i * dims[d][3];
        }
        call.a = b_base + static_cast<std::uint64_t>(b_offset) * itemsize;
        call.b = a_base + static_cast<std::uint64_t>(a_offset) * itemsize;
        call.c = c_base + static_cast<std::uint64_t>(c_offset) * itemsize;
        blas.gemm(stream.native_handle(), call);
    }
}

// Products up to this many multiply-adds run gpukit's kernel even where a BLAS is chosen: one
// block's work, where the library's host time per call (its heuristics, about 5 us) would be most
// of the product's time.
constexpr std::int64_t small_product = std::int64_t{64} * 64 * 64;

// The backend's BLAS for products of `dtype` on `device`, unless gpukit's own kernels are to run.
BlasLibrary* vendor_blas(const Device& device, DType dtype, std::int64_t multiply_adds) {
    // Integer and bool products are gpukit's alone: they never load the library (nor fail without it).
    const DTypeKind kind = dtype_info(dtype).kind;
    if (own_kernels_only.load() || (kind != DTypeKind::floating && kind != DTypeKind::complex)) return nullptr;
    if (multiply_adds <= small_product) return nullptr;
    BlasLibrary* blas = device.backend().blas_library(device.ordinal());
    return blas && blas->supports(dtype) ? blas : nullptr;
}

// Runs C = A @ B for A (batch..., m, k), B (batch..., k, n) broadcast to `batch` and C (batch...,
// m, n) of the result's dtype, every operand a view of any strides; C is a new C-order array.
void launch_matmul(const Array& a, const Array& b, const Array& c, const Shape& batch) {
    const Device device = c.device();
    const StreamRef stream = current_stream(device);
    const std::size_t nb = batch.size();
    MatmulParams p;
    p.m = c.shape()[nb];
    p.n = c.shape()[nb + 1];
    p.k = a.shape()[nb + 1];
    p.a_row = element_stride(a, nb), p.a_col = element_stride(a, nb + 1);
    p.b_row = element_stride(b, nb), p.b_col = element_stride(b, nb + 1);
    p.c_row = element_stride(c, nb), p.c_col = element_stride(c, nb + 1);
    // Batch dimensions, merged where every operand walks two of them as one.
    BatchDims dims;
    for (std::size_t d = 0; d < nb; ++d) {
        const std::array<std::int64_t, 4> dim{batch[d], element_stride(a, d), element_stride(b, d),
                                              element_stride(c, d)};
        if (dim[0] == 1) continue;
        if (!dims.empty()) {
            auto& last = dims.back();
            if (last[1] == dim[1] * dim[0] && last[2] == dim[2] * dim[0] && last[3] == dim[3] * dim[0]) {
                last = {last[0] * dim[0], dim[1], dim[2], dim[3]};
                continue;
            }
        }
        dims.push_back(dim);
    }
    std::int64_t matrices = 1;
    for (const auto& dim : dims) matrices *= dim[0];
    if (BlasLibrary* blas = vendor_blas(device, c.dtype(), matrices * p.m * p.n * p.k)) {
        blas_matmul(*blas, a, b, c, p, dims);
        return;
    }
    if (dims.size() > max_batch_dims)
        throw InvalidArgumentError(concat("matmul: the batch dimensions of these operands do not merge into ",
                                          max_batch_dims, " (make them contiguous first)"));
    p.batch_ndim = static_cast<std::int32_t>(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        p.batch_shape[d] = dims[d][0];
        p.a_batch[d] = dims[d][1];
        p.b_batch[d] = dims[d][2];
        p.c_batch[d] = dims[d][3];
        p.batch *= dims[d][0];
    }
    p.a = launch_address(a, stream);
    p.b = launch_address(b, stream);
    p.c = launch_address(c, stream);
    LaunchConfig config;
    config.stream = stream;
    if (runs_chunked_shapes(device)) {
        config = elementwise_launch_config(true, p.batch * p.m, stream);
        matmul_kernel(device, c.dtype())(config, p);
        return;
    }
    // The GPU's shapes: the fast kernel where the dtype and both operands' layouts allow it.
    const std::optional<FastShape> fast = fast_shape(c.dtype());
    const std::optional<bool> a_along_k = contiguous_along_k(p.a_col, p.k, p.a_row, p.m);
    const std::optional<bool> b_along_k = contiguous_along_k(p.b_row, p.k, p.b_col, p.n);
    if (fast && a_along_k && b_along_k &&
        (p.k + fast->depth - 1) / fast->depth <= std::numeric_limits<std::int32_t>::max()) {
        const std::size_t itemsize = c.itemsize();
        p.a_vector = *a_along_k ? groups_aligned(p.a, itemsize, p.a_col, p.a_row, p.m, dims, 1)
                                : groups_aligned(p.a, itemsize, p.a_row, p.a_col, p.k, dims, 1);
        p.b_vector = *b_along_k ? groups_aligned(p.b, itemsize, p.b_row, p.b_col, p.n, dims, 2)
                                : groups_aligned(p.b, itemsize, p.b_col, p.b_row, p.k, dims, 2);
        p.c_vector = groups_aligned(p.c, itemsize, p.c_col, p.c_row, p.m, dims, 3);
        config.block = Dim3(fast_threads);
        config.grid = Dim3(static_cast<std::uint32_t>((p.n + fast->tile - 1) / fast->tile),
                           static_cast<std::uint32_t>(std::min((p.m + fast->tile - 1) / fast->tile, max_grid_yz)),
                           static_cast<std::uint32_t>(std::min(p.batch, max_grid_yz)));
        // Two stages of an A and a B slice, each `depth` rows of tile + pad summed values.
        config.shared_bytes =
            static_cast<std::size_t>(std::int64_t{4} * fast->depth * (fast->tile + fast_pad)) * fast->compute_bytes;
        fast_matmul_kernel(device, c.dtype(), *fast, *a_along_k, *b_along_k)(config, p);
        return;
    }
    config.block = Dim3(threads);
    config.grid = Dim3(static_cast<std::uint32_t>((p.n + tile - 1) / tile),
                       static_cast<std::uint32_t>(std::min((p.m + tile - 1) / tile, max_grid_yz)),
                       static_cast<std::uint32_t>(std::min(p.batch, max_grid_yz)));
    config.shared_bytes = static_cast<std::size_t>(2 * depth * tile) * compute_bytes(c.dtype());
    matmul_kernel(device, c.dtype())(config, p);
}

}  // namespace
}  // namespace detail

void set_matmul_precision(std::string_view precision) {
    if (precision == "highest")
        detail::allow_tf32 = false;
    else if (precision == "high" || precision == "tf32")
        detail::allow_tf32 = true;
    else
        throw InvalidArgumentError(detail::concat("set_matmul_precision: '", precision,
                                                  "' is not a precision gpukit offers: 'highest' (float32 "
                                                  "throughout) or 'high' / 'tf32' (TF32 tensor cores)"));
}
std::string matmul_precision() { return detail::allow_tf32 ? "high" : "highest"; }

void set_matmul_library(std::string_view library) {
    if (library == "vendor")
        detail::own_kernels_only = false;
    else if (library == "own")
        detail::own_kernels_only = true;
    else
        throw InvalidArgumentError(detail::concat("set_matmul_library: '", library,
                                                  "' is not 'vendor' (the backend's BLAS, cuBLAS on CUDA) or "
                                                  "'own' (gpukit's kernels)"));
}
std::string matmul_library() { return detail::own_kernels_only ? "own" : "vendor"; }

Array matmul(const Array& a, const Array& b, const MatmulOptions& options) {
    using detail::concat;
    for (const auto& [operand, array] : {std::pair{0, &a}, std::pair{1, &b}})
        if (array->ndim() == 0)
            throw InvalidArgumentError(concat("matmul: Input operand ", operand,
                                              " does not have enough dimensions (has 0, gufunc core with signature ",
                                              detail::signature, " requires 1)"));
    detail::require_on_device(b, a.device(), "matmul");
    // 1-D operands: a row (m = 1) on the left, a column (n = 1) on the right, dropped from the result.
    const Array left = a.ndim() == 1 ? a.reshape({1, a.shape()[0]}) : a;
    const Array right = b.ndim() == 1 ? b.reshape({b.shape()[0], 1}) : b;
    const std::int64_t k = left.shape().back(), k_right = right.shape()[right.ndim() - 2];
    if (k != k_right)
        throw InvalidArgumentError(concat(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            "signature ",
            detail::signature, " (size ", k_right, " is different from ", k, "): shapes ", format_shape(a.shape()),
            " and ", format_shape(b.shape()), " do not align on the contracted axis (the last of the first, ",
            b.ndim() == 1 ? "the only" : "the second-to-last", " of the second)"));
    const std::span<const std::int64_t> left_shape(left.shape()), right_shape(right.shape());
    const Shape batch = detail::broadcast_batch(a, b, left_shape.first(left_shape.size() - 2),
                                                right_shape.first(right_shape.size() - 2));
    const DType dtype = options.dtype.value_or(promote_types(a.dtype(), b.dtype()));
    Shape a_shape = batch, b_shape = batch, c_shape = batch;
    const std::int64_t m = left.shape()[left.ndim() - 2], n = right.shape().back();
    a_shape.insert(a_shape.end(), {m, k});
    b_shape.insert(b_shape.end(), {k, n});
    c_shape.insert(c_shape.end(), {m, n});
    Array c = Array::empty(c_shape, dtype, a.device());
    if (c.size() > 0) {
        if (k == 0) {
            c.fill(Scalar(std::int64_t{0}));
        } else {
            // The kernels read both operands in the result's dtype.
            const Array x = left.dtype() == dtype ? left : left.astype(dtype);
            const Array y = right.dtype() == dtype ? right : right.astype(dtype);
            detail::launch_matmul(x.shape() == a_shape ? x : broadcast_to(x, a_shape),
                                  y.shape() == b_shape ? y : broadcast_to(y, b_shape), c, batch);
        }
    }
    // The result's shape without the 1-D operands' added axes.
    Shape result_shape = batch;
    if (a.ndim() > 1) result_shape.push_back(m);
    if (b.ndim() > 1) result_shape.push_back(n);
    Array result = result_shape == c_shape ? c : c.reshape(result_shape);
    if (!options.out) return result;
    if (options.out->shape() != result_shape)
        throw InvalidArgumentError(concat("matmul: out has shape ", format_shape(options.out->shape()),
                                          ", the result has shape ", format_shape(result_shape)));
    copyto(*options.out, result, options.casting);
    return *options.out;
}

}  // namespace gpukit
