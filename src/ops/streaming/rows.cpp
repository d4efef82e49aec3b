// src/ops/streaming/rows.cpp: where a streamed operation's rows come from and where its results go
// (gpukit/streaming.hpp).
#include <algorithm>
#include <cstring>

#include "gpukit/error.hpp"
#include "gpukit/streaming.hpp"
#include "ops/streaming/copy_team.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

Shape row_shape_of(const Shape& shape) { return Shape(shape.begin() + 1, shape.end()); }

std::int64_t bytes_of_row(DType dtype, const Shape& row_shape) {
    return element_count(row_shape) * static_cast<std::int64_t>(itemsize(dtype));
}

template <class View>
void require_rows(const View& host, const char* what) {
    if (host.shape.empty()) throw InvalidArgumentError(concat("streaming: the ", what, " is 0-D: it has no rows"));
    if (!is_c_contiguous(host.shape, host.strides, static_cast<std::int64_t>(itemsize(host.dtype))))
        throw InvalidArgumentError(
            concat("streaming: the ", what, " must be C-contiguous (rows one after another); copy it first"));
}

}  // namespace

RowSource RowSource::of(const ConstHostView& host) {
    require_rows(host, "input");
    RowSource source;
    source.dtype_ = host.dtype;
    source.row_shape_ = row_shape_of(host.shape);
    source.total_rows_ = host.shape[0];
    source.host_ = host.data;
    source.host_rows_ = host.shape[0];
    return source;
}

RowSource RowSource::reader(DType dtype, Shape row_shape, Reader read, std::int64_t total_rows) {
    if (!read) throw InvalidArgumentError("streaming: the reader is empty");
    RowSource source;
    source.dtype_ = dtype;
    source.row_shape_ = std::move(row_shape);
    source.total_rows_ = total_rows;
    source.reader_ = std::move(read);
    return source;
}

RowSource RowSource::then_zeros(std::int64_t rows) && {
    if (rows < 0) throw InvalidArgumentError(concat("streaming: ", rows, " rows of zeros"));
    zeros_after_ += rows;
    if (total_rows_ >= 0) total_rows_ += rows;
    return std::move(*this);
}

RowSource RowSource::again() const {
    if (reader_) throw UsageError("streaming: a reader's rows can be read only once");
    RowSource copy = *this;
    copy.next_row_ = 0;
    copy.zeros_given_ = 0;
    return copy;
}

std::int64_t RowSource::row_bytes() const noexcept { return bytes_of_row(dtype_, row_shape_); }

std::int64_t RowSource::read(std::byte* staging, std::int64_t max_rows, detail::CopyTeam& team) {
    const auto row = static_cast<std::size_t>(row_bytes());
    std::int64_t written = 0;
    if (!reader_) {
        const std::byte* rows = nullptr;
        written = take(max_rows, rows);
        team.copy(staging, rows, static_cast<std::size_t>(written) * row);
    } else {
        // A reader may give fewer rows than asked: ask again until the staging is full or it ends.
        Shape shape = row_shape_;
        shape.insert(shape.begin(), 0);
        while (!reader_done_ && written < max_rows) {
            shape[0] = max_rows - written;
            const HostView view(staging + static_cast<std::size_t>(written) * row, dtype_, shape);
            const std::int64_t got = reader_(view);
            if (got < 0 || got > shape[0])
                throw InvalidArgumentError(
                    concat("streaming: the reader said it wrote ", got, " rows where at most ", shape[0], " fit"));
            if (got == 0) reader_done_ = true;
            written += got;
        }
    }
    if (written < max_rows && zeros_given_ < zeros_after_) {
        const std::int64_t zeros = std::min(max_rows - written, zeros_after_ - zeros_given_);
        team.zero(staging + static_cast<std::size_t>(written) * row, static_cast<std::size_t>(zeros) * row);
        zeros_given_ += zeros;
        written += zeros;
    }
    return written;
}

std::span<const std::byte> RowSource::host_bytes() const noexcept {
    if (reader_ || zeros_after_ > 0 || !host_) return {};
    return {host_, static_cast<std::size_t>(host_rows_ * row_bytes())};
}

std::int64_t RowSource::take(std::int64_t max_rows, const std::byte*& where) {
    const std::int64_t rows = std::min(max_rows, host_rows_ - next_row_);
    where = host_ + static_cast<std::size_t>(next_row_ * row_bytes());
    next_row_ += std::max<std::int64_t>(rows, 0);
    return std::max<std::int64_t>(rows, 0);
}

RowDestination RowDestination::of(const HostView& host) {
    require_rows(host, "output");
    return RowDestination([host](std::int64_t offset, const ConstHostView& rows, detail::CopyTeam& team) {
        const Shape row_shape = row_shape_of(rows.shape);
        if (rows.dtype != host.dtype || row_shape != row_shape_of(host.shape))
            throw InvalidArgumentError(concat("streaming: the results are rows of ", to_string(rows.dtype), " ",
                                              format_shape(row_shape), ", the output holds rows of ",
                                              to_string(host.dtype), " ", format_shape(row_shape_of(host.shape))));
        if (offset + rows.shape[0] > host.shape[0])
            throw InvalidArgumentError(concat("streaming: the output has ", host.shape[0], " rows; the results have ",
                                              offset + rows.shape[0], " or more"));
        const auto row = static_cast<std::size_t>(bytes_of_row(rows.dtype, row_shape));
        team.copy(host.data + static_cast<std::size_t>(offset) * row, rows.data,
                  static_cast<std::size_t>(rows.shape[0]) * row);
    });
}

RowDestination RowDestination::place(Place place) {
    if (!place) throw InvalidArgumentError("streaming: the output's place function is empty");
    return RowDestination([place = std::move(place)](std::int64_t offset, const ConstHostView& rows,
                                                     detail::CopyTeam& team) {
        const Shape row_shape = row_shape_of(rows.shape);
        const HostView host = place(offset, rows.shape[0], rows.dtype, row_shape);
        if (host.dtype != rows.dtype || host.shape != rows.shape)
            throw InvalidArgumentError(concat("streaming: the output's place for rows ", offset, " to ",
                                              offset + rows.shape[0], " is ", to_string(host.dtype), " ",
                                              format_shape(host.shape), ", not ", to_string(rows.dtype), " ",
                                              format_shape(rows.shape)));
        require_rows(host, "output");
        team.copy(host.data, rows.data, static_cast<std::size_t>(rows.shape[0] * bytes_of_row(rows.dtype, row_shape)));
    });
}

RowDestination RowDestination::window(RowDestination inner, std::int64_t begin, std::int64_t end) {
    return RowDestination([inner = std::move(inner), begin, end](std::int64_t offset, const ConstHostView& rows,
                                                                 detail::CopyTeam& team) {
        const std::int64_t first = std::max(offset, begin), last = std::min(offset + rows.shape[0], end);
        if (first >= last) return;
        ConstHostView kept = rows;
        kept.shape[0] = last - first;
        kept.data =
            rows.data + static_cast<std::size_t>((first - offset) * bytes_of_row(rows.dtype, row_shape_of(rows.shape)));
        inner.deliver(first - begin, kept, team);
    });
}

void RowDestination::deliver(std::int64_t offset, const ConstHostView& rows, detail::CopyTeam& team) const {
    deliver_(offset, rows, team);
}

}  // namespace gpukit
