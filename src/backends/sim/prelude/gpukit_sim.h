// src/backends/sim/prelude/gpukit_sim.h: the CUDA built-ins for kernels compiled by the host C++
// compiler. The simulator compiles `#include "gpukit_sim.h"`, then the user's source untouched
// (under `#line 1 "<program name>"`), then a generated registry of the module's kernels.
//
// Shared memory: `__shared__` is `thread_local`. A block runs on one OS thread, so the thread's
// copy is the block's; `extern __shared__` arrays become aliases of one dynamic buffer (the
// simulator links them). Thread identity lives in thread_local contexts that each fiber restores
// after any call that may switch to another fiber (barriers and warp collectives).
#pragma once

// A kernel's assert, abort() and exit() end its launch with a report naming the block and thread
// (as a GPU's device assert does), not the process: the module defines them for its own code
// (-fno-semantic-interposition binds its calls to these; the process keeps the C library's). They
// are declared before any header, so that the C library's declarations agree with these.
#include <features.h>
#ifdef __THROW
#define GPUKIT_SIM_LIBC_NOEXCEPT __THROW
#else
#define GPUKIT_SIM_LIBC_NOEXCEPT
#endif
extern "C" {
__attribute__((noreturn)) void abort(void) GPUKIT_SIM_LIBC_NOEXCEPT;
__attribute__((noreturn)) void exit(int status) GPUKIT_SIM_LIBC_NOEXCEPT;
__attribute__((noreturn)) void _Exit(int status) GPUKIT_SIM_LIBC_NOEXCEPT;
__attribute__((noreturn)) void quick_exit(int status) GPUKIT_SIM_LIBC_NOEXCEPT;
__attribute__((noreturn)) void __assert_fail(const char* assertion, const char* file, unsigned line,
                                             const char* function) GPUKIT_SIM_LIBC_NOEXCEPT;
}

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpukit_sim_abi.h"

namespace gpukit_sim {
inline void yield_after_failed_cas();
}
// A spin lock between threads of one block needs the lock holder to run: yield after a failed CAS.
#define GPUKIT_SIM_ON_FAILED_CAS() ::gpukit_sim::yield_after_failed_cas()
#include "gpukit_sim_device_functions.h"

// ---- qualifiers: host and device code are one program here
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __shared__ thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define __GPUKIT_SIM__ 1

// The module's entry and the block and thread runners run outside the kernel's own accesses
// (on the host's stack, or reading the runtime's argument buffer): never instrumented.
#define GPUKIT_SIM_EXPORT extern "C" __attribute__((visibility("default"), no_sanitize_thread))
#define GPUKIT_SIM_RUNNER __attribute__((no_sanitize_thread))

// Where this file was compiled: the simulator finds the compile's scratch directory from it, to
// name the files of debug lines and barriers as the user named them (SimModule::source_name).
GPUKIT_SIM_EXPORT const char* gpukit_sim_prelude_file() { return __FILE__; }

