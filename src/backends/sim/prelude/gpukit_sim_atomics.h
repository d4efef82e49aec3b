// src/backends/sim/prelude/gpukit_sim_atomics.h: CUDA's atomic functions and memory fences on
// plain memory, atomic across the OS threads that run the simulated blocks.
//
// Each function is one GCC/Clang __atomic operation on the object itself, with relaxed ordering
// as CUDA's atomics have; where no instruction exists (floating-point add, min/max, inc/dec) it
// is a compare-and-swap loop on the object's bytes, so a float sum is exact under contention
// and a NaN or -0 in memory does not make the loop spin. Every function returns the old value.
// The _block and _system variants are the same operations: on a CPU every atomic is system-wide.
#pragma once

#include <atomic>

#include "gpukit_sim_half.h"
#include "gpukit_sim_vector_types.h"

// Called after a user's atomicCAS fails to swap. The simulator runtime defines it (before this
// header) to let the other CUDA threads of the block run: they share one OS thread, so a spin
// lock held by one of them would otherwise never be released. By default it does nothing. It
// changes inline functions, so every translation unit of one program must see the same definition.
#ifndef GPUKIT_SIM_ON_FAILED_CAS
#define GPUKIT_SIM_ON_FAILED_CAS() static_cast<void>(0)
#endif

// Always inlined, so that check mode's reports of an atomic access name the user's line (through
// the inlining chain) rather than a line of this header.
#define GPUKIT_SIM_ATOMIC __attribute__((always_inline)) inline

namespace gpukit_sim::detail {

// old -> op(old), atomically, by compare-and-swap on the bytes; returns old.
template <class T, class Op>
GPUKIT_SIM_ATOMIC T atomic_update(T* address, Op op) {
    T old;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    T desired = op(old);
    while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        desired = op(old);
    }
    return old;
}

