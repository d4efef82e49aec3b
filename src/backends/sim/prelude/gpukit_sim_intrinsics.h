// src/backends/sim/prelude/gpukit_sim_intrinsics.h: CUDA's integer and bit intrinsics (__popc,
// __clz, __brev, __byte_perm, __funnelshift_*, __mulhi, __sad, ...) and the cache-hinted loads
// and stores (__ldg, __ldcs, __stcg, ...), which on a CPU are plain loads and stores.
//
// Every function is defined for every input, including the ones where the GCC builtin they use
// is not (__clz(0) is 32, __ffs(0) is 0). abs, labs and llabs come from <stdlib.h>.
#pragma once

#include <stdlib.h>

#include <cstdint>
#include <type_traits>

namespace gpukit_sim::detail {

// Keeps a store's value parameter out of template deduction: __stcs(float_ptr, 1.0) converts
// the double, as CUDA's per-type overloads do, instead of failing to deduce T.
template <class T>
struct identity {
    using type = T;
};

inline std::uint32_t reverse_bits(std::uint32_t v) {
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}

// The high 64 bits of a 64 x 64-bit unsigned product, from 32-bit limbs (no __int128, which
// -Wpedantic rejects).
inline std::uint64_t umul64hi(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo;
    const std::uint64_t hi_lo = a_hi * b_lo;
    const std::uint64_t lo_hi = a_lo * b_hi;
    const std::uint64_t hi_hi = a_hi * b_hi;
    const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + (lo_hi & 0xffffffffu);
    return hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32);
}

inline std::uint32_t byte_of(std::uint64_t v, unsigned int index) {
    return static_cast<std::uint32_t>(v >> (8 * index)) & 0xffu;
}

}  // namespace gpukit_sim::detail

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
// The 1-based position of the least significant set bit, 0 when none is set.
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) { return gpukit_sim::detail::reverse_bits(x); }
inline unsigned long long __brevll(unsigned long long x) {
    return (static_cast<unsigned long long>(gpukit_sim::detail::reverse_bits(static_cast<std::uint32_t>(x))) << 32) |
           gpukit_sim::detail::reverse_bits(static_cast<std::uint32_t>(x >> 32));
}

// Byte n of the result is byte s<4n+2:4n> of the 8-byte value y:x (x in the low half). The
// documented selector uses 3 bits per byte; bit 3 of each nibble and s<31:16> are ignored.
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    const std::uint64_t v = (static_cast<std::uint64_t>(y) << 32) | x;
    unsigned int r = 0;
    for (unsigned int n = 0; n < 4; ++n) r |= gpukit_sim::detail::byte_of(v, (s >> (4 * n)) & 7u) << (8 * n);
    return r;
}

// Funnel shifts: the 64-bit value hi:lo shifted by `shift`, of which the _l/_r forms use the
// low 5 bits and the _lc/_rc forms clamp to 32.
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
    const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 32) | lo;
    return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
    const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 32) | lo;
    return static_cast<unsigned int>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
    const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 32) | lo;
    return static_cast<unsigned int>(v >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
    const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 32) | lo;
    return static_cast<unsigned int>(v >> (shift < 32u ? shift : 32u));
}

// 24-bit multiplies: the low 24 bits of each operand (sign-extended from bit 23 for __mul24, as
// the GPU's signed mul24 does), the low 32 bits of the 48-bit product.
inline int __mul24(int x, int y) {
    const std::int64_t a = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << 8) >> 8;
    const std::int64_t b = static_cast<std::int32_t>(static_cast<std::uint32_t>(y) << 8) >> 8;
    return static_cast<int>(static_cast<std::uint32_t>(a * b));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
// High halves of full-width products.
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<std::int64_t>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
    return static_cast<unsigned int>((static_cast<std::uint64_t>(x) * y) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return gpukit_sim::detail::umul64hi(x, y);
}
inline long long __mul64hi(long long x, long long y) {
    // The signed high half from the unsigned one: subtract the other operand once for each
    // negative operand (two's complement: x = ux - 2^64 when x < 0).
    std::uint64_t hi = gpukit_sim::detail::umul64hi(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y));
    if (x < 0) hi -= static_cast<std::uint64_t>(y);
    if (y < 0) hi -= static_cast<std::uint64_t>(x);
    return static_cast<long long>(hi);
}