namespace gpukit_sim {

inline const RuntimeHooks* hooks = nullptr;  // set once when the runtime loads the module

// The running simulated thread's context, at the base of its stack. Reading the stack pointer
// is not volatile, so the compiler may compute this once per function. Always inlined: check mode's
// hooks, which are not instrumented, call it too, and a call would cost more than its body.
__attribute__((always_inline)) inline ThreadContext& current() {
    unsigned long sp;
#if defined(__x86_64__)
    __asm__("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__)
    __asm__("mov %0, sp" : "=r"(sp));
#else
    sp = reinterpret_cast<unsigned long>(__builtin_frame_address(0));
#endif
    return *reinterpret_cast<ThreadContext*>(context_address(sp & ~(kStackBytes - 1)));
}

constexpr int warp_size_value = 32;

// Any thread-local of the module: touching it allocates the thread's whole thread-local block.
static thread_local char thread_local_anchor;
inline void* prepare_thread() { return &thread_local_anchor; }

// These read the runtime's hook table, not the kernel's memory: not instrumented in check mode.
GPUKIT_SIM_RUNNER inline int block_barrier(int kind, int predicate, const char* file, int line) {
    void* const thread = current().thread;
    if (!thread) hooks->barrier_in_loop_mode("__syncthreads", file, line);
    return hooks->block_barrier(thread, kind, predicate, file, line);
}

GPUKIT_SIM_RUNNER inline unsigned long long warp_collective(int kind, unsigned mask, unsigned long long value,
                                                            int operand, int width, const char* file, int line) {
    void* const thread = current().thread;
    if (!thread) hooks->barrier_in_loop_mode("a warp collective", file, line);
    return hooks->warp_collective(thread, kind, mask, value, operand, width, file, line);
}

// After a failed atomicCAS another thread of the block may hold what this one waits for. In
// loop mode there is no other thread to run, but the runtime still watches for endless spinning.
GPUKIT_SIM_RUNNER inline void yield_after_failed_cas() { hooks->yield(current().thread); }

template <class T>
unsigned long long to_bits(const T& value) {
    static_assert(sizeof(T) <= sizeof(unsigned long long), "warp shuffles move at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}

template <class T>
T from_bits(unsigned long long bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}

// Reads of the built-in variables: const, so `threadIdx.x = 0` does not compile, as on the GPU.
static_assert(sizeof(uint3) == sizeof(Index3) && sizeof(dim3) == sizeof(Index3));
#ifndef GPUKIT_SIM_CHECK
inline const uint3& thread_idx() { return reinterpret_cast<const uint3&>(current().thread_idx); }
inline const uint3& block_idx() { return reinterpret_cast<const uint3&>(current().block->block_idx); }
inline const dim3& block_dim() { return reinterpret_cast<const dim3&>(current().block->block_dim); }
inline const dim3& grid_dim() { return reinterpret_cast<const dim3&>(current().block->grid_dim); }
#else
// Check mode reports every load the kernel makes; the built-in variables are the simulator's own
// records, so they are read by values that no instrumentation sees (a load in assembly, which
// the optimiser still drops when the component goes unused).
__attribute__((always_inline)) inline unsigned unseen_load(const unsigned& place) {
#if defined(__x86_64__)
    unsigned value;
    __asm__("movl %1, %0" : "=r"(value) : "m"(place));
    return value;
#elif defined(__aarch64__)
    unsigned value;
    __asm__("ldr %w0, %1" : "=r"(value) : "m"(place));
    return value;
#else
    return place;
#endif
}
__attribute__((always_inline)) inline const BlockContext& unseen_block() {
    const BlockContext* const* place = &current().block;
#if defined(__x86_64__)
    const BlockContext* block;
    __asm__("movq %1, %0" : "=r"(block) : "m"(*place));
    return *block;
#elif defined(__aarch64__)
    const BlockContext* block;
    __asm__("ldr %0, %1" : "=r"(block) : "m"(*place));
    return *block;
#else
    return **place;
#endif
}
__attribute__((always_inline)) inline uint3 unseen_index(const Index3& index) {
    return uint3{unseen_load(index.x), unseen_load(index.y), unseen_load(index.z)};
}
__attribute__((always_inline)) inline const uint3 thread_idx() { return unseen_index(current().thread_idx); }
__attribute__((always_inline)) inline const uint3 block_idx() { return unseen_index(unseen_block().block_idx); }
__attribute__((always_inline)) inline const dim3 block_dim() {
    const uint3 d = unseen_index(unseen_block().block_dim);
    return dim3(d.x, d.y, d.z);
}
__attribute__((always_inline)) inline const dim3 grid_dim() {
    const uint3 d = unseen_index(unseen_block().grid_dim);
    return dim3(d.x, d.y, d.z);
}
#endif

}  // namespace gpukit_sim

#ifdef GPUKIT_SIM_CHECK
#include "gpukit_sim_check.h"
#endif

#define threadIdx (::gpukit_sim::thread_idx())
#define blockIdx (::gpukit_sim::block_idx())
#define blockDim (::gpukit_sim::block_dim())
#define gridDim (::gpukit_sim::grid_dim())
#define warpSize 32

// ---- block barriers
inline void __syncthreads(int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    gpukit_sim::block_barrier(gpukit_sim::barrier_plain, 1, file, line);
}
inline int __syncthreads_count(int predicate, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return gpukit_sim::block_barrier(gpukit_sim::barrier_count, predicate != 0, file, line);
}
inline int __syncthreads_and(int predicate, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return gpukit_sim::block_barrier(gpukit_sim::barrier_and, predicate != 0, file, line);
}
inline int __syncthreads_or(int predicate, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return gpukit_sim::block_barrier(gpukit_sim::barrier_or, predicate != 0, file, line);
}

// ---- warp collectives (32 lanes)
inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    gpukit_sim::warp_collective(gpukit_sim::warp_sync, mask, 0, 0, 32, file, line);
}
template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32, int line = __builtin_LINE(),
              const char* file = __builtin_FILE()) {
    return gpukit_sim::from_bits<T>(gpukit_sim::warp_collective(gpukit_sim::warp_shfl, mask, gpukit_sim::to_bits(var),
                                                                src_lane, width, file, line));
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, int line = __builtin_LINE(),
                 const char* file = __builtin_FILE()) {
    return gpukit_sim::from_bits<T>(gpukit_sim::warp_collective(
        gpukit_sim::warp_shfl_up, mask, gpukit_sim::to_bits(var), static_cast<int>(delta), width, file, line));
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, int line = __builtin_LINE(),
                   const char* file = __builtin_FILE()) {
    return gpukit_sim::from_bits<T>(gpukit_sim::warp_collective(
        gpukit_sim::warp_shfl_down, mask, gpukit_sim::to_bits(var), static_cast<int>(delta), width, file, line));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, int line = __builtin_LINE(),
                  const char* file = __builtin_FILE()) {
    return gpukit_sim::from_bits<T>(gpukit_sim::warp_collective(
        gpukit_sim::warp_shfl_xor, mask, gpukit_sim::to_bits(var), lane_mask, width, file, line));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, int line = __builtin_LINE(),
                              const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_ballot, mask, predicate != 0, 0, 32, file, line));
}
inline int __any_sync(unsigned mask, int predicate, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return static_cast<int>(gpukit_sim::warp_collective(gpukit_sim::warp_any, mask, predicate != 0, 0, 32, file, line));
}
inline int __all_sync(unsigned mask, int predicate, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return static_cast<int>(gpukit_sim::warp_collective(gpukit_sim::warp_all, mask, predicate != 0, 0, 32, file, line));
}
inline unsigned __activemask(int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_activemask, 0xffffffffu, 0, 0, 32, file, line));
}
inline unsigned __reduce_add_sync(unsigned mask, unsigned value, int line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_reduce_add, mask, value, 0, 32, file, line));
}
inline int __reduce_add_sync(unsigned mask, int value, int line = __builtin_LINE(),
                             const char* file = __builtin_FILE()) {
    return static_cast<int>(gpukit_sim::warp_collective(gpukit_sim::warp_reduce_add, mask, static_cast<unsigned>(value),
                                                        0, 32, file, line));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned value, int line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_reduce_min, mask, value, 0, 32, file, line));
}
inline int __reduce_min_sync(unsigned mask, int value, int line = __builtin_LINE(),
                             const char* file = __builtin_FILE()) {
    return static_cast<int>(gpukit_sim::warp_collective(gpukit_sim::warp_reduce_min, mask, static_cast<unsigned>(value),
                                                        1, 32, file, line));
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned value, int line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_reduce_max, mask, value, 0, 32, file, line));
}
inline int __reduce_max_sync(unsigned mask, int value, int line = __builtin_LINE(),
                             const char* file = __builtin_FILE()) {
    return static_cast<int>(gpukit_sim::warp_collective(gpukit_sim::warp_reduce_max, mask, static_cast<unsigned>(value),
                                                        1, 32, file, line));
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned value, int line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_reduce_and, mask, value, 0, 32, file, line));
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned value, int line = __builtin_LINE(),
                                 const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_reduce_or, mask, value, 0, 32, file, line));
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned value, int line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_reduce_xor, mask, value, 0, 32, file, line));
}
template <class T>
unsigned __match_any_sync(unsigned mask, T value, int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    return static_cast<unsigned>(
        gpukit_sim::warp_collective(gpukit_sim::warp_match_any, mask, gpukit_sim::to_bits(value), 0, 32, file, line));
}
template <class T>
unsigned __match_all_sync(unsigned mask, T value, int* predicate, int line = __builtin_LINE(),
                          const char* file = __builtin_FILE()) {
    const auto result =
        gpukit_sim::warp_collective(gpukit_sim::warp_match_all, mask, gpukit_sim::to_bits(value), 0, 32, file, line);
    *predicate = result != 0;
    return static_cast<unsigned>(result);
}

