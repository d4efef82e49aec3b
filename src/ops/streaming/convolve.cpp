// src/ops/streaming/convolve.cpp: stream_convolve (gpukit/streaming.hpp): numpy.convolve of a
// streamed signal, each chunk with the M - 1 rows before it.
//
// The full convolution y[n] = sum_k x[n - k] v[k] (n < N + M - 1) of the rows followed by M - 1
// zeros is, chunk by chunk, the valid convolution of each chunk's data (its M - 1 rows before, zeros
// before the start, and its own rows) with v. 'same' and 'valid' keep a window of it.
#include <vector>

#include "gpukit/error.hpp"
#include "gpukit/streaming.hpp"
#include "ops/streaming/copy_team.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

StreamingStats stream_convolve(RowSource in, const Array& v, ConvolveMode mode, const RowDestination& out,
                               const StreamingOptions& options) {
    if (!in.row_shape().empty())
        throw InvalidArgumentError(
            concat("streaming convolve: the input's rows are ", format_shape(in.row_shape()), "; it must be 1-D"));
    if (v.ndim() != 1) throw InvalidArgumentError("streaming convolve: v must be 1-D");
    if (v.size() == 0) throw InvalidArgumentError("streaming convolve: v cannot be empty");
    if (options.halo_before != 0 || options.halo_after != 0)
        throw InvalidArgumentError(
            "streaming convolve: the halos are the convolution's own (len(v) - 1 rows before "
            "each chunk); leave halo_before and halo_after 0");
    const std::int64_t n = in.total_rows(), m = v.size();
    if (n < 0 && mode != ConvolveMode::full)
        throw InvalidArgumentError(
            "streaming convolve: mode 'same' and 'valid' keep a window that depends on the "
            "input's length; give the reader's total_rows");
    if (n == 0) throw InvalidArgumentError("streaming convolve: a cannot be empty");
    if (n >= 0 && n < m) {
        // Shorter than v: NumPy swaps the operands. The input fits on the device beside v.
        std::vector<std::byte> host(static_cast<std::size_t>(n * in.row_bytes()));
        detail::CopyTeam team(1);
        in.read(host.data(), n, team);
        const Array x = Array::from_host(ConstHostView(host.data(), in.dtype(), {n}), v.device());
        const Array y = convolve(x, v, mode);
        std::vector<std::byte> result(static_cast<std::size_t>(y.nbytes()));
        y.copy_to_host(HostView(result.data(), y.dtype(), y.shape()));
        out.deliver(0, ConstHostView(result.data(), y.dtype(), y.shape()), team);
        StreamingStats stats;
        stats.rows = n, stats.chunks = 1, stats.bytes_in = static_cast<std::int64_t>(host.size());
        stats.bytes_out = y.nbytes();
        return stats;
    }
    StreamingOptions chunked = options;
    chunked.halo_before = m - 1;
    if (chunked.chunk_rows != 0 && chunked.chunk_rows < m - 1)
        throw InvalidArgumentError(concat("streaming convolve: chunks of ", chunked.chunk_rows,
                                          " rows are shorter than the halo of len(v) - 1 = ", m - 1,
                                          " rows: make chunk_rows at least that"));
    const auto work = [&](const Chunk& chunk) { return convolve(chunk.data, v, ConvolveMode::valid); };
    RowSource padded = std::move(in).then_zeros(m - 1);
    switch (mode) {
        case ConvolveMode::full: return stream_map(std::move(padded), out, work, chunked);
        case ConvolveMode::same: {
            const std::int64_t begin = (m - 1) / 2;
            return stream_map(std::move(padded), RowDestination::window(out, begin, begin + n), work, chunked);
        }
        case ConvolveMode::valid:
            return stream_map(std::move(padded), RowDestination::window(out, m - 1, n), work, chunked);
    }
    throw InvalidArgumentError("streaming convolve: unknown mode");
}

}  // namespace gpukit