// |x - y| + z, the difference taken without overflow.
inline unsigned int __sad(int x, int y, unsigned int z) {
    const unsigned int d = x > y ? static_cast<unsigned int>(x) - static_cast<unsigned int>(y)
                                 : static_cast<unsigned int>(y) - static_cast<unsigned int>(x);
    return d + z;
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }

// Halving adds, (x + y) >> 1 and (x + y + 1) >> 1, without overflow in the sum (the signed ones
// round toward negative infinity, as an arithmetic shift does).
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<std::int64_t>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<std::int64_t>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) {
    return static_cast<unsigned int>((static_cast<std::uint64_t>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y) {
    return static_cast<unsigned int>((static_cast<std::uint64_t>(x) + y + 1) >> 1);
}

// Per-byte absolute difference of unsigned bytes (the one SIMD video intrinsic provided).
inline unsigned int __vabsdiffu4(unsigned int a, unsigned int b) {
    unsigned int r = 0;
    for (unsigned int n = 0; n < 4; ++n) {
        const unsigned int x = (a >> (8 * n)) & 0xffu, y = (b >> (8 * n)) & 0xffu;
        r |= (x > y ? x - y : y - x) << (8 * n);
    }
    return r;
}

// Four-way byte dot product with 32-bit accumulate (wrapping, as the GPU's does).
inline int __dp4a(int a, int b, int c) {
    std::uint32_t acc = static_cast<std::uint32_t>(c);
    for (unsigned int n = 0; n < 4; ++n) {
        const auto x = static_cast<std::int8_t>(static_cast<std::uint32_t>(a) >> (8 * n));
        const auto y = static_cast<std::int8_t>(static_cast<std::uint32_t>(b) >> (8 * n));
        acc += static_cast<std::uint32_t>(static_cast<std::int32_t>(x) * y);
    }
    return static_cast<int>(acc);
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
    for (unsigned int n = 0; n < 4; ++n) c += ((a >> (8 * n)) & 0xffu) * ((b >> (8 * n)) & 0xffu);
    return c;
}

// Cache-hinted loads and stores. The hints (read-only path, cache globally, streaming, last use,
// volatile, write-back, write-through) have no meaning for a CPU cache model, so each is the
// plain access; __ldcv is the only one whose GPU semantics (fetch again, do not cache) could
// differ, and a plain load already reads memory each time it runs.
template <class T>
inline T __ldg(const T* ptr) {
    return *ptr;
}
template <class T>
inline T __ldca(const T* ptr) {
    return *ptr;
}
template <class T>
inline T __ldcg(const T* ptr) {
    return *ptr;
}
template <class T>
inline T __ldcs(const T* ptr) {
    return *ptr;
}
template <class T>
inline T __ldlu(const T* ptr) {
    return *ptr;
}
template <class T>
inline T __ldcv(const T* ptr) {
    return *ptr;
}
template <class T>
inline void __stwb(T* ptr, typename gpukit_sim::detail::identity<T>::type value) {
    *ptr = value;
}
template <class T>
inline void __stcg(T* ptr, typename gpukit_sim::detail::identity<T>::type value) {
    *ptr = value;
}
template <class T>
inline void __stcs(T* ptr, typename gpukit_sim::detail::identity<T>::type value) {
    *ptr = value;
}
template <class T>
inline void __stwt(T* ptr, typename gpukit_sim::detail::identity<T>::type value) {
    *ptr = value;
}

// The GPU sleeps for roughly [0, 2 * ns] nanoseconds; 0 is within that range, and a simulated
// thread that sleeps must not hold up the other CUDA threads sharing its OS thread.
inline void __nanosleep(unsigned int ns) { static_cast<void>(ns); }
