// src/ops/sort/sort.cpp: sort, argsort, lexsort, partition and searchsorted (gpukit/sorting.hpp)
// from the radix sort and searches of radix.hpp.
#include <algorithm>
#include <string>
#include <utility>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array_memory.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"
#include "ops/sort/along_axis.hpp"
#include "ops/sort/kernels.hpp"
#include "ops/sort/radix.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::AxisRows;

// The flat sorted elements of `rows` (rows in order, each sorted).
Array sorted_rows(const AxisRows& rows) {
    const Array& flat = rows.flat;
    const std::int64_t n = flat.size();
    if (n == 0) return flat.copy();
    // Complex numbers through their order: the real parts' -0.0 and 0.0 must be equal for the
    // imaginary parts to order ties (keys that merge them would not give -0.0 back).
    if (kind(flat.dtype()) == DTypeKind::complex)
        return detail::gather(flat,
                              detail::argsort_keys(detail::encode_keys(flat, true, false), rows.row_length, rows.rows));
    Array out = Array::empty({n}, flat.dtype(), flat.device());
    detail::sort_elements(flat, false, rows.row_length, rows.rows, &out, nullptr);
    return out;
}

// The flat int64 indices, within each row, that sort `rows` stably.
Array argsorted_rows(const AxisRows& rows) {
    const Array& flat = rows.flat;
    if (flat.dtype() == DType::complex128) {  // two words a key
        const Array order = detail::argsort_keys(detail::encode_keys(flat, true, false), rows.row_length, rows.rows);
        return detail::indices_within_rows(order, rows.row_length);
    }
    Array out = Array::empty({flat.size()}, DType::int64, flat.device());
    detail::sort_elements(flat, true, rows.row_length, rows.rows, nullptr, &out);
    return out;
}

// kth of NumPy's partition: each in [-n, n), else ValueError in NumPy's words.
void check_kth(std::span<const std::int64_t> kth, std::int64_t n) {
    for (const std::int64_t k : kth) {
        const std::int64_t at = k < 0 ? k + n : k;
        if (at < 0 || at >= n) throw InvalidArgumentError(detail::concat("kth(=", at, ") out of bounds (", n, ")"));
    }
}

std::int64_t axis_length(const Array& a, std::optional<std::int64_t> axis) {
    if (!axis) return a.size();
    return a.shape()[normalize_axis(*axis, a.ndim())];
}

}  // namespace

Array sort(const Array& a, std::optional<std::int64_t> axis) {
    raise_deferred_launch_error();
    const AxisRows rows = detail::along_axis(a, axis);
    return detail::restore_axis(sorted_rows(rows), rows);
}

Array argsort(const Array& a, std::optional<std::int64_t> axis) {
    raise_deferred_launch_error();
    // NumPy's argsort of a 0-d array sorts it as one element.
    const AxisRows rows = detail::along_axis(a.ndim() == 0 ? a.reshape({1}) : a, axis);
    return detail::restore_axis(argsorted_rows(rows), rows);
}

Array sort_descending(const Array& a, std::optional<std::int64_t> axis) {
    Array ascending = sort(a, axis);
    if (ascending.ndim() == 0) return ascending;
    const std::int64_t along[] = {axis ? *axis : 0};
    return flip(ascending, along);
}

Array argsort_descending(const Array& a, std::optional<std::int64_t> axis) {
    if (a.ndim() == 0) return argsort(a, axis);
    const Array x = axis ? a : a.reshape({a.size()});
    const std::int64_t along[] = {axis ? *axis : 0};
    // The stable ascending order of the reversed line, reversed, lists equal elements by falling
    // position in the reversed line: by rising position in x, once mapped back (n - 1 - i).
    const Array reversed_order = flip(argsort(flip(x, along), along[0]), along);
    const std::int64_t n = x.shape()[normalize_axis(along[0], x.ndim())];
    return subtract(full({}, Scalar::of(n - 1), DType::int64), reversed_order);
}

void sort_in_place(const Array& a, std::int64_t axis) { copyto(a, sort(a, axis)); }

void check_sort_arguments(std::optional<std::string_view> kind, std::optional<bool> stable, bool order_given) {
    if (kind) {
        static constexpr std::string_view kinds[] = {"quicksort", "mergesort", "heapsort", "stable"};
        const bool known = !kind->empty() && std::any_of(std::begin(kinds), std::end(kinds), [&](std::string_view k) {
            return k.substr(0, 1) == kind->substr(0, 1) && k.starts_with(*kind);
        });
        if (!known)
            throw InvalidArgumentError(
                detail::concat("sort kind must be one of 'quick', 'heap', or 'stable' (got '", *kind, "')"));
        if (stable)
            throw InvalidArgumentError(
                "`kind` and keyword parameters can't be provided at the same time. Use only one of them.");
    }
    if (order_given) throw InvalidArgumentError("Cannot specify order when the array has no fields.");
}