// ---- time
inline long long clock64() {
    unsigned lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return static_cast<long long>((static_cast<unsigned long long>(hi) << 32) | lo);
}
inline long long int clock() { return clock64(); }
inline unsigned long long __globaltimer() { return static_cast<unsigned long long>(clock64()); }

// ---- ending the launch from a kernel: __trap() and __brkpt() as on a GPU; assert, abort and exit
// as declared at the top. Not inlined, so that the return address is the kernel's call site.
namespace gpukit_sim {
[[noreturn]] GPUKIT_SIM_RUNNER inline void end_launch(int kind, const char* text, const char* file, int line,
                                                      const char* function, long value, const void* pc) {
    hooks->fault(kind, text, file, line, function, value, pc);
    __builtin_unreachable();
}
}  // namespace gpukit_sim
[[noreturn]] GPUKIT_SIM_RUNNER __attribute__((noinline)) inline void __trap(int line = __builtin_LINE(),
                                                                            const char* file = __builtin_FILE()) {
    gpukit_sim::end_launch(gpukit_sim::fault_trap, "__trap()", file, line, nullptr, 0, __builtin_return_address(0));
}
[[noreturn]] GPUKIT_SIM_RUNNER __attribute__((noinline)) inline void __brkpt(int line = __builtin_LINE(),
                                                                             const char* file = __builtin_FILE()) {
    gpukit_sim::end_launch(gpukit_sim::fault_trap, "__brkpt()", file, line, nullptr, 0, __builtin_return_address(0));
}
extern "C" GPUKIT_SIM_RUNNER __attribute__((noinline)) void abort(void) GPUKIT_SIM_LIBC_NOEXCEPT {
    gpukit_sim::end_launch(gpukit_sim::fault_abort, "abort()", nullptr, 0, nullptr, 0, __builtin_return_address(0));
}
extern "C" GPUKIT_SIM_RUNNER __attribute__((noinline)) void exit(int status) GPUKIT_SIM_LIBC_NOEXCEPT {
    gpukit_sim::end_launch(gpukit_sim::fault_exit, "exit()", nullptr, 0, nullptr, status, __builtin_return_address(0));
}
extern "C" GPUKIT_SIM_RUNNER __attribute__((noinline)) void _Exit(int status) GPUKIT_SIM_LIBC_NOEXCEPT {
    gpukit_sim::end_launch(gpukit_sim::fault_exit, "_Exit()", nullptr, 0, nullptr, status, __builtin_return_address(0));
}
extern "C" GPUKIT_SIM_RUNNER __attribute__((noinline)) void quick_exit(int status) GPUKIT_SIM_LIBC_NOEXCEPT {
    gpukit_sim::end_launch(gpukit_sim::fault_exit, "quick_exit()", nullptr, 0, nullptr, status,
                           __builtin_return_address(0));
}
extern "C" GPUKIT_SIM_RUNNER __attribute__((noinline)) void __assert_fail(
    const char* assertion, const char* file, unsigned line, const char* function) GPUKIT_SIM_LIBC_NOEXCEPT {
    gpukit_sim::end_launch(gpukit_sim::fault_assertion, assertion, file, static_cast<int>(line), function, 0,
                           __builtin_return_address(0));
}

