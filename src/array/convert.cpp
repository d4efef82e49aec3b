// src/array/convert.cpp: element conversions on the host (see convert.hpp).
#include "array/convert.hpp"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gpukit::detail {

namespace {

// ---- float16 and bfloat16: IEEE-style formats of 16 bits

template <int ExponentBits, int MantissaBits>
std::uint16_t round_to_bits(double value) noexcept {
    constexpr int bias = (1 << (ExponentBits - 1)) - 1;
    constexpr int min_exponent = 1 - bias;  // of the normal numbers; subnormals share it
    constexpr std::uint16_t exponent_field = ((1u << ExponentBits) - 1) << MantissaBits;
    constexpr std::uint64_t implicit_bit = std::uint64_t{1} << MantissaBits;
    const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    if (std::isnan(value)) return sign | exponent_field | (implicit_bit >> 1);  // a quiet NaN
    const double magnitude = std::fabs(value);
    if (std::isinf(magnitude)) return sign | exponent_field;
    if (magnitude == 0) return sign;
    int exponent = std::max(std::ilogb(magnitude), min_exponent);
    // The magnitude in units of the last place at its exponent, rounded to an integer: exact
    // scaling by a power of two, then the default rounding mode (to nearest, ties to even).
    auto mantissa = static_cast<std::uint64_t>(std::nearbyint(std::ldexp(magnitude, MantissaBits - exponent)));
    if (mantissa == 2 * implicit_bit) {  // rounded up into the next binade
        mantissa = implicit_bit;
        ++exponent;
    }
    if (exponent > bias) return sign | exponent_field;                                // beyond the largest finite value
    if (mantissa < implicit_bit) return static_cast<std::uint16_t>(sign | mantissa);  // subnormal
    return static_cast<std::uint16_t>(sign | ((exponent + bias) << MantissaBits) | (mantissa - implicit_bit));
}

template <int ExponentBits, int MantissaBits>
double value_of_bits(std::uint16_t bits) noexcept {
    constexpr int bias = (1 << (ExponentBits - 1)) - 1;
    constexpr unsigned max_field = (1u << ExponentBits) - 1;
    const unsigned field = (bits >> MantissaBits) & max_field;
    const unsigned mantissa = bits & ((1u << MantissaBits) - 1);
    double magnitude;
    if (field == max_field)
        magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (field == 0)
        magnitude = std::ldexp(mantissa, 1 - bias - MantissaBits);
    else
        magnitude = std::ldexp(mantissa + (1u << MantissaBits), static_cast<int>(field) - bias - MantissaBits);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

// ---- element types, one C++ type per dtype

struct Float16 {
    std::uint16_t bits;
};
struct BFloat16 {
    std::uint16_t bits;
};

template <class T>
inline constexpr bool is_complex = false;
template <class T>
inline constexpr bool is_complex<std::complex<T>> = true;
template <class T>
inline constexpr bool is_half = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <class T>
struct Tag {
    using type = T;
};

template <class F>
void with_element_type(DType dtype, F&& f) {
    switch (dtype) {
        case DType::bool_: return f(Tag<bool>{});
        case DType::int8: return f(Tag<std::int8_t>{});
        case DType::int16: return f(Tag<std::int16_t>{});
        case DType::int32: return f(Tag<std::int32_t>{});
        case DType::int64: return f(Tag<std::int64_t>{});
        case DType::uint8: return f(Tag<std::uint8_t>{});
        case DType::uint16: return f(Tag<std::uint16_t>{});
        case DType::uint32: return f(Tag<std::uint32_t>{});
        case DType::uint64: return f(Tag<std::uint64_t>{});
        case DType::float16: return f(Tag<Float16>{});
        case DType::bfloat16: return f(Tag<BFloat16>{});
        case DType::float32: return f(Tag<float>{});
        case DType::float64: return f(Tag<double>{});
        case DType::complex64: return f(Tag<std::complex<float>>{});
        case DType::complex128: return f(Tag<std::complex<double>>{});
    }
}

template <class T>
T load(const std::byte* at) noexcept {
    if constexpr (std::is_same_v<T, bool>) {
        return std::to_integer<std::uint8_t>(*at) != 0;  // any nonzero byte is true
    } else {
        T value;
        std::memcpy(&value, at, sizeof value);
        return value;
    }
}

template <class T>
void store(std::byte* at, const T& value) noexcept {
    std::memcpy(at, &value, sizeof value);
}

// float16 and bfloat16 compute as double, which holds them exactly.
template <class T>
auto widen(const T& value) noexcept {
    if constexpr (std::is_same_v<T, Float16>)
        return float16_value(value.bits);
    else if constexpr (std::is_same_v<T, BFloat16>)
        return bfloat16_value(value.bits);
    else
        return value;
}

template <class T>
auto real_part(const T& value) noexcept {
    if constexpr (is_complex<T>)
        return value.real();
    else
        return value;
}

// A float truncated to a signed integer as x86-64's conversion does: NaN and values out of range
// become the most negative one.
template <class Signed>
Signed truncate_as_x86(double value) noexcept {
    const double limit = std::ldexp(1.0, std::numeric_limits<Signed>::digits);
    const double whole = std::trunc(value);
    if (whole >= -limit && whole < limit) return static_cast<Signed>(whole);
    return std::numeric_limits<Signed>::min();
}

// A float as an integer, with the values NumPy gives on x86-64: narrow types through int32,
// uint32 and int64 through int64 (wrapping into range), uint64 directly where it fits and 0 above.
template <class Integer>
Integer truncate_to(double value) noexcept {
    if constexpr (std::is_same_v<Integer, std::uint64_t>) {
        // x86-64's unsigned conversion: below 2^63 the signed one; from there value - 2^63 converted
        // and 2^63 added back, which for 2^64 and beyond (the signed conversion's overflow) gives 0.
        if (value >= std::ldexp(1.0, 63)) return value < std::ldexp(1.0, 64) ? static_cast<std::uint64_t>(value) : 0;
        return static_cast<std::uint64_t>(truncate_as_x86<std::int64_t>(value));
    } else if constexpr (sizeof(Integer) == 8 || std::is_same_v<Integer, std::uint32_t>) {
        return static_cast<Integer>(truncate_as_x86<std::int64_t>(value));
    } else {
        return static_cast<Integer>(truncate_as_x86<std::int32_t>(value));
    }
}

template <class To, class From>
To convert_one(const From& raw) noexcept {
    const auto value = widen(raw);
    using Value = std::remove_cvref_t<decltype(value)>;
    if constexpr (std::is_same_v<To, bool>) {
        if constexpr (is_complex<Value>)
            return value.real() != 0 || value.imag() != 0;
        else
            return value != 0;
    } else if constexpr (is_complex<To>) {
        using Part = typename To::value_type;
        if constexpr (is_complex<Value>)
            return To(static_cast<Part>(value.real()), static_cast<Part>(value.imag()));
        else
            return To(static_cast<Part>(value), Part{0});
    } else {
        const auto real = real_part(value);
        using Real = std::remove_cvref_t<decltype(real)>;
        if constexpr (std::is_same_v<To, Float16>)
            return To{float16_bits(static_cast<double>(real))};
        else if constexpr (std::is_same_v<To, BFloat16>)
            return To{bfloat16_bits(static_cast<double>(real))};
        else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<Real>)
            return truncate_to<To>(static_cast<double>(real));
        else
            return static_cast<To>(real);
    }
}

}  // namespace

std::uint16_t float16_bits(double value) noexcept { return round_to_bits<5, 10>(value); }
double float16_value(std::uint16_t bits) noexcept { return value_of_bits<5, 10>(bits); }
std::uint16_t bfloat16_bits(double value) noexcept { return round_to_bits<8, 7>(value); }
double bfloat16_value(std::uint16_t bits) noexcept { return value_of_bits<8, 7>(bits); }

void convert_elements(const std::byte* src, std::int64_t src_stride, DType from, std::byte* dst,
                      std::int64_t dst_stride, DType to, std::int64_t count) {
    if (from == to) {
        const auto size = itemsize(from);
        if (src_stride == static_cast<std::int64_t>(size) && dst_stride == src_stride) {
            std::memcpy(dst, src, size * static_cast<std::size_t>(count));
            return;
        }
        for (std::int64_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_stride, src + i * src_stride, size);
        return;
    }
    with_element_type(from, [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        with_element_type(to, [&](auto to_tag) {
            using To = typename decltype(to_tag)::type;
            for (std::int64_t i = 0; i < count; ++i)
                store(dst + i * dst_stride, convert_one<To>(load<From>(src + i * src_stride)));
        });
    });
}

}  // namespace gpukit::detail
