// src/ops/sort/radix.cpp: launching the radix passes and the key kernels of kernels/gpukit_sort.cuh.
//
// Launch shapes: on a GPU, onesweep: a kernel counting every pass's digits in one read of the keys,
// then a kernel a pass of a 256-thread block per tile of 256 x ITEMS keys, tiles taken by ticket and
// linked by a look-back per digit; on the simulator, three kernels a pass (count, scan, scatter) of
// one-thread blocks, each a contiguous chunk of at least 16384 keys.
#include "ops/sort/radix.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/sort/kernels.hpp"

namespace gpukit::detail {
namespace {

constexpr std::int64_t radix = 256;
// GK_ONESWEEP_BYTES_KEYS and _PAIRS of kernels/gpukit_sort.cuh: bytes of keys a onesweep thread holds.
constexpr std::int64_t onesweep_key_bytes = 96, onesweep_pair_bytes = 80;

// GK_SORT_* of kernels/gpukit_sort.cuh.
enum class SortKind : std::int32_t {
    unsigned_int,
    signed_int,
    float16,
    bfloat16,
    float32,
    float64,
    complex64,
    complex128
};

SortKind sort_kind(DType dtype) {
    switch (dtype) {
        case DType::int8:
        case DType::int16:
        case DType::int32:
        case DType::int64: return SortKind::signed_int;
        case DType::float16: return SortKind::float16;
        case DType::bfloat16: return SortKind::bfloat16;
        case DType::float32: return SortKind::float32;
        case DType::float64: return SortKind::float64;
        case DType::complex64: return SortKind::complex64;
        case DType::complex128: return SortKind::complex128;
        default: return SortKind::unsigned_int;
    }
}

int key_bits(DType dtype) {
    if (dtype == DType::bool_) return 1;
    if (dtype == DType::complex128) return 64;
    return static_cast<int>(itemsize(dtype) * 8);
}

DType word_dtype(int bytes) { return bytes == 4 ? DType::uint32 : DType::uint64; }

std::uint64_t address_of(const Array& array) { return launch_address(array, current_stream(array.device())); }

SortParams element_params(const Array& elements) {
    SortParams params{};
    params.elements = address_of(elements);
    params.size = elements.size();
    params.kind = static_cast<std::int32_t>(sort_kind(elements.dtype()));
    params.itemsize = static_cast<std::int32_t>(elements.itemsize());
    return params;
}

}  // namespace

SortKeys encode_keys(const Array& elements, bool canonical_zero, bool wide) {
    const Device& device = elements.device();
    const std::int64_t n = elements.size();
    const int bits = key_bits(elements.dtype());
    const int bytes = wide || bits > 32 ? 8 : 4;
    SortParams params = element_params(elements);
    params.canonical_zero = canonical_zero ? 1 : 0;
    SortKeys keys{Array::empty({n}, word_dtype(bytes), device), std::nullopt, bits};
    params.keys_out = address_of(keys.high);
    const std::string_view kernel = bytes == 4 ? "gk_sort_encode32" : "gk_sort_encode64";
    launch_sort_elements(kernel, device, n, params);
    if (elements.dtype() == DType::complex128) {
        keys.low = Array::empty({n}, DType::uint64, device);
        params.keys_out = address_of(*keys.low);
        params.word = 1;
        launch_sort_elements(kernel, device, n, params);
    }
    return keys;
}

void decode_keys(const SortKeys& keys, const Array& out) {
    SortParams params = element_params(out);
    params.keys_in = address_of(keys.high);
    if (keys.low) params.low_keys = address_of(*keys.low);
    launch_sort_elements(keys.high.itemsize() == 4 ? "gk_sort_decode32" : "gk_sort_decode64", out.device(), out.size(),
                         params);
}

std::optional<std::uint64_t> nan_key(DType dtype) {
    switch (dtype) {
        case DType::float16:
        case DType::bfloat16: return 0xffff;
        case DType::float32: return 0xffffffff;
        case DType::float64: return ~std::uint64_t{0};
        case DType::complex64: return std::uint64_t{0xfffffffd} << 32;
        case DType::complex128: return ~std::uint64_t{0} - 2;
        default: return std::nullopt;
    }
}

namespace {

int row_passes_for(std::int64_t rows) {
    return rows > 1 ? (std::bit_width(static_cast<std::uint64_t>(rows - 1)) + 7) / 8 : 0;
}

// What a sort's passes read and write, each pass's parameters (set by `ends` for the first pass's
// inputs, the last one's outputs and the scratch between), and the widths of its words.
struct PassPlan {
    std::vector<SortParams> passes;
    int key_passes = 0;
    std::int64_t key_bytes = 4, value_bytes = 4;
    bool carry = false;  // values travel with the keys
};

// The simulator's passes: three kernels each, over chunks of at least 16384 keys.
void launch_chunked_passes(const Device& device, const PassPlan& plan) {
    const std::int64_t n = plan.passes.front().size;
    const std::int64_t processors = std::max(1, device.properties().multiprocessor_count);
    const std::int64_t wanted = std::clamp<std::int64_t>(n / 16384, 1, 4 * processors);
    const std::int64_t chunk = (n + wanted - 1) / wanted;
    const std::int64_t blocks = (n + chunk - 1) / chunk;
    const Array counts = Array::empty({radix * blocks + radix}, DType::int64, device);  // then the digits' totals
    const std::string suffix =
        std::string(plan.key_bytes == 4 ? "k32" : "k64") + (plan.value_bytes == 4 ? "_v32" : "_v64");
    const Kernel histogram = sort_kernel("gk_radix_histogram_" + suffix, device);
    const Kernel scan = sort_kernel("gk_radix_scan", device);
    const Kernel scatter = sort_kernel("gk_radix_scatter_" + suffix, device);
    LaunchConfig per_block;
    per_block.stream = current_stream(device);
    per_block.grid = Dim3(static_cast<std::uint32_t>(blocks));
    per_block.block = Dim3(1);
    LaunchConfig per_digit = per_block;
    per_digit.grid = Dim3(static_cast<std::uint32_t>(radix));
    for (SortParams params : plan.passes) {
        params.chunk = chunk;
        params.blocks = blocks;
        params.counts = address_of(counts);
        histogram(per_block, params);
        scan(per_digit, params);
        scatter(per_block, params);
    }
}

// A GPU's passes: onesweep (kernels/gpukit_sort.cuh), one read of the keys counting every pass's
// digits, then a kernel a pass over tiles of 256 x ITEMS keys (ITEMS = onesweep_key_bytes or, with
// values, onesweep_pair_bytes over the wider of key and value, as the kernel's). The scratch, zeroed
// once: each pass's ticket count, its digit totals, and the tiles' look-back words.
void launch_onesweep_passes(const Device& device, const PassPlan& plan) {
    const auto passes = static_cast<std::int64_t>(plan.passes.size());
    const std::int64_t n = plan.passes.front().size;
    const std::int64_t widest = std::max(plan.key_bytes, plan.carry ? plan.value_bytes : 0);
    const std::int64_t threads = 256,
                       tile = threads * ((plan.carry ? onesweep_pair_bytes : onesweep_key_bytes) / widest);
    const std::int64_t tiles = (n + tile - 1) / tile;
    if (tiles > std::int64_t{std::numeric_limits<std::uint32_t>::max()})
        throw InvalidArgumentError("a sort of more tiles than 32-bit tickets count");
    const Array scratch = Array::empty({passes + passes * radix + tiles * radix}, DType::uint64, device);
    scratch.fill(std::uint64_t{0});
    const std::uint64_t tickets = address_of(scratch);
    const std::uint64_t totals = tickets + static_cast<std::uint64_t>(passes) * 8;
    const std::uint64_t statuses = totals + static_cast<std::uint64_t>(passes * radix) * 8;

    const std::string keys = plan.key_bytes == 4 ? "k32" : "k64";
    // Counting: as many blocks as fit at once (8 a multiprocessor, fewer where shared memory runs
    // out), each with up to 8 copies of the counts in at most 48 KiB.
    LaunchConfig count;
    count.stream = current_stream(device);
    constexpr std::int64_t shared_limit = std::int64_t{48} * 1024, shared_per_processor = std::int64_t{200} * 1024;
    const std::int64_t counts_bytes = passes * (radix + 1) * 4;  // a copy of every pass's counts
    std::int32_t copies = 8;
    while (copies > 1 && copies * counts_bytes > shared_limit) copies /= 2;
    count.shared_bytes = static_cast<std::size_t>(copies * counts_bytes);
    const std::int64_t processors = std::max(1, device.properties().multiprocessor_count);
    const std::int64_t resident = std::clamp<std::int64_t>(shared_per_processor / (copies * counts_bytes), 1, 8);
    count.grid =
        Dim3(static_cast<std::uint32_t>(std::clamp<std::int64_t>(n / (threads * 16), 1, resident * processors)));
    count.block = Dim3(static_cast<std::uint32_t>(threads));
    SortParams first = plan.passes.front();
    first.counts = totals;
    first.key_passes = plan.key_passes;
    first.passes = static_cast<std::int32_t>(passes);
    first.copies = copies;
    sort_kernel("gk_radix_count_passes_" + keys + (plan.value_bytes == 4 ? "_v32" : "_v64"), device)(count, first);

    LaunchConfig pass = count;
    pass.grid = Dim3(static_cast<std::uint32_t>(tiles));
    // Its dynamic shared memory (the layout in the kernel): places by digit, the scan's warp sums,
    // the ticket, 8 warps' digit counts, the tile's keys or values, and with values the keys' digits.
    pass.shared_bytes = static_cast<std::size_t>(radix * 8 + std::int64_t{32} * 8 + 8 + 8 * radix * 4 + tile * widest +
                                                 (plan.carry ? tile : 0));
    const Kernel onesweep = sort_kernel(
        "gk_radix_onesweep_" + keys + (plan.carry ? (plan.value_bytes == 4 ? "_v32" : "_v64") : "_v0"), device);
    for (SortParams params : plan.passes) {
        params.counts = totals;
        params.statuses = statuses;
        params.tickets = tickets;
        onesweep(pass, params);
    }
}

// The radix passes over n keys (key_bits significant, then the rows' bits when rows > 1) of
// key_bytes words, carrying values of value_bytes when `carry`. `ends(pass, passes, params)` sets
// where each pass reads and writes (called once a pass, in order): the scratch between passes, and
// the first pass's inputs and the last pass's outputs.
void launch_passes(const Device& device, std::int64_t n, int key_bits, std::int64_t key_bytes, std::int64_t value_bytes,
                   bool carry, std::int64_t row_length, std::int64_t rows, const SortParams& base,
                   const std::function<void(int, int, SortParams&)>& ends) {
    PassPlan plan;
    plan.key_passes = (key_bits + 7) / 8;
    plan.key_bytes = key_bytes;
    plan.value_bytes = value_bytes;
    plan.carry = carry;
    const int passes = plan.key_passes + row_passes_for(rows);
    for (int p = 0; p < passes; ++p) {
        SortParams params = base;
        params.size = n;
        params.row_length = row_length;
        params.pass = p;
        params.digit_of_row = p >= plan.key_passes ? 1 : 0;
        params.shift = 8 * (p >= plan.key_passes ? p - plan.key_passes : p);
        ends(p, passes, params);
        plan.passes.push_back(params);
    }
    if (sort_chunked(device)) {
        launch_chunked_passes(device, plan);
    } else {
        launch_onesweep_passes(device, plan);
    }
}

}  // namespace

SortedPairs radix_sort(Array keys, int bits, std::optional<Array> values, std::int64_t row_length, std::int64_t rows) {
    const Device& device = keys.device();
    const std::int64_t n = keys.size();
    SortedPairs sorted{std::move(keys), std::move(values)};
    if (n <= 1) return sorted;
    if (rows > 1 && !sorted.values) throw InvalidArgumentError("a sort of several rows carries the keys' indices");
    // Each pass from one buffer into the other.
    Array keys_other = Array::empty({n}, sorted.keys.dtype(), device);
    std::optional<Array> values_other;
    if (sorted.values) values_other = Array::empty({n}, sorted.values->dtype(), device);
    launch_passes(device, n, bits, sorted.keys.itemsize(), sorted.values ? sorted.values->itemsize() : 4,
                  sorted.values.has_value(), row_length, rows, SortParams{}, [&](int, int, SortParams& params) {
                      params.keys_in = address_of(sorted.keys);
                      params.keys_out = address_of(keys_other);
                      if (sorted.values) {
                          params.values_in = address_of(*sorted.values);
                          params.values_out = address_of(*values_other);
                      }
                      std::swap(sorted.keys, keys_other);
                      if (sorted.values) std::swap(*sorted.values, *values_other);
                  });
    return sorted;
}

void sort_elements(const Array& elements, bool canonical_zero, std::int64_t row_length, std::int64_t rows,
                   const Array* sorted_out, const Array* indices_out) {
    const Device& device = elements.device();
    const std::int64_t n = elements.size();
    if (n == 0) return;
    if (n == 1) {
        if (sorted_out) copyto(*sorted_out, elements);
        if (indices_out) indices_out->fill(std::int64_t{0});
        return;
    }
    const bool carry = indices_out || rows > 1;
    if (sort_chunked(device)) {
        // The simulator's native loops run faster without the kind of element to make keys of and
        // to write back at each step: keys first, the passes, then the results.
        SortKeys keys = encode_keys(elements, canonical_zero, false);
        std::optional<Array> order;
        if (carry) order = iota(n, device);
        SortedPairs sorted = radix_sort(std::move(keys.high), keys.bits, std::move(order), row_length, rows);
        if (sorted_out) decode_keys({std::move(sorted.keys), std::nullopt, keys.bits}, *sorted_out);
        if (indices_out) copyto(*indices_out, indices_within_rows(*sorted.values, row_length));
        return;
    }
    const int bits = key_bits(elements.dtype());
    const std::int64_t key_bytes = bits > 32 ? 8 : 4;
    const bool narrow = n <= std::int64_t{std::numeric_limits<std::uint32_t>::max()};
    const std::int64_t value_bytes = narrow ? 4 : 8;
    // Scratch between passes: the first reads the elements, the last writes the results.
    std::vector<Array> keys, values;
    for (int b = 0; b < 2; ++b) {
        keys.push_back(Array::empty({n}, word_dtype(static_cast<int>(key_bytes)), device));
        if (carry) values.push_back(Array::empty({n}, narrow ? DType::uint32 : DType::uint64, device));
    }
    SortParams base = element_params(elements);
    base.canonical_zero = canonical_zero ? 1 : 0;
    launch_passes(device, n, bits, key_bytes, value_bytes, carry, row_length, rows, base,
                  [&](int pass, int passes, SortParams& params) {
                      if (pass == 0) {
                          params.encode_input = 1;
                          params.index_values = carry ? 1 : 0;
                      } else {
                          params.keys_in = address_of(keys[static_cast<std::size_t>((pass - 1) % 2)]);
                          if (carry) params.values_in = address_of(values[static_cast<std::size_t>((pass - 1) % 2)]);
                      }
                      if (pass + 1 < passes) {
                          params.keys_out = address_of(keys[static_cast<std::size_t>(pass % 2)]);
                          if (carry) params.values_out = address_of(values[static_cast<std::size_t>(pass % 2)]);
                          return;
                      }
                      if (sorted_out) {
                          params.decode_output = 1;
                          params.decoded = address_of(*sorted_out);
                      }
                      if (indices_out) {
                          params.indices_output = 1;
                          params.positions = address_of(*indices_out);
                      }
                  });
}

Array iota(std::int64_t n, const Device& device) {
    const bool narrow = n <= std::int64_t{std::numeric_limits<std::uint32_t>::max()};
    Array out = Array::empty({n}, narrow ? DType::uint32 : DType::uint64, device);
    SortParams params{};
    params.size = n;
    params.values_out = address_of(out);
    params.index_bytes = narrow ? 4 : 8;
    launch_sort_elements("gk_sort_iota", device, n, params);
    return out;
}

Array gather(const Array& elements, const Array& positions) {
    Array out = Array::empty({positions.size()}, elements.dtype(), elements.device());
    SortParams params{};
    params.size = positions.size();
    params.elements = address_of(elements);
    params.positions = address_of(positions);
    params.keys_out = address_of(out);
    params.itemsize = static_cast<std::int32_t>(elements.itemsize());
    params.index_bytes = static_cast<std::int32_t>(positions.itemsize());
    launch_sort_elements("gk_sort_gather", elements.device(), positions.size(), params);
    return out;
}

Array indices_within_rows(const Array& positions, std::int64_t row_length) {
    Array out = Array::empty({positions.size()}, DType::int64, positions.device());
    SortParams params{};
    params.size = positions.size();
    params.positions = address_of(positions);
    params.keys_out = address_of(out);
    params.row_length = std::max<std::int64_t>(row_length, 1);
    params.index_bytes = static_cast<std::int32_t>(positions.itemsize());
    launch_sort_elements("gk_sort_gather", positions.device(), positions.size(), params);
    return out;
}

Array argsort_keys(SortKeys keys, std::int64_t row_length, std::int64_t rows) {
    Array order = iota(keys.high.size(), keys.high.device());
    if (keys.low) {
        // Least significant word first; the last sort (high words, then rows) keeps its order on ties.
        order = *radix_sort(std::move(*keys.low), keys.bits, std::move(order)).values;
        Array high = gather(keys.high, order);  // before `order` moves into the call
        return *radix_sort(std::move(high), keys.bits, std::move(order), row_length, rows).values;
    }
    return *radix_sort(std::move(keys.high), keys.bits, std::move(order), row_length, rows).values;
}

}  // namespace gpukit::detail