namespace gpukit_sim {

// ---- entry points generated per kernel (see the registry at the end of the module)

template <auto Kernel>
struct KernelTraits;

// A kernel's parameter values, one member each: a tuple whose members need no function to reach.
template <std::size_t I, class T>
struct ParamValue {
    T value;
};
template <class Indices, class... T>
struct ParamValues;
template <std::size_t... I, class... T>
struct ParamValues<std::index_sequence<I...>, T...> : ParamValue<I, T>... {};

template <class... Params, void (*Kernel)(Params...)>
struct KernelTraits<Kernel> {
    static constexpr unsigned count = sizeof...(Params);
    using Values = ParamValues<std::index_sequence_for<Params...>, std::decay_t<Params>...>;

    static constexpr unsigned long sizes[count + 1] = {sizeof(std::decay_t<Params>)..., 0};

    // Offsets in a packed parameter buffer, aligned as CUDA lays parameters out.
    static constexpr unsigned long offset(unsigned index) {
        constexpr unsigned long alignments[count + 1] = {alignof(std::decay_t<Params>)..., 1};
        unsigned long at = 0;
        for (unsigned i = 0; i <= index && i < count; ++i) {
            at = (at + alignments[i] - 1) / alignments[i] * alignments[i];
            if (i == index) return at;
            at += sizes[i];
        }
        return at;
    }
    template <std::size_t... I>
    static constexpr auto offsets_of(std::index_sequence<I...>) {
        struct Table {
            unsigned long values[count + 1];
        };
        return Table{{offset(static_cast<unsigned>(I))..., 0}};
    }
    static constexpr auto offsets = offsets_of(std::make_index_sequence<count>{});

