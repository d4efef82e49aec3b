// src/ops/sort/sets.cpp: unique, isin/in1d and the set routines (gpukit/sorting.hpp), from sorted
// keys (radix.hpp), a flag kernel where runs of equal keys start, their positions (the nonzero
// compaction of ops/indexing/select.hpp) and binary searches.
#include <utility>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array_memory.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"
#include "ops/indexing/select.hpp"
#include "ops/sort/along_axis.hpp"
#include "ops/sort/kernels.hpp"
#include "ops/sort/radix.hpp"

namespace gpukit {
namespace {

std::uint64_t address_of(const Array& array) { return detail::launch_address(array, current_stream(array.device())); }

Array flat_of(const Array& a, std::optional<DType> dtype = std::nullopt) {
    return ascontiguousarray(a, dtype).reshape({a.size()});
}

// Wide keys of `flat` in sorted order, and the permutation that sorts them when asked for.
struct SortedKeys {
    detail::SortKeys keys;
    std::optional<Array> order;
};
SortedKeys sorted_keys(const Array& flat, bool with_order) {
    detail::SortKeys keys = detail::encode_keys(flat, true, true);
    if (keys.low) {
        Array order = detail::argsort_keys({keys.high.copy(), keys.low->copy(), keys.bits}, flat.size(), 1);
        detail::SortKeys sorted{detail::gather(keys.high, order), detail::gather(*keys.low, order), keys.bits};
        return {std::move(sorted), std::move(order)};
    }
    std::optional<Array> order;
    if (with_order) order = detail::iota(flat.size(), flat.device());
    detail::SortedPairs pairs = detail::radix_sort(std::move(keys.high), keys.bits, std::move(order));
    return {{std::move(pairs.keys), std::nullopt, keys.bits}, std::move(pairs.values)};
}

// Keys from the dtype's NaN key on are NaN (the flags' and searches' NaN rules).
void set_nan_rule(detail::SortParams& params, DType dtype) {
    if (const auto nan = detail::nan_key(dtype)) {
        params.has_nan = 1;
        params.nan_key = *nan;
    }
}

// Whether each element of `flat_elements` has an equal key in `sorted` (bool, 1-D).
Array members(const Array& flat_elements, const detail::SortKeys& sorted, std::int64_t haystack, bool invert) {
    const std::int64_t n = flat_elements.size();
    Array out = Array::empty({n}, DType::bool_, flat_elements.device());
    if (n == 0) return out;
    const detail::SortKeys wanted = detail::encode_keys(flat_elements, true, true);
    detail::SortParams params{};
    params.size = n;
    params.haystack = haystack;
    params.keys_in = address_of(sorted.high);
    if (sorted.low) params.low_keys = address_of(*sorted.low);
    params.needles = address_of(wanted.high);
    if (wanted.low) params.low_needles = address_of(*wanted.low);
    params.positions = address_of(out);
    params.mode = 2;
    params.invert = invert ? 1 : 0;
    set_nan_rule(params, flat_elements.dtype());
    detail::launch_sort_elements("gk_sort_search", out.device(), n, params);
    return out;
}

Array common_flat(const Array& a, DType dtype) { return flat_of(a, dtype); }

// unique's inverse and counts from sorted runs: `order` sorted the n elements (or rows), `starts`
// (int64) are where runs of equal ones start.
void add_inverse_and_counts(UniqueResult& result, const UniqueOptions& options, const std::optional<Array>& order,
                            const Array& starts, std::int64_t n) {
    const Device& device = starts.device();
    detail::SortParams runs{};
    runs.needles = address_of(starts);
    runs.haystack = starts.size();
    if (options.return_inverse) {
        Array inverse = Array::empty({n}, DType::int64, device);
        runs.size = n;
        runs.values_in = address_of(*order);
        runs.index_bytes = static_cast<std::int32_t>(order->itemsize());
        runs.positions = address_of(inverse);
        detail::launch_sort_elements("gk_sort_inverse", device, n, runs);
        result.inverse = inverse;
    }
    if (options.return_counts) {
        Array counts = Array::empty({starts.size()}, DType::int64, device);
        runs.size = starts.size();
        runs.row_length = n;
        runs.positions = address_of(counts);
        detail::launch_sort_elements("gk_sort_run_lengths", device, starts.size(), runs);
        result.counts = counts;
    }
}

// unique along an axis: the subarrays along it, as rows, in lexicographic order (lexsort by
// their elements, the first one primary), and where a row differs from the one before (NaN
// differs from NaN there, as NumPy's comparison of the rows).
UniqueResult unique_subarrays(const Array& ar, std::int64_t axis, const UniqueOptions& options) {
    const std::size_t unique_axis = normalize_axis(axis, ar.ndim());
    const auto from = static_cast<std::int64_t>(unique_axis);
    const std::int64_t to = 0;
    const Array moved = moveaxis(ar, std::span(&from, 1), std::span(&to, 1));
    const std::int64_t n = moved.shape()[0];
    const std::int64_t width = n == 0 ? 0 : moved.size() / n;
    const Array rows = ascontiguousarray(moved).reshape({n, width});
    const Device& device = ar.device();
    Array order = arange(Scalar(n), DType::int64, device);
    if (n > 1 && width > 0) {
        std::vector<Array> columns;  // lexsort's keys: the last one primary
        for (std::int64_t c = width - 1; c >= 0; --c) columns.push_back(rows.index({Slice{}, Index(c)}));
        order = lexsort(columns);
    }
    const Array sorted = take(rows, order, 0);
    Array flags = Array::empty({n}, DType::bool_, device);
    if (n > 0) {
        flags.index({Slice{0, 1, std::nullopt}}).fill(true);
        if (n > 1) {
            const Array later = sorted.index({Slice{1, std::nullopt, std::nullopt}}),
                        earlier = sorted.index({Slice{0, n - 1, std::nullopt}});
            ReduceOptions along_rows;
            along_rows.axis = std::vector<std::int64_t>{1};
            copyto(flags.index({Slice{1, std::nullopt, std::nullopt}}), any(not_equal(later, earlier), along_rows));
        }
    }
    const Array starts = detail::flat_positions(flags, DType::int64);  // waits for the count
    Shape shape = moved.shape();
    shape[0] = starts.size();
    const Array values = take(sorted, starts, 0).reshape(std::span<const std::int64_t>(shape));
    UniqueResult result{ascontiguousarray(moveaxis(values, std::span(&to, 1), std::span(&from, 1))), std::nullopt,
                        std::nullopt, std::nullopt};
    if (options.return_index) result.index = take(order, starts);
    add_inverse_and_counts(result, options, order, starts, n);
    return result;
}

}  // namespace

UniqueResult unique(const Array& ar, const UniqueOptions& options) {
    raise_deferred_launch_error();
    if (options.axis) return unique_subarrays(ar, *options.axis, options);
    const Array flat = flat_of(ar);
    const std::int64_t n = flat.size();
    const Device& device = ar.device();
    const bool with_order = options.return_index || options.return_inverse;
    if (n == 0) {
        UniqueResult empty{Array::empty({0}, ar.dtype(), device), std::nullopt, std::nullopt, std::nullopt};
        if (options.return_index) empty.index = Array::empty({0}, DType::int64, device);
        if (options.return_inverse) empty.inverse = Array::empty(ar.shape(), DType::int64, device);
        if (options.return_counts) empty.counts = Array::empty({0}, DType::int64, device);
        return empty;
    }
    const SortedKeys sorted = sorted_keys(flat, with_order);

    Array flags = Array::empty({n}, DType::bool_, device);
    detail::SortParams params{};
    params.size = n;
    params.keys_in = address_of(sorted.keys.high);
    if (sorted.keys.low) params.low_keys = address_of(*sorted.keys.low);
    params.positions = address_of(flags);
    params.equal_nan = options.equal_nan ? 1 : 0;
    set_nan_rule(params, ar.dtype());
    detail::launch_sort_elements("gk_sort_flags", device, n, params);
    const Array starts = detail::flat_positions(flags, DType::int64);  // waits for the count
    const std::int64_t count = starts.size();

    detail::SortKeys first_keys{detail::gather(sorted.keys.high, starts), std::nullopt, sorted.keys.bits};
    if (sorted.keys.low) first_keys.low = detail::gather(*sorted.keys.low, starts);
    UniqueResult result{Array::empty({count}, ar.dtype(), device), std::nullopt, std::nullopt, std::nullopt};
    detail::decode_keys(first_keys, result.values);
    if (options.return_index) result.index = detail::indices_within_rows(detail::gather(*sorted.order, starts), n);
    add_inverse_and_counts(result, options, sorted.order, starts, n);
    if (result.inverse) result.inverse = result.inverse->reshape(std::span<const std::int64_t>(ar.shape()));
    return result;
}

Array isin(const Array& element, const Array& test_elements, bool /*assume_unique*/, bool invert) {
    raise_deferred_launch_error();
    detail::require_one_device({&element, &test_elements});
    const DType common = result_type({element.dtype(), test_elements.dtype()});
    const Array tests = common_flat(test_elements, common);
    const SortedKeys sorted = sorted_keys(tests, false);
    return members(common_flat(element, common), sorted.keys, tests.size(), invert)
        .reshape(std::span<const std::int64_t>(element.shape()));
}

Array in1d(const Array& ar1, const Array& ar2, bool assume_unique, bool invert) {
    return isin(ar1.ravel(), ar2, assume_unique, invert);
}

Intersection intersect1d(const Array& ar1, const Array& ar2, bool assume_unique, bool return_indices) {
    raise_deferred_launch_error();
    detail::require_one_device({&ar1, &ar2});
    const DType common = result_type({ar1.dtype(), ar2.dtype()});
    // Each side sorted and without repeats (unique's first indices), or sorted as given.
    auto prepare = [&](const Array& a) -> std::pair<Array, std::optional<Array>> {
        const Array flat = common_flat(a, common);
        if (!assume_unique) {
            UniqueResult u = unique(flat, {.return_index = return_indices});
            return {std::move(u.values), std::move(u.index)};
        }
        if (!return_indices) return {sort(flat), std::nullopt};
        Array order = argsort(flat);
        return {take(flat, order), std::move(order)};
    };
    auto [first, first_index] = prepare(ar1);
    auto [second, second_index] = prepare(ar2);
    const Array mask = isin(first, second, true, false);
    Intersection result{compress(mask, first), std::nullopt, std::nullopt};
    if (return_indices) {
        result.indices1 = compress(mask, *first_index);
        result.indices2 = take(*second_index, searchsorted(second, result.values));
    }
    return result;
}

Array union1d(const Array& ar1, const Array& ar2) {
    const Array both[] = {ar1.ravel(), ar2.ravel()};
    return unique(concatenate(both, 0)).values;
}

Array setdiff1d(const Array& ar1, const Array& ar2, bool assume_unique) {
    const Array first = assume_unique ? ar1.ravel() : unique(ar1).values;
    return compress(isin(first, ar2, true, true), first);
}

Array setxor1d(const Array& ar1, const Array& ar2, bool assume_unique) {
    const DType common = result_type({ar1.dtype(), ar2.dtype()});
    const Array first = assume_unique ? common_flat(ar1, common) : unique(common_flat(ar1, common)).values;
    const Array second = assume_unique ? common_flat(ar2, common) : unique(common_flat(ar2, common)).values;
    const Array parts[] = {compress(isin(first, second, true, true), first),
                           compress(isin(second, first, true, true), second)};
    return sort(concatenate(parts, 0));
}

}  // namespace gpukit
