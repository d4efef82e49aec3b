// src/ops/sort/sets.cpp: unique, isin/in1d and the set routines (gpukit/sorting.hpp), from sorted
// keys (radix.hpp), a flag kernel where runs of equal keys start, their positions (the nonzero
// compaction of ops/indexing/select.hpp) and binary searches.
#include <utility>

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array_memory.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/promotion.hpp"
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

}  // namespace

UniqueResult unique(const Array& ar, const UniqueOptions& options) {
    raise_deferred_launch_error();
    if (options.axis)
        throw InvalidArgumentError("gpukit's unique takes axis=None only: unique subarrays are not supported");
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
    detail::SortParams runs{};
    runs.needles = address_of(starts);
    runs.haystack = count;
    if (options.return_inverse) {
        Array inverse = Array::empty({n}, DType::int64, device);
        runs.size = n;
        runs.values_in = address_of(*sorted.order);
        runs.index_bytes = static_cast<std::int32_t>(sorted.order->itemsize());
        runs.positions = address_of(inverse);
        detail::launch_sort_elements("gk_sort_inverse", device, n, runs);
        result.inverse = inverse.reshape(std::span<const std::int64_t>(ar.shape()));
    }
    if (options.return_counts) {
        Array counts = Array::empty({count}, DType::int64, device);
        runs.size = count;
        runs.row_length = n;
        runs.positions = address_of(counts);
        detail::launch_sort_elements("gk_sort_run_lengths", device, count, runs);
        result.counts = counts;
    }
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