    // Copied byte for byte (kernel parameters are trivially copyable): in check mode no
    // instrumented code reads the runtime's argument buffer.
    template <std::size_t... I>
    GPUKIT_SIM_RUNNER static Values unpack(void* const* args, std::index_sequence<I...>) {
        Values values{};
        (std::memcpy(static_cast<void*>(&static_cast<ParamValue<I, std::decay_t<Params>>&>(values).value), args[I],
                     sizeof(std::decay_t<Params>)),
         ...);
        return values;
    }

    // The kernel called with the values, read here: in check mode nothing instrumented reads them
    // (std::apply, not inlined into an uninstrumented caller, would, once per thread).
    template <std::size_t... I>
    GPUKIT_SIM_RUNNER __attribute__((always_inline)) static void call(const Values& values, std::index_sequence<I...>) {
        Kernel(static_cast<const ParamValue<I, std::decay_t<Params>>&>(values).value...);
    }

    // The threads of a block in order, x fastest, from linear index `first`. The kernel is inlined
    // into the loop, so the thread-local addresses are computed once per block, not once per thread.
    GPUKIT_SIM_RUNNER static void run_block_loop(void* const* args, unsigned first) {
        const Values values = unpack(args, std::index_sequence_for<Params...>{});
        ThreadContext& context = current();
        const Index3 dim = context.block->block_dim;
        context.thread = nullptr;
        unsigned x = first % dim.x, y = first / dim.x % dim.y;
#ifdef GPUKIT_SIM_CHECK
        // racecheck: who the thread is (the block has no barrier, so its generations stay 0).
        unsigned long long who = context.block->who_base | static_cast<unsigned long long>(first) << race_thread_shift;
#endif
        for (unsigned z = first / (dim.x * dim.y); z < dim.z; ++z, y = 0)
            for (; y < dim.y; ++y, x = 0)
                for (; x < dim.x; ++x) {
                    context.thread_idx = Index3{x, y, z};
#ifdef GPUKIT_SIM_CHECK
                    context.race_who = who;
                    who += 1ull << race_thread_shift;
#endif
                    call(values, std::index_sequence_for<Params...>{});
                }
    }

    GPUKIT_SIM_RUNNER static void run_thread(void* const* args) {
        const Values values = unpack(args, std::index_sequence_for<Params...>{});
        call(values, std::index_sequence_for<Params...>{});
    }
};

template <auto Kernel>
constexpr KernelRecord kernel_record(const char* name, bool synchronises) {
    using Traits = KernelTraits<Kernel>;
    return KernelRecord{name,          &Traits::run_block_loop, &Traits::run_thread, Traits::count,
                        Traits::sizes, Traits::offsets.values,  synchronises};
}

}  // namespace gpukit_sim

// Defined by the simulator's link step when the module has extern __shared__ arrays.
extern "C" __attribute__((weak)) unsigned long gpukit_sim_dynamic_shared_capacity();