void check_partition_arguments(std::string_view kind, bool order_given) {
    if (kind != "introselect")
        throw InvalidArgumentError(detail::concat("select kind must be 'introselect' (got '", kind, "')"));
    check_sort_arguments(std::nullopt, std::nullopt, order_given);
}

Array lexsort(std::span<const Array> keys, std::int64_t axis) {
    raise_deferred_launch_error();
    if (keys.empty()) throw InvalidArgumentError("need sequence of keys with len > 0 in lexsort");
    for (const Array& key : keys) {
        detail::require_one_device({&keys.front(), &key});
        if (key.shape() != keys.front().shape()) throw InvalidArgumentError("all keys need to be the same shape");
    }
    const AxisRows first = detail::along_axis(keys.front(), axis);
    if (first.flat.size() == 0)
        return detail::restore_axis(Array::empty({0}, DType::int64, first.flat.device()), first);
    // Stable sorts by each key in turn, the last one primary; the rows' passes only in the last sort.
    std::optional<Array> order;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const AxisRows rows = k == 0 ? first : detail::along_axis(keys[k], axis);
        detail::SortKeys words = detail::encode_keys(rows.flat, true, false);
        const bool last = k + 1 == keys.size();
        std::vector<Array> passes;
        if (words.low) passes.push_back(std::move(*words.low));
        passes.push_back(std::move(words.high));
        for (std::size_t w = 0; w < passes.size(); ++w) {
            const bool final = last && w + 1 == passes.size();
            Array sorted_keys = order ? detail::gather(passes[w], *order) : std::move(passes[w]);
            if (!order) order = detail::iota(rows.flat.size(), rows.flat.device());
            order = std::move(*detail::radix_sort(std::move(sorted_keys), words.bits, std::move(order), rows.row_length,
                                                  final ? rows.rows : 1)
                                   .values);
        }
    }
    return detail::restore_axis(detail::indices_within_rows(*order, first.row_length), first);
}

Array partition(const Array& a, std::span<const std::int64_t> kth, std::optional<std::int64_t> axis) {
    check_kth(kth, axis_length(a, axis));
    return sort(a, axis);
}

Array argpartition(const Array& a, std::span<const std::int64_t> kth, std::optional<std::int64_t> axis) {
    check_kth(kth, axis_length(a, axis));
    return argsort(a, axis);
}

Side parse_side(std::string_view side) {
    if (side == "left") return Side::left;
    if (side == "right") return Side::right;
    throw InvalidArgumentError(detail::concat("search side must be 'left' or 'right' (got '", side, "')"));
}

Array searchsorted(const Array& a, const Array& v, Side side, const std::optional<Array>& sorter) {
    raise_deferred_launch_error();
    detail::require_one_device({&a, &v});
    if (a.ndim() != 1)
        throw InvalidArgumentError(a.ndim() == 0 ? "object of too small depth for desired array"
                                                 : "object too deep for desired array");
    const DType common = result_type({a.dtype(), v.dtype()});
    Array haystack = a;
    if (sorter) {
        if (sorter->size() != a.size()) throw InvalidArgumentError("sorter.size must equal a.size");
        haystack = take(a, *sorter);
    }
    haystack = ascontiguousarray(haystack, common);
    const Array needles = ascontiguousarray(v, common).reshape({v.size()});
    Array out = Array::empty(v.shape(), DType::int64, v.device());
    if (v.size() == 0) return out;
    const detail::SortKeys sorted = detail::encode_keys(haystack, true, true);
    const detail::SortKeys wanted = detail::encode_keys(needles, true, true);
    const StreamRef stream = current_stream(v.device());
    detail::SortParams params{};
    params.size = v.size();
    params.haystack = haystack.size();
    params.keys_in = detail::launch_address(sorted.high, stream);
    if (sorted.low) params.low_keys = detail::launch_address(*sorted.low, stream);
    params.needles = detail::launch_address(wanted.high, stream);
    if (wanted.low) params.low_needles = detail::launch_address(*wanted.low, stream);
    params.positions = detail::launch_address(out, stream);
    params.mode = side == Side::right ? 1 : 0;
    detail::launch_sort_elements("gk_sort_search", v.device(), v.size(), params);
    return out;
}

}  // namespace gpukit