// Stores val only while it is smaller (larger), so a losing thread does not write at all.
template <class T>
GPUKIT_SIM_ATOMIC T atomic_min(T* address, T val) {
    T old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (val < old && !__atomic_compare_exchange_n(address, &old, val, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}

template <class T>
GPUKIT_SIM_ATOMIC T atomic_max(T* address, T val) {
    T old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (val > old && !__atomic_compare_exchange_n(address, &old, val, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}

template <class T>
GPUKIT_SIM_ATOMIC T atomic_cas(T* address, T compare, T val) {
    T expected = compare;
    if (!__atomic_compare_exchange_n(address, &expected, val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        GPUKIT_SIM_ON_FAILED_CAS();
    }
    return expected;
}

}  // namespace gpukit_sim::detail

// ---------------------------------------------------------------------------------------------
// Arithmetic.

GPUKIT_SIM_ATOMIC int atomicAdd(int* address, int val) { return __atomic_fetch_add(address, val, __ATOMIC_RELAXED); }
GPUKIT_SIM_ATOMIC unsigned int atomicAdd(unsigned int* address, unsigned int val) {
    return __atomic_fetch_add(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicAdd(unsigned long long* address, unsigned long long val) {
    return __atomic_fetch_add(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC float atomicAdd(float* address, float val) {
    return gpukit_sim::detail::atomic_update(address, [val](float old) { return old + val; });
}
GPUKIT_SIM_ATOMIC double atomicAdd(double* address, double val) {
    return gpukit_sim::detail::atomic_update(address, [val](double old) { return old + val; });
}
GPUKIT_SIM_ATOMIC __half atomicAdd(__half* address, __half val) {
    return gpukit_sim::detail::atomic_update(address, [val](__half old) { return __hadd(old, val); });
}
// CUDA makes each element of a pair atomic on its own; this updates the pair as one word, which
// is at least as strong.
GPUKIT_SIM_ATOMIC __half2 atomicAdd(__half2* address, __half2 val) {
    return gpukit_sim::detail::atomic_update(address, [val](__half2 old) { return __hadd2(old, val); });
}
GPUKIT_SIM_ATOMIC __nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 val) {
    return gpukit_sim::detail::atomic_update(address, [val](__nv_bfloat16 old) { return __hadd(old, val); });
}
GPUKIT_SIM_ATOMIC __nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 val) {
    return gpukit_sim::detail::atomic_update(address, [val](__nv_bfloat162 old) { return __hadd2(old, val); });
}
// The vector forms (compute capability 9.x) are atomic per element, as in CUDA.
GPUKIT_SIM_ATOMIC float2 atomicAdd(float2* address, float2 val) {
    return float2{atomicAdd(&address->x, val.x), atomicAdd(&address->y, val.y)};
}
GPUKIT_SIM_ATOMIC float4 atomicAdd(float4* address, float4 val) {
    return float4{atomicAdd(&address->x, val.x), atomicAdd(&address->y, val.y), atomicAdd(&address->z, val.z),
                  atomicAdd(&address->w, val.w)};
}

GPUKIT_SIM_ATOMIC int atomicSub(int* address, int val) { return __atomic_fetch_sub(address, val, __ATOMIC_RELAXED); }
GPUKIT_SIM_ATOMIC unsigned int atomicSub(unsigned int* address, unsigned int val) {
    return __atomic_fetch_sub(address, val, __ATOMIC_RELAXED);
}

GPUKIT_SIM_ATOMIC int atomicExch(int* address, int val) { return __atomic_exchange_n(address, val, __ATOMIC_RELAXED); }
GPUKIT_SIM_ATOMIC unsigned int atomicExch(unsigned int* address, unsigned int val) {
    return __atomic_exchange_n(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicExch(unsigned long long* address, unsigned long long val) {
    return __atomic_exchange_n(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC float atomicExch(float* address, float val) {
    float old;
    __atomic_exchange(address, &val, &old, __ATOMIC_RELAXED);
    return old;
}

GPUKIT_SIM_ATOMIC int atomicMin(int* address, int val) { return gpukit_sim::detail::atomic_min(address, val); }
GPUKIT_SIM_ATOMIC unsigned int atomicMin(unsigned int* address, unsigned int val) {
    return gpukit_sim::detail::atomic_min(address, val);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicMin(unsigned long long* address, unsigned long long val) {
    return gpukit_sim::detail::atomic_min(address, val);
}
GPUKIT_SIM_ATOMIC long long atomicMin(long long* address, long long val) {
    return gpukit_sim::detail::atomic_min(address, val);
}
GPUKIT_SIM_ATOMIC int atomicMax(int* address, int val) { return gpukit_sim::detail::atomic_max(address, val); }
GPUKIT_SIM_ATOMIC unsigned int atomicMax(unsigned int* address, unsigned int val) {
    return gpukit_sim::detail::atomic_max(address, val);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicMax(unsigned long long* address, unsigned long long val) {
    return gpukit_sim::detail::atomic_max(address, val);
}
GPUKIT_SIM_ATOMIC long long atomicMax(long long* address, long long val) {
    return gpukit_sim::detail::atomic_max(address, val);
}

// Wrapping counters: atomicInc stores (old >= val) ? 0 : old + 1, atomicDec stores
// (old == 0 || old > val) ? val : old - 1.
GPUKIT_SIM_ATOMIC unsigned int atomicInc(unsigned int* address, unsigned int val) {
    return gpukit_sim::detail::atomic_update(address, [val](unsigned int old) { return old >= val ? 0u : old + 1u; });
}
GPUKIT_SIM_ATOMIC unsigned int atomicDec(unsigned int* address, unsigned int val) {
    return gpukit_sim::detail::atomic_update(
        address, [val](unsigned int old) { return (old == 0u || old > val) ? val : old - 1u; });
}

// ---------------------------------------------------------------------------------------------
// Bitwise.

GPUKIT_SIM_ATOMIC int atomicAnd(int* address, int val) { return __atomic_fetch_and(address, val, __ATOMIC_RELAXED); }
GPUKIT_SIM_ATOMIC unsigned int atomicAnd(unsigned int* address, unsigned int val) {
    return __atomic_fetch_and(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicAnd(unsigned long long* address, unsigned long long val) {
    return __atomic_fetch_and(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC int atomicOr(int* address, int val) { return __atomic_fetch_or(address, val, __ATOMIC_RELAXED); }
GPUKIT_SIM_ATOMIC unsigned int atomicOr(unsigned int* address, unsigned int val) {
    return __atomic_fetch_or(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicOr(unsigned long long* address, unsigned long long val) {
    return __atomic_fetch_or(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC int atomicXor(int* address, int val) { return __atomic_fetch_xor(address, val, __ATOMIC_RELAXED); }
GPUKIT_SIM_ATOMIC unsigned int atomicXor(unsigned int* address, unsigned int val) {
    return __atomic_fetch_xor(address, val, __ATOMIC_RELAXED);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicXor(unsigned long long* address, unsigned long long val) {
    return __atomic_fetch_xor(address, val, __ATOMIC_RELAXED);
}

// ---------------------------------------------------------------------------------------------
// Compare-and-swap: stores val if *address == compare; returns the old value either way.

GPUKIT_SIM_ATOMIC int atomicCAS(int* address, int compare, int val) {
    return gpukit_sim::detail::atomic_cas(address, compare, val);
}
GPUKIT_SIM_ATOMIC unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int val) {
    return gpukit_sim::detail::atomic_cas(address, compare, val);
}
GPUKIT_SIM_ATOMIC unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                               unsigned long long val) {
    return gpukit_sim::detail::atomic_cas(address, compare, val);
}
GPUKIT_SIM_ATOMIC unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short val) {
    return gpukit_sim::detail::atomic_cas(address, compare, val);
}

// ---------------------------------------------------------------------------------------------
// Scoped variants: each forwards to the overload set above, so they accept exactly what it does.

#define GPUKIT_SIM_SCOPED_ATOMIC(name)                                                      \
    template <class T, class... Args>                                                       \
    inline auto name##_block(T* address, Args... args)->decltype(name(address, args...)) {  \
        return name(address, args...);                                                      \
    }                                                                                       \
    template <class T, class... Args>                                                       \
    inline auto name##_system(T* address, Args... args)->decltype(name(address, args...)) { \
        return name(address, args...);                                                      \
    }
GPUKIT_SIM_SCOPED_ATOMIC(atomicAdd)
GPUKIT_SIM_SCOPED_ATOMIC(atomicSub)
GPUKIT_SIM_SCOPED_ATOMIC(atomicExch)
GPUKIT_SIM_SCOPED_ATOMIC(atomicMin)
GPUKIT_SIM_SCOPED_ATOMIC(atomicMax)
GPUKIT_SIM_SCOPED_ATOMIC(atomicInc)
GPUKIT_SIM_SCOPED_ATOMIC(atomicDec)
GPUKIT_SIM_SCOPED_ATOMIC(atomicAnd)
GPUKIT_SIM_SCOPED_ATOMIC(atomicOr)
GPUKIT_SIM_SCOPED_ATOMIC(atomicXor)
GPUKIT_SIM_SCOPED_ATOMIC(atomicCAS)
#undef GPUKIT_SIM_SCOPED_ATOMIC

// ---------------------------------------------------------------------------------------------
// Fences. CUDA's order the calling thread's memory accesses as seen by the block, the device or
// the system; on a CPU all three are a full fence.

GPUKIT_SIM_ATOMIC void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
GPUKIT_SIM_ATOMIC void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
GPUKIT_SIM_ATOMIC void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
