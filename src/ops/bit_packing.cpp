// src/ops/bit_packing.cpp: numpy.packbits and numpy.unpackbits (gpukit/numeric.hpp), one kernel each:
// every byte (bit) of the result reads its eight elements (its byte) along the axis straight from the
// input in C order, so no moved or flattened copy is made and the result is C-contiguous.
#include <cstdint>
#include <optional>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/error.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/numeric.hpp"

namespace gpukit {
namespace {

// Element i of the result is at (outer, k, within) of the shape (outer, extent along the axis, inner).
const ElementwiseKernel& pack_kernel() {
    static const ElementwiseKernel kernel("raw T a, int64 n, int64 bytes, int64 inner, bool little", "uint8 packed",
                                          R"(
        const long long within = i % inner, byte = (i / inner) % bytes, outer = i / (inner * bytes);
        const long long first = byte * 8, stop = first + 8 < n ? first + 8 : n;
        unsigned value = 0;
        for (long long k = first; k < stop; ++k)
            if (a[(outer * n + k) * inner + within] != (T)0) value |= 1u << (little ? k - first : 7 - (k - first));
        packed = (unsigned char)value;
    )",
                                          "gpukit_packbits");
    return kernel;
}

const ElementwiseKernel& unpack_kernel() {
    static const ElementwiseKernel kernel("raw uint8 a, int64 n, int64 bits, int64 inner, bool little", "uint8 bit",
                                          R"(
        const long long within = i % inner, k = (i / inner) % bits, outer = i / (inner * bits);
        if (k >= n * 8) {
            bit = 0;  // count beyond the input's bits pads with zeros
        } else {
            const unsigned byte = a[(outer * n + k / 8) * inner + within];
            bit = (unsigned char)((byte >> (little ? k % 8 : 7 - k % 8)) & 1u);
        }
    )",
                                          "gpukit_unpackbits");
    return kernel;
}

struct AxisSplit {
    Array source;        // the array (flattened where no axis was named)
    std::size_t along;   // the axis
    std::int64_t inner;  // the product of the extents after it
};

AxisSplit split_at_axis(const Array& a, std::optional<std::int64_t> axis) {
    if (!axis) return {a.ravel(), 0, 1};
    const std::size_t along = normalize_axis(*axis, a.ndim());
    std::int64_t inner = 1;
    for (std::size_t d = along + 1; d < a.ndim(); ++d) inner *= a.shape()[d];
    return {a, along, inner};
}

}  // namespace

BitOrder parse_bit_order(std::string_view order) {
    if (!order.empty() && (order[0] == 'b' || order[0] == 'B')) return BitOrder::big;
    if (!order.empty() && (order[0] == 'l' || order[0] == 'L')) return BitOrder::little;
    throw InvalidArgumentError("'order' must begin with 'l' or 'b'");
}

Array packbits(const Array& a, std::optional<std::int64_t> axis, BitOrder order) {
    const DTypeKind k = kind(a.dtype());
    if (k != DTypeKind::boolean && k != DTypeKind::signed_integer && k != DTypeKind::unsigned_integer)
        throw DTypeError("Expected an input array of integer or boolean data type");
    const AxisSplit split = split_at_axis(a, axis);
    const std::int64_t n = split.source.shape()[split.along];
    Shape shape = split.source.shape();
    shape[split.along] = (n + 7) / 8;
    Array packed = empty(shape, DType::uint8, Order::C, a.device());
    if (packed.size() > 0)
        pack_kernel()({split.source, n, shape[split.along], split.inner, order == BitOrder::little, packed});
    return packed;
}

Array unpackbits(const Array& a, std::optional<std::int64_t> axis, std::optional<std::int64_t> count, BitOrder order) {
    if (a.dtype() != DType::uint8) throw DTypeError("Expected an input array of unsigned byte data type");
    const AxisSplit split = split_at_axis(a, axis);
    const std::int64_t n = split.source.shape()[split.along];
    std::int64_t bits = 8 * n;
    if (count) bits = *count >= 0 ? *count : bits + *count;
    if (bits < 0) throw InvalidArgumentError("-count larger than number of elements");
    Shape shape = split.source.shape();
    shape[split.along] = bits;
    Array unpacked = empty(shape, DType::uint8, Order::C, a.device());
    if (unpacked.size() > 0) unpack_kernel()({split.source, n, bits, split.inner, order == BitOrder::little, unpacked});
    return unpacked;
}

}  // namespace gpukit
