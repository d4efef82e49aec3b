// src/backends/sim/host_reduction.cpp: NCCL's reductions on the host (host_reduction.hpp).
#include "backends/sim/host_reduction.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gpukit::detail::sim {

namespace {

// ---- 16-bit floats, combined in float (as NCCL's kernels do) and rounded to nearest even.
float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu, fraction = h & 0x3ffu;
    if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (fraction << 13));
    if (exponent == 0) {
        const float value = static_cast<float>(fraction) * 0x1p-24f;  // subnormal or zero: exact
        return sign != 0 ? -value : value;
    }
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (fraction << 13));  // rebias 15 -> 127
}

std::uint16_t float_to_half(float f) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    const std::uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude >= 0x7f800000u)  // infinity or NaN
        return static_cast<std::uint16_t>(sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds past 65504
    if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal half, counted in units of 2^-24
        const float units = std::nearbyint(std::bit_cast<float>(magnitude) * 0x1p24f);
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units));
    }
    const std::uint32_t rebiased = magnitude - (112u << 23);
    return static_cast<std::uint16_t>(sign | ((rebiased + 0xfffu + ((rebiased >> 13) & 1u)) >> 13));
}

float bfloat16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

std::uint16_t float_to_bfloat16(float f) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
    return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

// How an element is stored and in which type it is combined.
template <class T>
struct Plain {
    using Storage = T;
    using Acc = T;
    static Acc load(Storage s) { return s; }
    static Storage store(Acc a) { return a; }
};
struct Half {
    using Storage = std::uint16_t;
    using Acc = float;
    static Acc load(Storage s) { return half_to_float(s); }
    static Storage store(Acc a) { return float_to_half(a); }
};
struct BFloat16 {
    using Storage = std::uint16_t;
    using Acc = float;
    static Acc load(Storage s) { return bfloat16_to_float(s); }
    static Storage store(Acc a) { return float_to_bfloat16(a); }
};

template <class Acc>
Acc combine(ReduceOp op, Acc a, Acc b) {
    if constexpr (std::is_integral_v<Acc>) {
        using U = std::make_unsigned_t<Acc>;  // sums and products wrap, as on the GPU
        switch (op) {
            case ReduceOp::prod: return static_cast<Acc>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
            case ReduceOp::max: return a > b ? a : b;
            case ReduceOp::min: return a < b ? a : b;
            default: return static_cast<Acc>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
        }
    } else {
        switch (op) {
            case ReduceOp::prod: return a * b;
            case ReduceOp::max: return std::isnan(a) || a > b ? a : b;
            case ReduceOp::min: return std::isnan(a) || a < b ? a : b;
            default: return a + b;
        }
    }
}

// The sum divided by `n`, truncated toward zero (NCCL's avg of integers).
template <class T>
T divide(T sum, std::size_t n) {
    using U = std::make_unsigned_t<T>;
    const bool negative = std::is_signed_v<T> && sum < 0;
    const U magnitude = negative ? static_cast<U>(U{0} - static_cast<U>(sum)) : static_cast<U>(sum);
    const U quotient = static_cast<U>(magnitude / static_cast<U>(n));
    return static_cast<T>(negative ? static_cast<U>(U{0} - quotient) : quotient);
}

template <class E>
void reduce_typed(ReduceOp op, std::span<const std::byte* const> sources, std::span<std::byte* const> targets,
                  std::size_t count) {
    using Storage = typename E::Storage;
    using Acc = typename E::Acc;
    const std::size_t n = sources.size();
    const bool scaled = op == ReduceOp::avg && !std::is_integral_v<Acc>;
    const Acc scale = scaled ? static_cast<Acc>(1.0 / static_cast<double>(n)) : Acc{1};
    const auto element = [](const std::byte* base, std::size_t i) {
        Storage value;
        std::memcpy(&value, base + i * sizeof(Storage), sizeof(Storage));
        return E::load(value);
    };
    for (std::size_t i = 0; i < count; ++i) {
        Acc acc = element(sources[0], i);
        if (scaled) acc *= scale;
        for (std::size_t r = 1; r < n; ++r) {
            Acc value = element(sources[r], i);
            if (scaled) value *= scale;
            acc = combine(op, acc, value);
        }
        if constexpr (std::is_integral_v<Acc>)
            if (op == ReduceOp::avg) acc = divide(acc, n);
        const Storage result = E::store(acc);
        for (std::byte* target : targets) std::memcpy(target + i * sizeof(Storage), &result, sizeof(Storage));
    }
}

}  // namespace

void reduce_elements(CollectiveType type, ReduceOp op, std::span<const std::byte* const> sources,
                     std::span<std::byte* const> targets, std::size_t count) {
    if (sources.empty() || count == 0) return;
    switch (type) {
        case CollectiveType::int8: return reduce_typed<Plain<std::int8_t>>(op, sources, targets, count);
        case CollectiveType::uint8: return reduce_typed<Plain<std::uint8_t>>(op, sources, targets, count);
        case CollectiveType::int32: return reduce_typed<Plain<std::int32_t>>(op, sources, targets, count);
        case CollectiveType::uint32: return reduce_typed<Plain<std::uint32_t>>(op, sources, targets, count);
        case CollectiveType::int64: return reduce_typed<Plain<std::int64_t>>(op, sources, targets, count);
        case CollectiveType::uint64: return reduce_typed<Plain<std::uint64_t>>(op, sources, targets, count);
        case CollectiveType::float16: return reduce_typed<Half>(op, sources, targets, count);
        case CollectiveType::bfloat16: return reduce_typed<BFloat16>(op, sources, targets, count);
        case CollectiveType::float32: return reduce_typed<Plain<float>>(op, sources, targets, count);
        case CollectiveType::float64: return reduce_typed<Plain<double>>(op, sources, targets, count);
    }
}

}  // namespace gpukit::detail::sim
